"""Undo and unhide (docs/RUNS.md): exact restores, refusals that name the notes and write nothing,
and - over generated histories - no note ever disappears and every archived note comes back."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import fixed_clock
from core.errors import NuggetsError, UndoConflictError, UnknownNoteError
from core.models import CamelModel
from core.stores.nuggets.store import NuggetsStore
from tests.support.graph_strategies import graph_notes
from tests.support.moments import at
from tests.support.note_builders import (
    NOW,
    NOW_ISO,
    canonical_bytes,
    file_notes,
    graph_file,
    make_home,
    mixed_notes,
)

LATER = fixed_clock(at("2026-11-01T10:00:00Z"))
LATER_ISO = "2026-11-01T10:00:00.000Z"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path, mixed_notes())


def reflect_all(home: Path, accepted: list[int] | None = None) -> str:
    memory = NuggetsStore(home, fixed_clock(NOW))
    entry = memory.apply(memory.plan(uncapped=True), accepted)
    assert entry is not None
    return entry.run_id


def edit_note(home: Path, note_id: str, **changes: object) -> bytes:
    """Change a note on disk, as the agent would; returns the new bytes."""
    doc = json.loads(graph_file(home).read_bytes())
    for note in doc["notes"]:
        if note["id"] == note_id:
            note.update(changes)
    graph_file(home).write_bytes(canonical_bytes(doc))
    return graph_file(home).read_bytes()


# -- undo --------------------------------------------------------------------------------------


def test_undo_restores_the_notes_byte_for_byte(home: Path) -> None:
    original = graph_file(home).read_bytes()
    run_id = reflect_all(home)
    undone = NuggetsStore(home, LATER).undo(run_id)
    assert graph_file(home).read_bytes() == original
    assert (undone.kind, undone.undoes, undone.at) == ("undo", run_id, LATER_ISO)
    assert sorted(undone.after) == ["h", "l1", "l2", "m1", "m2", "r", "ref"]


def test_undo_refuses_naming_the_notes_changed_since_and_writes_nothing(home: Path) -> None:
    run_id = reflect_all(home)
    edit_note(home, "m1", hits=9)
    changed = edit_note(home, "r", content="the agent edited this")
    memory = NuggetsStore(home, LATER)
    with pytest.raises(UndoConflictError, match="changed since: r, m1") as refused:
        memory.undo(run_id)
    assert refused.value.note_ids == ["r", "m1"]
    assert graph_file(home).read_bytes() == changed
    assert [e.run_id for e in memory.log()] == [run_id]


def test_undo_ignores_changes_to_notes_the_run_did_not_touch(home: Path) -> None:
    run_id = reflect_all(home)
    edit_note(home, "u", hits=7)
    NuggetsStore(home, LATER).undo(run_id)
    restored = file_notes(home)
    assert restored["u"]["hits"] == 7
    assert [restored[i] for i in ("h", "m1", "m2")] == [
        n for n in mixed_notes() if n["id"] in ("h", "m1", "m2")
    ]


def test_a_second_undo_of_the_same_run_is_refused(home: Path) -> None:
    run_id = reflect_all(home)
    memory = NuggetsStore(home, LATER)
    memory.undo(run_id)
    after_undo = graph_file(home).read_bytes()
    with pytest.raises(NuggetsError, match="already undone"):
        memory.undo(run_id)
    assert graph_file(home).read_bytes() == after_undo
    assert len(memory.log()) == 2


# -- unhide ------------------------------------------------------------------------------------


def test_unhide_clears_hidden_and_archived_at_stamps_now_and_is_journaled(home: Path) -> None:
    reflect_all(home, accepted=[1])  # archive h
    archived = file_notes(home)
    memory = NuggetsStore(home, LATER)
    entry = memory.unhide(["h"])
    now = file_notes(home)
    expected = {k: v for k, v in archived["h"].items() if k != "archivedAt"}
    assert now["h"] == {**expected, "hidden": False, "updatedAt": LATER_ISO}
    assert {i: n for i, n in now.items() if i != "h"} == {
        i: n for i, n in archived.items() if i != "h"
    }
    assert entry is not None and entry.kind == "unhide" and entry.at == LATER_ISO
    assert entry.before == {"h": archived["h"]} and entry.after == {"h": now["h"]}
    assert [e.kind for e in memory.log()] == ["unhide", "reflect"]


def test_unhiding_a_visible_note_writes_nothing_and_unknown_ids_are_errors(home: Path) -> None:
    memory = NuggetsStore(home, LATER)
    original = graph_file(home).read_bytes()
    assert memory.unhide(["u"]) is None
    with pytest.raises(UnknownNoteError, match="nope"):
        memory.unhide(["h", "nope"])
    assert graph_file(home).read_bytes() == original
    assert not (home / "reflections").exists()


def test_archive_by_hand_hides_stamps_is_journaled_and_undone(home: Path) -> None:
    original = file_notes(home)
    memory = NuggetsStore(home, LATER)
    entry = memory.archive(["u", "u"])
    now = file_notes(home)
    assert (now["u"]["hidden"], now["u"]["archivedAt"], now["u"]["updatedAt"]) == (
        True,
        LATER_ISO,
        LATER_ISO,
    )
    assert {i: n for i, n in now.items() if i != "u"} == {
        i: n for i, n in original.items() if i != "u"
    }
    assert entry is not None and entry.kind == "archive" and entry.summary == "archived u"
    assert [e.kind for e in memory.log()] == ["archive"]
    with pytest.raises(UnknownNoteError, match="nope"):
        memory.archive(["u", "nope"])
    memory.undo(entry.run_id)
    assert file_notes(home) == original
    assert [e.kind for e in memory.log()] == ["undo", "archive"]


def test_a_merged_away_note_comes_back_with_its_link_and_undo_unwinds_in_order(home: Path) -> None:
    original = graph_file(home).read_bytes()
    merge_run = reflect_all(home, accepted=[4])
    merged = file_notes(home)
    memory = NuggetsStore(home, LATER)
    unhide_run = memory.unhide(["m2"])
    back = file_notes(home)["m2"]
    assert back["hidden"] is False and "archivedAt" not in back
    assert (
        back["links"]
        == merged["m2"]["links"]
        == [{"to": "m1", "reason": "merged into m1", "createdAt": NOW_ISO}]
    )
    # m2 changed since the merge run, so that run cannot be undone until the unhide is.
    with pytest.raises(UndoConflictError, match="m2"):
        memory.undo(merge_run)
    memory.undo(unhide_run.run_id)
    assert file_notes(home) == merged
    memory.undo(merge_run)
    assert graph_file(home).read_bytes() == original


def test_every_archived_note_can_be_unhidden(home: Path) -> None:
    reflect_all(home)
    hidden = [i for i, n in file_notes(home).items() if n.get("hidden")]
    assert hidden == ["h", "m2", "ref"]
    NuggetsStore(home, LATER).unhide(hidden)
    assert not [i for i, n in file_notes(home).items() if n.get("hidden")]


# -- conservation over generated histories -----------------------------------------------------


def _step(memory: NuggetsStore, step: str, rnd: random.Random) -> None:
    path = graph_file(memory.home)
    before = path.read_bytes()
    if step == "reflect":
        plan = memory.plan(rnd.choice([None, "user"]), rnd.randint(1, 10), rnd.random() < 0.5)
        memory.apply(plan, [op.id for op in plan.operations if rnd.random() < 0.6])
    elif step == "unhide":
        hidden = [i for i, n in file_notes(memory.home).items() if n.get("hidden") is True]
        memory.unhide(rnd.sample(hidden, k=min(len(hidden), rnd.randint(1, 3))))
    elif memory.log():
        try:
            memory.undo(rnd.choice(memory.log()).run_id)
        except NuggetsError:
            assert path.read_bytes() == before


@settings(max_examples=30, deadline=None)
@given(
    graph_notes(),
    st.lists(st.sampled_from(["reflect", "unhide", "undo"]), max_size=6),
    st.randoms(use_true_random=False),
)
def test_no_note_ever_disappears_and_every_archived_note_comes_back(
    notes: list[dict], steps: list[str], rnd: random.Random
) -> None:
    ids = [n["id"] for n in notes]
    with tempfile.TemporaryDirectory() as root:
        memory = NuggetsStore(make_home(Path(root), notes), fixed_clock(NOW))
        for step in steps:
            _step(memory, step, rnd)
            on_disk = file_notes(memory.home)
            assert list(on_disk) == ids
            assert all(n["x-extra"] == {"kept": True} for n in on_disk.values())
        hidden = [i for i, n in file_notes(memory.home).items() if n.get("hidden") is True]
        memory.unhide(hidden)
        final = file_notes(memory.home)
        assert list(final) == ids
        assert not [i for i, n in final.items() if n.get("hidden") is True]


def test_journal_entries_are_written_as_their_models_dump(home: Path) -> None:
    """Journal entries skip copying their note images; the JSON is the same as the model's."""
    memory = NuggetsStore(home, LATER)
    run_id = reflect_all(home)
    hidden = next(
        n["id"] for n in json.loads(graph_file(home).read_bytes())["notes"] if n.get("hidden")
    )
    memory.unhide([hidden])
    memory.undo(memory.log()[0].run_id)
    entries = memory.log()
    assert {e.kind for e in entries} >= {"reflect", "unhide", "undo"} and run_id
    for entry in entries:
        generic = CamelModel.to_json_dict(entry)
        assert json.dumps(entry.to_json_dict()) == json.dumps(generic)
