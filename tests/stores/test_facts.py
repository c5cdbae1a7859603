"""Fact files kept in step with their fact notes (the agent re-creates fact notes from them at
every start): the rules one by one, then the unit they form with the graph on disk."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.errors import StalePlanError
from core.stores.nuggets.fact_files import (
    FactFile,
    edited_doc,
    fact_edits,
    read_fact_files,
    undo_edits,
)
from core.stores.nuggets.store import NuggetsStore
from tests.support.moments import at
from tests.support.paths import FIXTURES_DIR
from tests.support.reliability_support import leftovers, run_in_child, traced_steps

NOW = at("2026-12-20T09:00:00Z")
FIXTURE = FIXTURES_DIR / "agent" / "agent-made"


def fact_note(key: str, content: str, **extra: object) -> dict:
    return {
        "id": f"f-{key}",
        "nuggetName": "memory",
        "kind": "fact",
        "sourceKey": key,
        "title": key,
        "content": content,
        "hidden": False,
        "hits": 1,
        **extra,
    }


def file_of(*facts: dict, name: str = "memory.donna.json") -> FactFile:
    doc = {"version": 4, "name": "memory", "D": 16384, "facts": list(facts), "config": {"x": 1}}
    return FactFile(Path("/h") / name, doc, "fp")


def fact(key: str, value: str, hits: int = 1) -> dict:
    return {"key": key, "value": value, "hits": hits, "last_hit_session": "s1"}


def edited(file: FactFile, changes: list[tuple[dict, dict]]) -> list[dict]:
    edits = fact_edits(changes, [file])
    return edited_doc(file.doc, edits)["facts"]


def test_archiving_a_fact_note_removes_its_fact_and_keeps_the_rest_of_the_file() -> None:
    file = file_of(fact("user:a", "A"), fact("user:b", "B"))
    note = fact_note("User:A", "A")  # keys match ignoring case, as the agent matches them
    edits = fact_edits([(note, {**note, "hidden": True})], [file])
    assert [(e.key, e.after) for e in edits] == [("User:A", None)]
    doc = edited_doc(file.doc, edits)
    assert doc["facts"] == [fact("user:b", "B")]
    assert {k: v for k, v in doc.items() if k != "facts"} == {
        k: v for k, v in file.doc.items() if k != "facts"
    }


def test_a_rewrite_sets_the_value_and_a_merge_winner_gets_the_summed_hits() -> None:
    file = file_of(fact("user:a", "A\nA"), fact("user:b", "B"))
    rewritten = fact_note("user:a", "A\nA")
    winner = fact_note("user:b", "B")
    facts = edited(
        file,
        [
            (rewritten, {**rewritten, "content": "A"}),
            (winner, {**winner, "content": "B\nmore", "hits": 5}),
        ],
    )
    assert facts == [{**fact("user:a", "A")}, {**fact("user:b", "B\nmore", hits=5)}]


def test_unhiding_puts_the_fact_back_in_the_agents_current_file_only() -> None:
    current, older = file_of(), file_of(name="memory.nugget.json")
    note = fact_note("user:a", "A", hidden=True, hits=4, lastHitSession="s9")
    edits = fact_edits([(note, {**note, "hidden": False})], [current, older])
    assert [(e.path, e.before, e.after) for e in edits] == [
        (
            "memory.donna.json",
            None,
            {"key": "user:a", "value": "A", "hits": 4, "last_hit_session": "s9"},
        )
    ]


def test_a_fact_in_both_files_is_removed_from_both() -> None:
    current = file_of(fact("user:a", "A"))
    older = file_of(fact("user:a", "A"), name="memory.nugget.json")
    note = fact_note("user:a", "A")
    edits = fact_edits([(note, {**note, "hidden": True})], [current, older])
    assert sorted(e.path for e in edits) == ["memory.donna.json", "memory.nugget.json"]


@pytest.mark.parametrize(
    "change",
    [
        {"tags": ["x"]},  # tags and links are the note's own: the agent keeps them
        {"links": [{"to": "n", "reason": "r", "createdAt": "t"}]},
    ],
)
def test_changes_the_fact_does_not_hold_leave_the_file_alone(change: dict) -> None:
    note = fact_note("user:a", "A")
    assert fact_edits([(note, {**note, **change})], [file_of(fact("user:a", "A"))]) == []


def test_notes_that_are_not_facts_of_a_file_are_left_alone() -> None:
    file = file_of(fact("user:a", "A"))
    plain = {**fact_note("user:a", "A"), "kind": "note"}
    keyless = {**fact_note("user:a", "A"), "sourceKey": None}
    other = {**fact_note("user:a", "A"), "nuggetName": "elsewhere"}
    still_hidden = fact_note("user:a", "A", hidden=True)
    changes = [(n, {**n, "hidden": True}) for n in (plain, keyless, other)]
    changes.append((still_hidden, {**still_hidden, "links": []}))
    assert fact_edits(changes, [file]) == []


def test_undoing_the_edits_gives_the_file_back_in_its_order() -> None:
    file = file_of(fact("user:a", "A"), fact("user:b", "B"), fact("user:c", "C"))
    a, b = fact_note("user:a", "A"), fact_note("user:b", "B")
    edits = fact_edits([(b, {**b, "hidden": True}), (a, {**a, "content": "AA"})], [file])
    after = edited_doc(file.doc, edits)
    assert edited_doc(after, undo_edits(edits)) == file.doc


# -- the unit on disk ----------------------------------------------------------------------


def home_copy(tmp_path: Path, name: str = "home") -> Path:
    home = tmp_path / name
    shutil.copytree(FIXTURE, home)
    return home


def snapshot(home: Path) -> dict[str, bytes]:
    files = [home / "graph" / "graph.json", *sorted(home.glob("*.donna.json"))]
    return {p.name: p.read_bytes() for p in files}


def test_a_changed_fact_file_makes_the_plan_stale_and_nothing_is_written(tmp_path: Path) -> None:
    home = home_copy(tmp_path)
    memory = NuggetsStore(home, fixed_clock(NOW))
    plan = memory.plan(uncapped=True)
    assert plan.side_file_edits  # the fixture's pass archives, rewrites and merges fact notes
    path = home / "memory.donna.json"
    doc = json.loads(path.read_bytes())
    doc["facts"][0]["hits"] += 1  # the agent recalled a fact meanwhile
    path.write_text(json.dumps(doc, separators=(",", ":")))
    before = snapshot(home)
    with pytest.raises(StalePlanError, match="memory.donna.json changed since the plan"):
        memory.apply(plan)
    assert snapshot(home) == before
    assert not (home / "reflections").exists() or not list((home / "reflections").iterdir())


def test_unhide_and_undo_of_a_fact_note_keep_the_file_in_step(tmp_path: Path) -> None:
    home = home_copy(tmp_path)
    memory = NuggetsStore(home, fixed_clock(NOW))
    original = snapshot(home)["memory.donna.json"]
    entry = memory.apply(memory.plan(uncapped=True))
    archived = [e for e in entry.side_file_edits if e.after is None]
    note_id = archived[0].note_id
    memory.unhide([note_id])
    facts = {f["key"] for f in read_fact_files(home, ["memory"])[0].facts}
    assert archived[0].key in facts
    for run in memory.log():  # newest first: the unhide, then the pass
        memory.undo(run.run_id)
    assert snapshot(home)["memory.donna.json"] == original


def test_archiving_a_fact_note_by_hand_removes_its_fact_as_the_pass_does(tmp_path: Path) -> None:
    by_pass, by_hand = home_copy(tmp_path, "pass"), home_copy(tmp_path, "hand")
    original = snapshot(by_hand)
    store = NuggetsStore(by_pass, fixed_clock(NOW))
    entry = store.apply(NuggetsStore(by_pass, fixed_clock(NOW)).plan(uncapped=True))
    edit = next(e for e in entry.side_file_edits if e.after is None)
    memory = NuggetsStore(by_hand, fixed_clock(NOW))
    run = memory.archive([edit.note_id])
    assert run is not None and run.kind == "archive"
    assert [(e.key, e.after) for e in run.side_file_edits] == [(edit.key, None)]
    facts = {f["key"] for f in read_fact_files(by_hand, ["memory"])[0].facts}
    assert edit.key not in facts
    notes = {n["id"]: n for n in json.loads(snapshot(by_hand)["graph.json"])["notes"]}
    assert notes[edit.note_id]["hidden"] is True and notes[edit.note_id]["archivedAt"]
    assert memory.archive([edit.note_id]) is None  # already archived: nothing written
    memory.undo(run.run_id)
    assert snapshot(by_hand) == original


def test_killed_at_every_step_the_graph_and_fact_files_are_all_old_or_all_new(
    tmp_path: Path,
) -> None:
    def apply(home: Path) -> None:
        memory = NuggetsStore(home, fixed_clock(NOW))
        memory.apply(memory.plan(uncapped=True))

    old = snapshot(home_copy(tmp_path, "old"))
    done = home_copy(tmp_path, "done")
    apply(done)
    new = snapshot(done)
    assert old["memory.donna.json"] != new["memory.donna.json"]
    steps = traced_steps(lambda: apply(home_copy(tmp_path, "traced")))
    outcomes = set()
    for k in range(1, len(steps) + 1):
        home = home_copy(tmp_path, f"k{k}")
        child = run_in_child(lambda home=home: apply(home), crash_at=k)
        assert child.killed, (k, steps[k - 1])
        NuggetsStore(home, fixed_clock(NOW)).recover()
        state = snapshot(home)
        assert state in (old, new), steps[k - 1]
        assert leftovers(home) == []
        outcomes.add("new" if state == new else "old")
    assert outcomes == {"old", "new"}


def test_a_pipe_named_like_a_fact_file_is_refused_not_read(tmp_path: Path) -> None:
    import os
    import signal

    from core.errors import FileKindError
    from core.stores.nuggets.fact_files import read_fact_file

    pipe = tmp_path / "memory.donna.json"
    os.mkfifo(pipe)

    def blocked(*_: object) -> None:
        raise TimeoutError("reading the pipe blocked")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(5)  # reading it would block for ever: fail instead of hanging the suite
    try:
        with pytest.raises(FileKindError, match="memory.donna.json"):
            read_fact_file(pipe)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
