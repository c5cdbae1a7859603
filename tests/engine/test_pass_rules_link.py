"""docs/PASS.md phase 4, rule by rule: who links to whom, the reason, both directions, and the
per-run bounds; a later run never reports an existing link again."""

from __future__ import annotations

import pytest

from tests.support.note_builders import NOW_ISO, link, note, result, run_pass


def new_link(to: str, reason: str) -> dict[str, str]:
    return link(to, f"shared context: {reason}", NOW_ISO)


def changes(got: dict) -> list[tuple[str, str, str]]:
    return [(c["type"], c["noteId"], c["detail"]) for c in got["changes"]]


def test_related_notes_are_linked_both_ways_with_the_shared_tokens() -> None:
    a = note("a", "alpha beta gamma delta")
    b = note("b", "delta gamma beta omega")
    got, after = run_pass([a, b])
    assert got == result(2, [("link", "a", "Linked to b")])
    reason = "beta, gamma, delta"  # in a's token order
    assert after["a"] == {**a, "links": [new_link("b", reason)], "updatedAt": NOW_ISO}
    assert after["b"] == {**b, "links": [new_link("a", reason)], "updatedAt": NOW_ISO}


def test_the_reason_names_at_most_three_shared_tokens_in_this_notes_order() -> None:
    a = note("a", "zeta eta theta iota kappa")
    b = note("b", "kappa iota theta eta zeta xx yy zz")
    _, after = run_pass([a, b])
    assert after["a"]["links"] == [new_link("b", "zeta, eta, theta")]
    assert after["b"]["links"] == [new_link("a", "zeta, eta, theta")]


def test_title_tokens_count() -> None:
    got, after = run_pass(
        [note("a", "alpha", title="Deploy"), note("b", "alpha zzz", title="deploy")]
    )
    assert got == result(2, [("link", "a", "Linked to b")])
    assert after["a"]["links"] == [new_link("b", "deploy, alpha")]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("alpha beta", "alpha gamma"),
        ("alpha alpha beta", "alpha alpha gamma"),
        ("alpha the beta", "alpha the gamma"),
        ("alpha b beta", "alpha b gamma"),
    ],
)
def test_fewer_than_two_distinct_shared_tokens_is_no_link(first: str, second: str) -> None:
    got, _ = run_pass([note("a", first), note("b", second)])
    assert got == result(2, [])


@pytest.mark.parametrize(
    "links", [[link("x"), link("y")], [link("x"), link("x")], [link("a"), link("a")]]
)
def test_a_note_with_two_links_does_not_look_but_can_be_found(links: list) -> None:
    a = note("a", "alpha beta one", links=links)
    b = note("b", "alpha beta two")
    got, after = run_pass([a, b])
    # b looks from the start of the pass order and finds a, which gets a third link.
    assert got == result(2, [("link", "b", "Linked to a")])
    assert after["a"]["links"] == [*links, new_link("b", "alpha, beta")]


def test_a_self_link_found_in_the_file_counts_as_a_link() -> None:
    a = note("a", "alpha beta one", links=[link("a")])
    got, after = run_pass([a, note("b", "alpha beta two")])
    assert got == result(2, [("link", "a", "Linked to b")])
    assert after["a"]["links"] == [link("a"), new_link("b", "alpha, beta")]


def test_link_counts_are_taken_after_the_merges() -> None:
    a = note("a", "kappa lambda mu", links=[link("x")])
    b = note("b", "kappa lambda mu", links=[link("y")])
    c = note("c", "kappa lambda nu")
    got, after = run_pass([a, b, c])
    # The winner a now holds x and y: it does not look; c finds it.
    assert got == result(
        3, [("merge", "a", "Merged duplicate note b"), ("link", "c", "Linked to a")]
    )
    assert after["a"]["links"] == [link("x"), link("y"), new_link("c", "kappa, lambda")]


def test_notes_of_another_nugget_or_hidden_notes_are_not_linked() -> None:
    got, _ = run_pass([note("a", "alpha beta one"), note("b", "alpha beta two", nuggetName="u")])
    assert got["linked"] == 0
    got, _ = run_pass([note("a", "alpha beta one"), note("b", "alpha beta two", hidden=True)])
    assert got == result(2, [])


@pytest.mark.parametrize(
    ("first", "second", "linked"),
    [
        (
            {"scope": "user", "subject": "user:primary"},
            {"scope": "user", "subject": "user:primary"},
            True,
        ),
        (
            {"scope": "user", "subject": "user:primary"},
            {"scope": "user", "subject": "user:other"},
            False,
        ),
        (
            {"scope": "user", "subject": "user:primary"},
            {"scope": "self", "subject": "assistant:self"},
            False,
        ),
        (
            {"scope": "user", "subject": "user:primary"},
            {"scope": "project", "subject": "shared:x"},
            True,
        ),
        (
            {"scope": "shared", "subject": "shared:team"},
            {"scope": "self", "subject": "assistant:self"},
            True,
        ),
        ({"scope": "team", "subject": "team:a"}, {"scope": "team", "subject": "team:b"}, False),
        ({"scope": "team", "subject": "team:a"}, {"scope": "team", "subject": "team:a"}, True),
    ],
)
def test_subjects_must_be_equal_or_either_scope_shared_or_project(
    first: dict, second: dict, linked: bool
) -> None:
    got, _ = run_pass([note("a", "alpha beta one", **first), note("b", "alpha beta two", **second)])
    assert ("link", "a", "Linked to b") in changes(got) if linked else got["linked"] == 0


def test_notes_already_linked_in_either_direction_are_skipped() -> None:
    forward = [
        note("a", "alpha beta one", links=[link("b")]),
        note("b", "alpha beta two"),
        note("c", "alpha beta three"),
    ]
    got, _ = run_pass(forward)
    assert got == result(3, [("link", "a", "Linked to c")])
    backward = [
        note("a", "alpha beta one"),
        note("b", "alpha beta two", links=[link("a")]),
        note("c", "alpha beta three"),
    ]
    got, _ = run_pass(backward)
    assert got == result(3, [("link", "a", "Linked to c")])


def test_one_new_link_per_note_per_run_and_later_runs_finish_the_work() -> None:
    notes = [
        note("a", "alpha beta one"),
        note("b", "alpha beta two"),
        note("c", "alpha beta three"),
    ]
    runs = []
    for _ in range(4):
        got, after = run_pass(notes)
        runs.append(changes(got))
        notes = list(after.values())
    # Run 2: a and b were updated by run 1, so c (older) comes first in pass order.
    assert runs == [
        [("link", "a", "Linked to b")],
        [("link", "c", "Linked to a")],
        [("link", "b", "Linked to c")],
        [],
    ]
    assert [len(n["links"]) for n in notes] == [2, 2, 2]


def test_a_second_run_does_not_report_the_link_again() -> None:
    _, after = run_pass([note("a", "alpha beta one"), note("b", "alpha beta two")])
    linked = list(after.values())
    got, again = run_pass(linked)
    assert got == result(2, [])
    assert list(again.values()) == linked


def test_links_are_bounded_by_the_limit_unless_uncapped() -> None:
    notes = [
        note("a", "alpha beta one"),
        note("b", "alpha beta two"),
        note("c", "gamma delta three"),
        note("d", "gamma delta four"),
    ]
    capped, _ = run_pass(notes, limit=1)
    assert capped == result(1, [("link", "a", "Linked to b")])
    lifted, _ = run_pass(notes, limit=1, uncapped=True)
    assert lifted == result(4, [("link", "a", "Linked to b"), ("link", "c", "Linked to d")])
