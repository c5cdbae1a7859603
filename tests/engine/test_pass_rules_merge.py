"""docs/PASS.md phase 3, rule by rule: which pairs merge, who wins, what the winner, the loser and
every other note look like afterwards, and the per-run bounds."""

from __future__ import annotations

import pytest

from tests.support.note_builders import NOW_ISO, link, note, result, run_pass

TOKENS = [f"t{i:02d}" for i in range(100)]
SAME = "kappa lambda mu"
REWRITE = "Normalized duplicated whitespace and repeated lines"


def merged_link(winner: str) -> dict[str, str]:
    return link(winner, f"merged into {winner}", NOW_ISO)


def test_jaccard_exactly_0_9_merges_and_the_longer_content_wins() -> None:
    a = note("a", "aa bb cc dd ee\nff gg hh ii jj", hits=3)  # 10 tokens
    b = note("b", "aa bb cc dd ee\nff gg hh ii", hits=2)  # 9 of them: 9/10
    got, after = run_pass([a, b])
    assert got == result(2, [("merge", "a", "Merged duplicate note b")])
    assert after["a"] == {
        **a,
        "content": "aa bb cc dd ee\nff gg hh ii jj\nff gg hh ii",
        "hits": 5,
        "lastRewrittenAt": NOW_ISO,
        "updatedAt": NOW_ISO,
    }
    assert after["b"] == {
        **b,
        "hidden": True,
        "archivedAt": NOW_ISO,
        "updatedAt": NOW_ISO,
        "links": [merged_link("a")],
    }


def test_jaccard_just_below_0_9_does_not_merge() -> None:
    a = note("a", "aa bb cc dd ee ff gg hh ii")
    b = note("b", "aa bb cc dd ee ff gg hh")  # 8/9
    got, _ = run_pass([a, b])
    assert got == result(2, [("link", "a", "Linked to b")])


@pytest.mark.parametrize(("shared", "size", "merges"), [(90, 100, True), (89, 99, False)])
def test_the_boundary_holds_on_large_sets(shared: int, size: int, merges: bool) -> None:
    a = note("a", " ".join(TOKENS[:size]))
    b = note("b", " ".join(TOKENS[:shared]))
    got, _ = run_pass([a, b])
    assert (got["merged"] == 1) is merges


@pytest.mark.parametrize(
    "field",
    [
        {"nuggetName": "user"},
        {"subject": "user:primary"},
        {"scope": "shared"},
        {"type": "note"},
    ],
)
def test_nugget_subject_scope_and_type_must_all_be_equal(field: dict) -> None:
    got, after = run_pass([note("a", SAME), note("b", SAME, **field)])
    assert got["merged"] == 0
    assert "merge" not in [c["type"] for c in got["changes"]]
    assert not after["a"]["hidden"] and not after["b"]["hidden"]


def test_hidden_notes_and_notes_archived_this_run_do_not_merge() -> None:
    got, _ = run_pass([note("a", SAME), note("b", SAME, hidden=True)])
    assert got == result(2, [])
    scratch = note("a", SAME, title="tmp")
    kept = note("b", SAME, title="tmp", hits=1)
    got, after = run_pass([scratch, kept])
    assert got == result(2, [("hide", "a", "Archived low-value note")])
    assert after["b"] is kept


def test_a_tie_goes_to_the_note_earlier_in_pass_order_by_id() -> None:
    # Same nugget and updatedAt: ids decide, as strings ("n10" < "n2").
    got, _ = run_pass([note("n2", SAME), note("n10", SAME)])
    assert got == result(2, [("merge", "n10", "Merged duplicate note n2")])


def test_pass_order_uses_updated_at_as_it_stood_before_the_pass() -> None:
    # x is older, so first; phase 2 retags it (updatedAt becomes now) but it stays first.
    x = note("x", SAME, tags=[], updatedAt="2026-09-01T00:00:00.000Z")
    a = note("a", SAME)
    got, after = run_pass([a, x])
    tags = "scope:project, type:fact, fact, shared-context"
    assert got == result(
        2, [("tag", "x", f"Tags -> {tags}"), ("merge", "x", "Merged duplicate note a")]
    )
    assert after["a"]["links"] == [merged_link("x")]


def test_the_longer_content_as_it_stands_after_phase_2_wins() -> None:
    # a is longer as read, but normalizing leaves "kappa lambda mu" (15) < b's 21.
    a = note("a", "kappa  lambda  mu\nkappa  lambda mu")
    b = note("b", "kappa lambda mu\nkappa")
    got, after = run_pass([a, b])
    assert got == result(2, [("rewrite", "a", REWRITE), ("merge", "b", "Merged duplicate note a")])
    assert after["b"]["content"] == "kappa lambda mu\nkappa"
    assert after["a"]["hidden"] is True


def test_winner_keeps_its_formatting_and_gains_only_new_non_blank_loser_lines() -> None:
    a = note("a", "deploy steps\n    build app\n\n  ship app")
    b = note("b", "deploy steps\nbuild app\n\n  ship build")
    _, after = run_pass([a, b])
    assert after["a"]["content"] == "deploy steps\n    build app\n\n  ship app\n  ship build"


def test_winner_takes_the_union_of_tags_and_links_and_the_sum_of_hits() -> None:
    tidy = ["scope:project", "type:fact", "fact", "shared-context"]
    a = note("a", SAME, tags=[*tidy, "ops"], links=[link("b"), link("x")], hits=2)
    b = note(
        "b",
        SAME,
        tags=[*tidy, "deploy", "ops"],
        links=[link("a"), link("x", "other reason"), link("y")],
        hits=3,
    )
    got, after = run_pass([a, b])
    assert got == result(2, [("merge", "a", "Merged duplicate note b")])
    assert after["a"] == {
        **a,
        "tags": [*tidy, "ops", "deploy"],
        "links": [link("x"), link("y")],
        "hits": 5,
        "lastRewrittenAt": NOW_ISO,
        "updatedAt": NOW_ISO,
    }
    # The loser keeps its other links; its link to the winner becomes the merge link.
    assert after["b"] == {
        **b,
        "hidden": True,
        "archivedAt": NOW_ISO,
        "updatedAt": NOW_ISO,
        "links": [link("x", "other reason"), link("y"), merged_link("a")],
    }


def test_the_union_of_tags_holds_each_tag_once() -> None:
    tidy = ["scope:project", "type:fact", "fact", "shared-context"]
    a = note("a", SAME, tags=[*tidy, "ops", "ops"])
    b = note("b", SAME, tags=[*tidy, "deploy", "ops", "deploy"])
    older = note("c", "unrelated words", updatedAt="2026-01-01T00:00:00.000Z")
    # Only c is inspected, so a and b reach the merge with their tags as read.
    got, after = run_pass([a, b, older], limit=1)
    assert got == result(1, [("merge", "a", "Merged duplicate note b")])
    assert after["a"]["tags"] == [*tidy, "ops", "deploy"]


def _referrers() -> list[dict]:
    return [
        note("c", "alpha one", links=[link("b"), link("b", "again")]),
        note("d", "bravo two", links=[link("a"), link("b")]),
        note("e", "charlie three", links=[link("b")], hidden=True),
        note(
            "f",
            "delta four",
            links=[link("b", "why", "2026-10-05T00:00:00.000Z")],
            nuggetName="user",
        ),
        note("g", "echo five", links=[link("z")]),
    ]


@pytest.mark.parametrize("nugget", [None, "project"])
def test_every_other_notes_link_to_the_loser_points_at_the_winner(nugget: str | None) -> None:
    others = _referrers()
    got, after = run_pass([note("a", SAME), note("b", SAME), *others], nugget=nugget)
    assert [(c["type"], c["noteId"]) for c in got["changes"]] == [("merge", "a")]
    c, d, e, f, g = others
    assert after["c"] == {**c, "links": [link("a")], "updatedAt": NOW_ISO}
    assert after["d"] == {**d, "links": [link("a")], "updatedAt": NOW_ISO}
    assert after["e"] == {**e, "links": [link("a")], "updatedAt": NOW_ISO}
    assert after["f"] == {
        **f,
        "links": [link("a", "why", "2026-10-05T00:00:00.000Z")],
        "updatedAt": NOW_ISO,
    }
    assert after["g"] is g


def test_a_note_takes_part_in_at_most_one_merge_per_run() -> None:
    notes = [note("a", SAME, hits=1), note("b", SAME, hits=1), note("c", SAME, hits=1)]
    got, after = run_pass(notes)
    assert got == result(
        3, [("merge", "a", "Merged duplicate note b"), ("link", "a", "Linked to c")]
    )
    assert after["c"]["hidden"] is False
    again, final = run_pass(list(after.values()))
    assert again == result(3, [("merge", "a", "Merged duplicate note c")])
    assert final["a"]["hits"] == 3
    assert final["a"]["links"] == []
    assert final["c"]["links"] == [merged_link("a")]


def test_merges_are_bounded_by_the_limit_unless_uncapped() -> None:
    notes = [note(i, SAME) for i in "abcd"]
    capped, _ = run_pass(notes, limit=1)
    assert capped == result(
        1, [("merge", "a", "Merged duplicate note b"), ("link", "a", "Linked to c")]
    )
    lifted, _ = run_pass(notes, limit=1, uncapped=True)
    assert lifted == result(
        4,
        [
            ("merge", "a", "Merged duplicate note b"),
            ("merge", "c", "Merged duplicate note d"),
            ("link", "a", "Linked to c"),
        ],
    )
