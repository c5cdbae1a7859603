"""docs/PASS.md rule by rule: limits, phase 1 (select), phase 2 (archive, normalize, retag), the
ReflectionResult, timestamps; and the reading rules of docs/FORMATS.md the pass depends on.
Phases 3 and 4 are in test_pass_rules_merge.py and test_pass_rules_link.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from core.clock import epoch_ms, fixed_clock
from core.errors import NuggetsError
from core.models import Note
from core.reflection.reflect import plan_pass
from core.reflection.select_phase import quality, resolve_limit
from core.settings import load
from core.stores.nuggets.store import NuggetsStore
from tests.support.note_builders import NOW, NOW_ISO, OLD, link, make_home, note, result, run_pass

HIDE = "Archived low-value note"
REWRITE = "Normalized duplicated whitespace and repeated lines"


def ago(**delta: float) -> str:
    return (NOW - timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


# -- limit -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "env", "expected"),
    [
        (None, {}, 10),
        (None, {"MEMORY_REFLECTION_MAX_NOTES": "3"}, 3),
        (None, {"MEMORY_REFLECTION_MAX_NOTES": "25"}, 10),
        (None, {"MEMORY_REFLECTION_MAX_NOTES": ""}, 10),
        (4, {"MEMORY_REFLECTION_MAX_NOTES": "3"}, 4),
        (50, {}, 10),
    ],
)
def test_limit_defaults_to_env_else_10_and_is_capped_at_10(
    given: int | None, env: dict[str, str], expected: int
) -> None:
    assert resolve_limit(given, load(env).settings.max_notes) == expected


@pytest.mark.parametrize("raw", ["many", "abc", "-3", "2.5", "²"])
def test_a_limit_from_the_environment_that_is_no_number_is_an_error_naming_it(raw: str) -> None:
    with pytest.raises(NuggetsError, match="MEMORY_REFLECTION_MAX_NOTES"):
        load({"MEMORY_REFLECTION_MAX_NOTES": raw})


def _messy(note_id: str, word: str, **extra: Any) -> dict:
    """A note whose only phase-2 change is a rewrite; its tokens are shared with no other."""
    return note(note_id, f"{word}  {word}x", **extra)


def test_env_limit_decides_how_many_notes_memory_plan_inspects(tmp_path: Path) -> None:
    notes = [_messy(f"n{i}", f"w{i}") for i in range(12)]
    home = make_home(tmp_path, notes)
    three = load({"MEMORY_REFLECTION_MAX_NOTES": "3"}).settings
    assert NuggetsStore(home, fixed_clock(NOW), settings=three).plan().result.inspected == 3
    forty = load({"MEMORY_REFLECTION_MAX_NOTES": "40"}).settings
    memory = NuggetsStore(home, fixed_clock(NOW), settings=forty)
    assert memory.plan().result.inspected == 10
    assert memory.plan(limit=50).result.inspected == 10
    assert memory.plan(uncapped=True).result.inspected == 12
    assert memory.plan(uncapped=True).result.rewritten == 12


# -- phase 1: select ---------------------------------------------------------------------------

HOUR, DAY = 3_600_000, 86_400_000


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"updatedAt": ago(hours=2), "tags": ["x"], "links": [link("y")]}, 2 * HOUR),
        ({"updatedAt": ago(hours=2), "tags": [], "links": [link("y")]}, 3 * HOUR),
        ({"updatedAt": ago(hours=2), "tags": ["x"], "links": []}, 3 * HOUR),
        ({"updatedAt": ago(hours=2), "tags": [], "links": []}, 4 * HOUR),
        (
            {"updatedAt": ago(hours=2), "tags": ["x"], "links": [link("y")], "hidden": True},
            2 * HOUR - DAY,
        ),
        (
            {"updatedAt": "", "createdAt": ago(hours=3), "tags": ["x"], "links": [link("y")]},
            3 * HOUR,
        ),
        ({"createdAt": ago(hours=5), "tags": ["x"], "links": [link("y")]}, 5 * HOUR),
        # Exact milliseconds: float seconds * 1000 is 1 ms short for this one.
        (
            {"updatedAt": "2004-03-15T07:55:47.472Z", "tags": ["x"], "links": [link("y")]},
            714_186_252_528,
        ),
        ({"updatedAt": "garbage", "tags": ["x"], "links": [link("y")]}, 0),
        ({"updatedAt": "2027-01-01T00:00:00.000Z", "tags": ["x"], "links": [link("y")]}, 0),
        ({"updatedAt": "2027-01-01T00:00:00.000Z", "tags": [], "links": []}, 2 * HOUR),
    ],
)
def test_quality_is_age_plus_an_hour_per_missing_tags_or_links_minus_a_day_if_hidden(
    fields: dict, expected: int
) -> None:
    raw = {"id": "q", "nuggetName": "project", "createdAt": OLD, **fields}
    if "updatedAt" not in fields:
        raw.pop("updatedAt", None)
    assert quality(raw, epoch_ms(NOW)) == expected


def _phase1_graph() -> list[dict]:
    return [
        _messy("n1", "aa", updatedAt=ago(hours=1), links=[link("x")]),  # 1h
        _messy("n2", "bb", updatedAt=ago(hours=1)),  # 2h (no links)
        _messy("n3", "cc", updatedAt=ago(hours=2), links=[link("x")]),  # 2h, after n2 in file
        _messy("n4", "dd", updatedAt=ago(hours=30), links=[link("x")], hidden=True),  # 6h
        _messy("n5", "ee", updatedAt=ago(minutes=10), links=[link("x")]),  # 10 min
    ]


def test_select_takes_limit_notes_by_quality_ties_in_file_order_hidden_counted() -> None:
    got, after = run_pass(_phase1_graph(), limit=4)
    # selected n4 (hidden: counted, skipped), n2, n3 (tie, file order), n1; n5 left out.
    assert got == result(
        4, [("rewrite", "n2", REWRITE), ("rewrite", "n3", REWRITE), ("rewrite", "n1", REWRITE)]
    )
    assert after["n5"]["content"] == "ee  eex"
    assert after["n4"]["content"] == "dd  ddx"


def test_hidden_notes_alone_are_inspected_and_left_alone() -> None:
    notes = [note(f"h{i}", "tmp  tmp", title="tmp", hidden=True, tags=[]) for i in range(3)]
    got, after = run_pass(notes)
    assert got == result(3, [])
    assert list(after.values()) == notes


def test_scope_is_one_nugget_or_all() -> None:
    notes = [_messy("p", "aa"), _messy("u", "bb", nuggetName="user")]
    got, after = run_pass(notes, nugget="user")
    assert got == result(1, [("rewrite", "u", REWRITE)], nugget="user")
    assert after["p"] is notes[0]
    everything, _ = run_pass(notes)
    assert everything["inspected"] == 2


# -- phase 2: archive --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title", ["tmp", "Temp notes", "tmp_1", "scratch:", "TMP", "temp-2", "Scratch 3", "tmp1"]
)
def test_scratch_titles_with_no_hits_are_archived(title: str) -> None:
    before = note("s", "real words here", title=title, tags=[], links=[])
    got, after = run_pass([before])
    assert got == result(1, [("hide", "s", HIDE)])
    # Nothing else happens to it this run: no retag although it has no tags.
    assert after["s"] == {**before, "hidden": True, "archivedAt": NOW_ISO, "updatedAt": NOW_ISO}


@pytest.mark.parametrize(
    "title",
    ["template", "Temperature", "scratchy", "Tmpfile", "temps", "tempé", "my tmp notes", ""],
)
def test_titles_that_only_begin_with_the_letters_are_not_scratch(title: str) -> None:
    before = note("s", "real words here", title=title)
    got, after = run_pass([before])
    assert got == result(1, [])
    assert after["s"] is before


def test_a_scratch_title_with_hits_is_kept() -> None:
    got, _ = run_pass([note("s", "real words here", title="tmp", hits=1)])
    assert got == result(1, [])


@pytest.mark.parametrize(
    ("content", "hits", "archived"),
    [
        ("ok", 0, True),
        (" ab \n", 0, True),
        ("é", 0, True),
        ("ok", 2, False),
        ("abc", 0, False),
        ("", 0, True),
        ("   ", 7, True),
        ("\n\t \r\n", 3, True),
    ],
)
def test_blank_content_or_two_characters_without_hits_is_low_value(
    content: str, hits: int, archived: bool
) -> None:
    before = note("s", content, title="Deploy", hits=hits)
    got, after = run_pass([before])
    assert got == result(1, [("hide", "s", HIDE)] if archived else [])
    assert after["s"].get("hidden") is archived


def test_hidden_selected_notes_are_skipped_in_phase_2() -> None:
    before = note("s", "alpha  beta\r\nalpha  beta", title="tmp", tags=["X"], hidden=True)
    got, after = run_pass([before])
    assert got == result(1, [])
    assert after["s"] is before


# -- phase 2: normalize ------------------------------------------------------------------------


def test_messy_content_is_rewritten_normalized() -> None:
    before = note("r", "alpha  beta\r\nalpha beta\n\n\n  gamma\t \n")
    got, after = run_pass([before])
    assert got == result(1, [("rewrite", "r", REWRITE)])
    assert after["r"] == {
        **before,
        "content": "alpha beta\n\n  gamma",
        "lastRewrittenAt": NOW_ISO,
        "updatedAt": NOW_ISO,
    }


def test_normalized_content_is_not_rewritten() -> None:
    before = note("r", "alpha beta\n\n  gamma")
    got, after = run_pass([before])
    assert got == result(1, [])
    assert after["r"] is before


# -- phase 2: retag ----------------------------------------------------------------------------


def _tag_case(tags: list[str] | None = None, **fields: Any) -> tuple[dict, list, dict]:
    before = note("t", **fields)
    if tags is None:
        before.pop("tags")
    else:
        before["tags"] = tags
    got, after = run_pass([before])
    return got, after["t"]["tags"], after["t"]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {
                "title": "Pref: dark theme",
                "content": "Use dark theme in vim/neovim",
                "scope": "user",
                "type": "preference",
                "kind": "fact",
            },
            ["scope:user", "type:preference", "fact", "preferences", "files", "user-memory"],
        ),
        (
            {
                "title": "Learned: pin versions",
                "content": "pin the express version",
                "scope": "shared",
                "type": "reflection",
                "kind": "note",
            },
            ["scope:shared", "type:reflection", "learnings", "shared-context"],
        ),
        (
            {
                "title": "Deploy steps",
                "content": "run make deploy quickly",
                "scope": "self",
                "type": "note",
                "kind": "note",
            },
            ["scope:self", "type:note", "assistant-self", "deploy"],
        ),
        (
            {
                "title": "Deploy steps",
                "content": "run make deploy quickly",
                "scope": "team",
                "type": "habit",
                "kind": "memo",
            },
            ["scope:team", "type:habit", "deploy", "steps"],
        ),
        (
            {
                "title": "fact notes",
                "content": "fact notes again",
                "scope": "team",
                "type": "note",
                "kind": "fact",
            },
            ["scope:team", "type:note", "fact", "notes"],
        ),
        (
            {
                "title": "日本語 run",
                "content": "the cat sat on a mat",
                "scope": "team",
                "type": "note",
                "kind": "note",
            },
            ["scope:team", "type:note"],
        ),
        (
            {
                "title": "Notes",
                "content": "see README.md",
                "scope": "project",
                "type": "fact",
                "kind": "note",
            },
            ["scope:project", "type:fact", "files", "shared-context"],
        ),
    ],
)
def test_derived_tags_in_order_with_flags_scope_tag_and_token_fill(
    fields: dict, expected: list[str]
) -> None:
    got, tags, after = _tag_case([], **fields)
    assert tags == expected
    assert got == result(1, [("tag", "t", "Tags -> " + ", ".join(expected))])
    assert after["lastRewrittenAt"] == after["updatedAt"] == NOW_ISO


def test_existing_tags_are_normalized_deduplicated_and_come_first() -> None:
    messy = ["Deploy Notes", "ops", "OPS", "  ", "deploy-notes", "Ops\tTeam", ""]
    _, tags, _ = _tag_case(messy, content="make deploy")
    # Seven tags: the last derived one that is neither existing nor system goes.
    assert tags == ["deploy-notes", "ops", "ops-team", "scope:project", "type:fact", "fact"]


def test_the_bound_of_six_never_drops_existing_or_system_tags() -> None:
    existing = ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]
    _, tags, _ = _tag_case(existing, content="make deploy")
    assert tags == [*existing, "scope:project", "type:fact"]


def test_existing_system_tags_in_another_case_count_as_existing() -> None:
    got, tags, _ = _tag_case(
        ["Scope:Project", "type:fact", "fact", "shared-context"], content="make deploy"
    )
    assert tags == ["scope:project", "type:fact", "fact", "shared-context"]
    assert got["changes"][0]["detail"] == "Tags -> scope:project, type:fact, fact, shared-context"


def test_the_order_of_stored_tags_is_kept_and_is_no_change() -> None:
    got, tags, after = _tag_case(
        ["type:fact", "zz", "scope:project", "fact", "shared-context"], content="make deploy"
    )
    assert got == result(1, [])
    assert "lastRewrittenAt" not in after


def test_missing_tags_field_is_retagged() -> None:
    got, tags, _ = _tag_case(None, content="make deploy")
    assert tags == ["scope:project", "type:fact", "fact", "shared-context"]
    assert got["tagged"] == 1


def test_a_note_is_rewritten_then_retagged() -> None:
    before = note("t", "quick  quick\ndeploy", kind="note", scope="team", tags=[])
    got, after = run_pass([before])
    expected_tags = ["scope:team", "type:fact", "quick", "deploy"]
    assert got == result(
        1, [("rewrite", "t", REWRITE), ("tag", "t", "Tags -> " + ", ".join(expected_tags))]
    )
    assert after["t"]["content"] == "quick quick\ndeploy"
    assert after["t"]["tags"] == expected_tags


# -- the ReflectionResult, order of changes, timestamps -----------------------------------------


def test_changes_are_reported_in_the_order_performed_across_phases() -> None:
    notes = [
        note("h", "scratch words here", title="tmp"),
        note("r", "alpha  beta gamma"),
        note("t", "delta epsilon zeta", tags=[]),  # no tags: selected first
        note("m1", "kappa lambda mu nu"),
        note("m2", "kappa lambda mu nu"),
        note("l1", "omega sigma tau"),
        note("l2", "sigma omega upsilon"),
    ]
    got, after = run_pass(notes, uncapped=True)
    assert got == result(
        7,
        [
            ("tag", "t", "Tags -> scope:project, type:fact, fact, shared-context"),
            ("hide", "h", HIDE),
            ("rewrite", "r", REWRITE),
            ("merge", "m1", "Merged duplicate note m2"),
            ("link", "l1", "Linked to l2"),
        ],
    )
    assert after["l1"]["links"] == [link("l2", "shared context: omega, sigma", NOW_ISO)]
    assert after["l2"]["links"] == [link("l1", "shared context: omega, sigma", NOW_ISO)]


def test_result_json_keys_are_exactly_the_specs() -> None:
    got, _ = run_pass([note("h", "x", title="tmp")])
    assert list(got) == [
        "ranAt",
        "inspected",
        "rewritten",
        "merged",
        "hidden",
        "tagged",
        "linked",
        "changes",
    ]
    assert [list(c) for c in got["changes"]] == [["type", "nuggetName", "noteId", "detail"]]
    empty, _ = run_pass([])
    assert empty == result(0, [])


def test_every_timestamp_the_pass_writes_is_now_as_to_iso_string() -> None:
    moment = datetime(2026, 11, 1, 10, 0, 0, 123456, tzinfo=timezone(timedelta(hours=1)))
    notes = [
        note("h", "x", title="tmp"),
        note("r", "a  b c", tags=[]),
        note("m1", "kappa lambda mu"),
        note("m2", "kappa lambda mu"),
    ]
    outcome = plan_pass(notes, moment, uncapped=True)
    stamp = "2026-11-01T09:00:00.123Z"
    assert outcome.result.ran_at == stamp
    after = {n["id"]: n for n in outcome.workspace.notes}
    assert after["h"]["archivedAt"] == after["h"]["updatedAt"] == stamp
    assert after["r"]["lastRewrittenAt"] == after["r"]["updatedAt"] == stamp
    assert after["m2"]["links"][-1]["createdAt"] == after["m1"]["updatedAt"] == stamp
    naive_midnight = plan_pass([], datetime(2026, 1, 2, tzinfo=UTC)).result.ran_at
    assert naive_midnight == "2026-01-02T00:00:00.000Z"


def test_the_pass_never_changes_the_notes_it_was_given() -> None:
    notes = [
        note("h", "x", title="tmp"),
        note("r", "a  b c", tags=["Q"]),
        note("m1", "kappa lambda mu"),
        note("m2", "kappa lambda mu", links=[link("r")]),
    ]
    snapshot = [
        {**n, "tags": list(n["tags"]), "links": [dict(x) for x in n["links"]]} for n in notes
    ]
    plan_pass(notes, NOW, uncapped=True)
    assert notes == snapshot


# -- docs/FORMATS.md: defaults for missing fields, values outside the choices -----------------


def test_a_note_missing_optional_fields_reads_with_the_defaults() -> None:
    read = Note.from_raw({"id": "m", "nuggetName": "p", "createdAt": OLD})
    assert (read.hits, read.hidden, read.tags, read.links) == (0, False, [], [])
    assert (read.confidence, read.stability) == (0.7, "durable")
    assert read.updated_at == read.last_accessed_at == OLD


def test_the_pass_uses_the_defaults_and_adds_only_what_it_changes() -> None:
    minimal = {
        "id": "m",
        "nuggetName": "project",
        "title": "Deploy steps",
        "content": "run make deploy quickly",
        "createdAt": OLD,
        "scope": "project",
        "type": "fact",
    }
    tiny = {"id": "t", "nuggetName": "project", "title": "x", "content": "ok", "createdAt": OLD}
    got, after = run_pass([minimal, tiny])
    tags = ["scope:project", "type:fact", "shared-context", "deploy"]
    assert got == result(2, [("tag", "m", "Tags -> " + ", ".join(tags)), ("hide", "t", HIDE)])
    assert after["m"] == {**minimal, "tags": tags, "lastRewrittenAt": NOW_ISO, "updatedAt": NOW_ISO}
    assert after["t"] == {**tiny, "hidden": True, "archivedAt": NOW_ISO, "updatedAt": NOW_ISO}


def test_quality_falls_back_to_created_at_when_updated_at_is_missing() -> None:
    young = {
        "id": "young",
        "nuggetName": "project",
        "content": "aaaa  bb",
        "createdAt": ago(days=1),
    }
    old = {"id": "old", "nuggetName": "project", "content": "cccc  dd", "createdAt": ago(days=9)}
    got, _ = run_pass([young, old], limit=1)
    assert [c["noteId"] for c in got["changes"]] == ["old", "old"]


def test_a_note_missing_metadata_is_tagged_with_what_the_agent_infers() -> None:
    # docs/FORMATS.md, missing fields: no scope or type stored -> the agent's inference (here: user
    # scope, a note).
    bare = {
        "id": "b",
        "nuggetName": "project",
        "title": "Deploy steps",
        "content": "run make deploy quickly",
        "createdAt": OLD,
    }
    _, after = run_pass([bare])
    assert after["b"]["tags"] == ["scope:user", "type:note", "user-memory", "deploy"]
    # A server note is shared context, a project title makes it a project note.
    shared = {
        "id": "s",
        "nuggetName": "project",
        "title": "project: server",
        "content": "ab cd",
        "createdAt": OLD,
    }
    _, after = run_pass([shared])
    assert after["s"]["tags"][:3] == ["scope:project", "type:project", "shared-context"]


def test_values_outside_the_choices_are_kept_and_match_no_rule() -> None:
    odd = note(
        "o",
        "sync the team calendar",
        title="Calendar",
        scope="team",
        type="habit",
        kind="memo",
        source="web",
        stability="forever",
        subject="team:core",
        tags=[],
    )
    got, after = run_pass([odd])
    tags = ["scope:team", "type:habit", "calendar", "sync"]
    assert got == result(1, [("tag", "o", "Tags -> " + ", ".join(tags))])
    assert after["o"] == {**odd, "tags": tags, "lastRewrittenAt": NOW_ISO, "updatedAt": NOW_ISO}
