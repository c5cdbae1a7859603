"""Invariants over random graphs and random sequences of plan / apply-subset / unhide / undo /
another program's edits (hypothesis, stateful): notes are conserved; every archived note can be
unhidden; applying a whole plan gives exactly its after-state; repeated uncapped passes reach a
fixed point; undo restores the notes byte for byte."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from core.errors import NuggetsError, StalePlanError, UndoConflictError
from core.journal.entries import read_entry
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.figures import record
from tests.support.reliability_support import CLOCK, note

WORDS = ["deploy", "cache", "port", "redis", "make", "tabs", "spaces", "user", "likes", "tea"]
TITLES = [
    "deploy steps",
    "cache port",
    "tmp",
    "scratch: x",
    "pref: tabs",
    "learned: redis",
    "Temperature",
    "notes",
]


@st.composite
def graphs(draw: st.DrawFn) -> list[dict]:
    count = draw(st.integers(1, 12))
    ids = [f"n{i}" for i in range(count)]
    notes = []
    for note_id in ids:
        words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=8))
        lines = " ".join(words) + draw(st.sampled_from(["", "  ", "\n" + " ".join(words)]))
        links = [
            {"to": draw(st.sampled_from([*ids, "gone"])), "reason": "r"}
            for _ in range(draw(st.integers(0, 2)))
        ]
        notes.append(
            note(
                note_id,
                draw(st.sampled_from(TITLES)),
                lines,
                hits=draw(st.integers(0, 5)),
                hidden=draw(st.booleans()) and draw(st.booleans()),
                tags=draw(
                    st.lists(st.sampled_from(["Cache", "deploy", "scope:project"]), max_size=2)
                ),
                links=links,
                nuggetName=draw(st.sampled_from(["project", "user"])),
                updatedAt=f"2026-10-{draw(st.integers(1, 28)):02d}T00:00:00.000Z",
            )
        )
    return notes


class MemoryMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="nuggets-invariants-"))
        self.home = self.root / "home"
        self.graph = self.home / "graph" / "graph.json"
        self.memory = NuggetsStore(self.home, CLOCK, self.root / "MEMORY.md")
        self.known: set[str] = set()
        self.agent_notes = 0

    def teardown(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    @initialize(notes=graphs())
    def start(self, notes: list[dict]) -> None:
        self.graph.parent.mkdir(parents=True)
        self.graph.write_text(json.dumps({"version": 3, "notes": notes}, indent=2))
        self.known = {n["id"] for n in notes}

    def _notes(self) -> list[dict]:
        return read_graph(self.graph).notes

    @rule(data=st.data(), uncapped=st.booleans())
    def apply_a_subset(self, data: st.DataObject, uncapped: bool) -> None:
        plan = self.memory.plan(uncapped=uncapped)
        ids = [op.id for op in plan.operations]
        kept = data.draw(st.sets(st.sampled_from(ids)) if ids else st.just(set()))
        self.memory.apply(plan, kept)
        record("invariant steps")

    @rule(uncapped=st.booleans())
    def apply_a_whole_plan(self, uncapped: bool) -> None:
        before = {n["id"]: n for n in self._notes()}
        plan = self.memory.plan(uncapped=uncapped)
        self.memory.apply(plan)
        after = {n["id"]: n for n in self._notes()}
        expected = {**before, **{d.note_id: d.after for d in plan.notes}}
        assert after == expected  # exactly the plan's after-state
        record("invariant steps")

    @rule(data=st.data())
    def unhide_an_archived_note(self, data: st.DataObject) -> None:
        hidden = [n["id"] for n in self._notes() if n.get("hidden") is True]
        if not hidden:
            return
        chosen = data.draw(st.sampled_from(hidden))
        self.memory.unhide([chosen])
        note_now = read_graph(self.graph).get(chosen)
        assert note_now is not None and note_now["hidden"] is False
        assert "archivedAt" not in note_now
        record("invariant steps")

    @rule(data=st.data())
    def undo_a_run(self, data: st.DataObject) -> None:
        runs = [e for e in self.memory.log()]
        if not runs:
            return
        entry = read_entry(self.memory.home, data.draw(st.sampled_from(runs)).run_id)
        before = self.graph.read_bytes()
        try:
            self.memory.undo(entry.run_id)
        except UndoConflictError as exc:
            assert exc.note_ids and self.graph.read_bytes() == before
            return
        except NuggetsError as exc:  # already undone, or changed nothing
            assert "undone" in str(exc) or "nothing to undo" in str(exc)
            assert self.graph.read_bytes() == before
            return
        graph = read_graph(self.graph)
        for note_id, image in entry.before.items():  # byte for byte
            assert json.dumps(graph.get(note_id), ensure_ascii=False) == json.dumps(
                image, ensure_ascii=False
            )
        record("invariant steps")

    @rule(bump=st.booleans())
    def another_program_edits_after_a_plan(self, bump: bool) -> None:
        plan = self.memory.plan(uncapped=True)
        doc = json.loads(self.graph.read_bytes())
        if bump and doc["notes"]:
            doc["notes"][0]["hits"] = doc["notes"][0].get("hits", 0) + 1
        else:
            self.agent_notes += 1
            new_id = f"agent-{self.agent_notes}"
            doc["notes"].append(note(new_id, "agent note", "redis cache port deploy"))
            self.known.add(new_id)
        self.graph.write_text(json.dumps(doc))
        edited = self.graph.read_bytes()
        try:
            self.memory.apply(plan)
        except StalePlanError:
            assert self.graph.read_bytes() == edited  # refused, the edit kept
        else:
            assert not plan.operations  # only an empty plan has nothing to refuse
        record("invariant steps")

    @rule()
    def repeated_uncapped_passes_reach_a_fixed_point(self) -> None:
        for _ in range(len(self._notes()) + 3):
            _, entry = self.memory.reflect(uncapped=True)
            if entry is None:
                break
        else:
            raise AssertionError("no fixed point")
        settled = self.graph.read_bytes()
        plan, entry = self.memory.reflect(uncapped=True)
        assert entry is None and not plan.result.changes
        assert self.graph.read_bytes() == settled
        record("invariant steps")

    @invariant()
    def notes_are_conserved_and_every_archived_note_can_come_back(self) -> None:
        if not self.graph.exists():
            return
        notes = self._notes()
        ids = [n["id"] for n in notes]
        assert len(ids) == len(set(ids)) and self.known <= set(ids)
        assert all(isinstance(n.get("hidden", False), bool) for n in notes)


MemoryMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestMemoryInvariants = pytest.mark.slow(MemoryMachine.TestCase)
