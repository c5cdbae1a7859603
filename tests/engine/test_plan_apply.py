"""docs/RUNS.md: a dry run writes nothing; applying a plan gives exactly its after-state; a stale
plan is refused; a subset replays exactly the kept operations; the journal entry holds what
docs/RUNS.md lists."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import fixed_clock
from core.errors import StalePlanError
from core.models import LinkOp, MergeOp
from core.notes.vectors import vector_spec
from core.stores.nuggets.seeds import reflect_and_clean_memory
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.graph_strategies import graph_notes
from tests.support.note_builders import (
    NOW,
    NOW_ISO,
    canonical_bytes,
    file_notes,
    graph_file,
    link,
    make_home,
    mixed_notes,
    note,
    sample_notes,
    tree_snapshot,
)

TIMESTAMPS = ("updatedAt", "lastRewrittenAt", "archivedAt")


@pytest.fixture
def mixed(tmp_path: Path) -> NuggetsStore:
    return NuggetsStore(make_home(tmp_path, mixed_notes()), fixed_clock(NOW))


@pytest.fixture
def sample(tmp_path: Path) -> NuggetsStore:
    home = make_home(tmp_path, sample_notes())
    (home / "agent.nugget.json").write_text('{"facts": []}\n')
    return NuggetsStore(home, fixed_clock(NOW))


def cli(home: Path, tmp_path: Path, *args: str) -> Result:
    env = {
        "NUGGETS_NOW": "2026-11-01T09:00:00Z",
        "NUGGETS_HOME": "",
        "HOME": str(tmp_path),
        "NUGGETS_MEMORY_MD": str(tmp_path / "memdir" / "MEMORY.md"),
    }
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


# -- dry runs ----------------------------------------------------------------------------------


def test_a_plan_is_the_pass_with_a_fingerprint_an_operation_per_change_and_note_images(
    mixed: NuggetsStore,
) -> None:
    original = graph_file(mixed.home).read_bytes()
    plan = mixed.plan(uncapped=True)
    assert plan.base_fingerprint == hashlib.sha256(original).hexdigest()
    assert [(c.type, c.note_id) for c in plan.result.changes] == [
        ("hide", "h"),
        ("rewrite", "r"),
        ("tag", "r"),
        ("merge", "m1"),
        ("link", "l1"),
    ]
    assert [(op.id, op.type) for op in plan.operations] == [
        (1, "hide"),
        (2, "rewrite"),
        (3, "tag"),
        (4, "merge"),
        (5, "link"),
    ]
    before = {n["id"]: n for n in mixed_notes()}
    assert [d.note_id for d in plan.notes] == ["h", "r", "m1", "m2", "l1", "l2", "ref"]
    assert all(d.before == before[d.note_id] for d in plan.notes)
    assert plan.notes[-1].after["links"] == [link("m1")]


def test_dry_runs_write_nothing_anywhere(sample: NuggetsStore, tmp_path: Path) -> None:
    memdir = tmp_path / "memdir"
    memdir.mkdir()
    (memdir / "MEMORY.md").write_text("# Memory\n\nhand-written\n")
    before = tree_snapshot(tmp_path)
    sample.plan()
    sample.plan(uncapped=True)
    sample.plan("user", 3)
    sample.plan_promotion(memdir / "MEMORY.md")
    for args in (
        ("reflect",),
        ("reflect", "--json"),
        ("reflect", "--all"),
        ("reflect", "--all", "--json"),
        ("promote",),
        ("promote", "--json"),
        ("notes",),
        ("log",),
    ):
        done = cli(sample.home, tmp_path, *args)
        assert done.exit_code == 0, (args, done.output)
    (memdir / "MEMORY.md").unlink()
    without_file = tree_snapshot(tmp_path)
    assert cli(sample.home, tmp_path, "promote").exit_code == 0
    assert tree_snapshot(tmp_path) == without_file
    del before["memdir/MEMORY.md"]
    assert without_file == before


# -- apply -------------------------------------------------------------------------------------


def test_applying_the_whole_plan_gives_exactly_its_after_state(sample: NuggetsStore) -> None:
    original = graph_file(sample.home).read_bytes()
    plan = sample.plan(uncapped=True)
    entry = sample.apply(plan)
    doc = json.loads(original)
    after = {d.note_id: d.after for d in plan.notes}
    expected = {**doc, "notes": [after.get(n["id"], n) for n in doc["notes"]]}
    # Byte for byte: the plan's notes as planned, every other note exactly as read.
    written = graph_file(sample.home).read_bytes()
    assert written == canonical_bytes(expected)
    assert entry is not None
    assert entry.result_fingerprint == hashlib.sha256(written).hexdigest()
    assert (sample.home / "agent.nugget.json").read_text() == '{"facts": []}\n'


def test_the_seeds_entry_point_applies_and_journals_the_pass(mixed: NuggetsStore) -> None:
    expected = mixed.plan()
    got = reflect_and_clean_memory(NuggetsStore(mixed.home).shelf(), clock=fixed_clock(NOW))
    assert got == expected.result
    assert file_notes(mixed.home) == {d.note_id: d.after for d in expected.notes} | {
        n["id"]: n for n in mixed_notes() if n["id"] not in {d.note_id for d in expected.notes}
    }
    assert [e.kind for e in mixed.log()] == ["reflect"]


def test_a_plan_lists_exactly_the_changed_notes_each_stamped_now(sample: NuggetsStore) -> None:
    plan = sample.plan(uncapped=True)
    by_id = {n["id"]: n for n in json.loads(graph_file(sample.home).read_bytes())["notes"]}
    assert len(plan.notes) == len({d.note_id for d in plan.notes})
    for diff in plan.notes:
        assert diff.before == by_id[diff.note_id]
        assert diff.after != diff.before
        assert diff.after["updatedAt"] == NOW_ISO
        for name in TIMESTAMPS:
            if diff.after.get(name) != diff.before.get(name):
                assert diff.after[name] == NOW_ISO
    after = {d.note_id: d.after for d in plan.notes}
    for op in plan.operations:
        pairs = []
        if isinstance(op, LinkOp):
            pairs = [(op.note_id, op.other_id), (op.other_id, op.note_id)]
        elif isinstance(op, MergeOp):
            pairs = [(op.loser_id, op.winner_id)]
        for source, target in pairs:
            made = [x for x in after[source]["links"] if x["to"] == target]
            assert [x["createdAt"] for x in made] == [NOW_ISO]


def test_a_stale_plan_is_refused_and_nothing_is_written(mixed: NuggetsStore) -> None:
    plan = mixed.plan(uncapped=True)
    path = graph_file(mixed.home)
    doc = json.loads(path.read_bytes())
    doc["notes"].append(note("agent", "the agent wrote this meanwhile"))
    path.write_text(json.dumps(doc))
    changed = path.read_bytes()
    with pytest.raises(StalePlanError, match="stale plan"):
        mixed.apply(plan)
    assert path.read_bytes() == changed
    assert not (mixed.home / "reflections").exists()
    assert sorted(p.name for p in path.parent.iterdir()) == [".graph.lock", "graph.json"]


def test_applying_a_subset_replays_exactly_the_kept_operations(mixed: NuggetsStore) -> None:
    plan = mixed.plan(uncapped=True)
    entry = mixed.apply(plan, accepted=[2, 5])  # the rewrite of r, the link l1 <-> l2
    before = {n["id"]: n for n in mixed_notes()}
    reason = link("l2", "shared context: omega, sigma", NOW_ISO)["reason"]
    expected = dict(before)
    expected["r"] = {
        **before["r"],
        "content": "alpha beta gamma",
        "lastRewrittenAt": NOW_ISO,
        "updatedAt": NOW_ISO,
    }
    expected["l1"] = {**before["l1"], "links": [link("l2", reason, NOW_ISO)], "updatedAt": NOW_ISO}
    expected["l2"] = {**before["l2"], "links": [link("l1", reason, NOW_ISO)], "updatedAt": NOW_ISO}
    for note_id in ("r", "l1", "l2"):
        expected[note_id]["vector"] = vector_spec(expected[note_id])
    assert graph_file(mixed.home).read_bytes() == canonical_bytes(
        {"version": 3, "notes": list(expected.values())}
    )
    assert entry is not None
    assert [op.id for op in entry.operations] == [2, 5]
    assert sorted(entry.before) == ["l1", "l2", "r"]


def test_applying_only_the_merge_moves_the_links_to_the_winner(mixed: NuggetsStore) -> None:
    plan = mixed.plan(uncapped=True)
    mixed.apply(plan, accepted=[4])
    after = file_notes(mixed.home)
    assert after["m2"]["hidden"] is True and after["m1"]["hits"] == 2
    assert after["ref"]["links"] == [link("m1")]
    before = {n["id"]: n for n in mixed_notes()}
    assert [i for i in after if after[i] != before[i]] == ["m1", "m2", "ref"]


def test_applying_nothing_writes_nothing(mixed: NuggetsStore) -> None:
    before = tree_snapshot(mixed.home)
    assert mixed.apply(mixed.plan(uncapped=True), accepted=[]) is None
    after = tree_snapshot(mixed.home)
    after.pop("graph/.graph.lock")
    assert after == before


# -- the journal -------------------------------------------------------------------------------


def test_the_journal_entry_holds_run_time_fingerprints_operations_result_and_images(
    mixed: NuggetsStore,
) -> None:
    original = graph_file(mixed.home).read_bytes()
    plan = mixed.plan(uncapped=True)
    mixed.apply(plan, accepted=[1, 4])
    entry_file = mixed.home / "reflections" / "20261101T090000Z-0001.json"
    head, body = entry_file.read_bytes().splitlines()  # a small header line, then the entry
    data = json.loads(body)
    assert json.loads(head) == {
        "header": 1,
        "runId": data["runId"],
        "seq": 1,
        "kind": "reflect",
        "at": NOW_ISO,
        "baseFingerprint": data["baseFingerprint"],
        "resultFingerprint": data["resultFingerprint"],
        "notes": len(data["after"]),
        "summary": data["summary"],
        "changes": len(data["operations"]),
    }
    before = {n["id"]: n for n in mixed_notes()}
    after = file_notes(mixed.home)
    assert data["runId"] == "20261101T090000Z-0001" and data["kind"] == "reflect"
    assert data["at"] == NOW_ISO
    assert data["baseFingerprint"] == hashlib.sha256(original).hexdigest()
    assert (
        data["resultFingerprint"] == hashlib.sha256(graph_file(mixed.home).read_bytes()).hexdigest()
    )
    assert data["operations"] == [
        {"type": "hide", "id": 1, "noteId": "h"},
        {"type": "merge", "id": 4, "winnerId": "m1", "loserId": "m2"},
    ]
    assert data["result"] == {
        "ranAt": NOW_ISO,
        "inspected": 8,
        "rewritten": 0,
        "merged": 1,
        "hidden": 1,
        "tagged": 0,
        "linked": 0,
        "changes": [
            {
                "type": "hide",
                "nuggetName": "project",
                "noteId": "h",
                "detail": "Archived low-value note",
            },
            {
                "type": "merge",
                "nuggetName": "project",
                "noteId": "m1",
                "detail": "Merged duplicate note m2",
            },
        ],
    }
    assert data["before"] == {i: before[i] for i in ("h", "m1", "m2", "ref")}
    assert data["after"] == {i: after[i] for i in ("h", "m1", "m2", "ref")}
    second = mixed.apply(mixed.plan(uncapped=True))
    assert second is not None and second.run_id == "20261101T090000Z-0002"
    assert [e.run_id for e in mixed.log()] == [second.run_id, data["runId"]]


@settings(max_examples=30, deadline=None)
@given(graph_notes(), st.booleans(), st.sampled_from([None, "user"]), st.integers(1, 10))
def test_on_generated_graphs_apply_gives_the_after_state_and_undo_the_original(
    notes: list[dict], uncapped: bool, nugget: str | None, limit: int
) -> None:
    with tempfile.TemporaryDirectory() as root:
        memory = NuggetsStore(make_home(Path(root), notes), fixed_clock(NOW))
        original = graph_file(memory.home).read_bytes()
        plan = memory.plan(nugget, limit, uncapped)
        assert all(d.before != d.after for d in plan.notes)
        after = {d.note_id: d.after for d in plan.notes}
        entry = memory.apply(plan)
        assert graph_file(memory.home).read_bytes() == canonical_bytes(
            {"version": 3, "notes": [after.get(n["id"], n) for n in notes]}
        )
        if entry is not None:
            memory.undo(entry.run_id)
        assert graph_file(memory.home).read_bytes() == original
