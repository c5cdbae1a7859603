"""The one interface every memory system's store offers to the front ends.

A store turns one memory system's files into the engine's notes (a `Graph` snapshot and a
`Shelf`), plans the system's own maintenance pass over them, and writes what the operator kept:
journaled, undoable, settled after an interruption. The console and the command line only ever
talk to this interface, so a new memory system is a new store, not a fork of the front ends.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from ..clock import Clock
from ..journal import JournalHeader
from ..models import (
    JournalEntry,
    Operation,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
)
from ..shelf import Shelf
from ..store import Graph


class Store(Protocol):
    system: str  # the memory system's name as the front ends show it ("Nuggets", "MicroClaw")
    source_label: str  # what holds the notes, in words ("graph file", "MicroClaw database")
    pass_label: str  # the maintenance a plan previews ("reflection pass", "bot's maintenance")
    note_columns: str  # what a table of its notes shows: "notes" (hits, tags) or "rows"
    promotion_label: str  # what promotion writes, in words ("MEMORY.md", "AGENTS.md")
    promotion_rule: str  # which notes qualify, for "<n> notes ...": "{threshold}" filled in
    home: Path  # the directory the operator named (a Nuggets home, a MicroClaw data dir)
    clock: Clock
    notices: list[str]  # what settling and tolerant reads found, for the front ends to tell
    promotion_run: JournalEntry | None  # the last promotion's journal entry
    promotion_runs: list[JournalEntry]  # every file the last promote_now wrote, one run each
    allow_contact: bool  # promote e-mail addresses and phone numbers (else from the environment)

    @property
    def graph_path(self) -> Path:
        """The file that holds the notes; its stamp tells a front end that they changed."""

    @property
    def journal_home(self) -> Path:
        """The directory whose `reflections/` holds this memory's journal."""

    def read(self) -> Graph: ...
    def topic_rules(self) -> dict[str, Any]:
        """How this system's notes are grouped into contradictions: keyword arguments of
        core/contradictions.py's `find_contradictions` (`topic`, `tokens` also for judging)."""

    def stamp(self) -> Hashable:
        """A token that changes whenever another program writes the notes (cheap: a stat)."""

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The files the system keeps beside a nugget's notes (all nuggets: None), which the
        console shows read-only; absent ones included, so the operator sees where they go."""

    def first_notes(self, count: int) -> list[RawNote]:
        """A page of notes to show while the whole memory is read (may be empty)."""

    def shelf(self) -> Shelf: ...
    def now(self) -> str: ...
    def plan(self, nugget_name: str | None = None, limit: int | None = None,
             uncapped: bool = False, graph: Graph | None = None,
             should_stop: Callable[[], bool] | None = None) -> Plan: ...
    def plan_operations(self, operations: list[Operation], result: ReflectionResult,
                        graph: Graph | None = None) -> Plan:
        """Operations decided elsewhere (a contradiction's decision, acting on verdicts) as a
        plan of this system's writes, journaled as kind "decide". Writes nothing."""

    def is_stale(self, plan: Plan) -> bool: ...
    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None: ...
    def reflect(self, nugget_name: str | None = None, limit: int | None = None,
                uncapped: bool = False) -> tuple[Plan, JournalEntry | None]: ...
    def unhide(self, note_ids: Iterable[str]) -> JournalEntry | None: ...
    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None: ...
    def undo(self, run_id: str) -> JournalEntry: ...
    def undo_blockers(self, run_id: str,
                      graph: Graph | None = None) -> tuple[JournalEntry, list[str]]: ...
    def run(self, run_id: str) -> JournalEntry: ...
    def log(self) -> list[JournalHeader]: ...
    def recover(self) -> list[str]: ...
    def startup_messages(self) -> list[str]: ...
    def take_notices(self) -> list[str]: ...
    def exclusive(self) -> AbstractContextManager[None]: ...
    def promotion_target(self, memory_md: Path | None = None) -> Path: ...
    def plan_promotion(self, memory_md: Path | None = None, threshold: int = ...,
                       allow: Collection[str] = (), graph: Graph | None = None,
                       drop: Collection[str] = ()) -> PromotionPlan: ...
    def plan_promotions(self, threshold: int = ..., allow: Collection[str] = (),
                        graph: Graph | None = None,
                        drop: Collection[str] = ()) -> list[PromotionPlan]:
        """Every file promotion would edit, one plan each (Nuggets: MEMORY.md alone)."""

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        """The file a promotion of this nugget's notes writes (None: the store's default)."""

    def write_file(self, path: Path, before: str | None, after: str, kind: str,
                   summary: str) -> JournalEntry:
        """Replace a small file of ours beside the journal (read as `before`; None: absent),
        journaled as a run of `kind` that undo takes back."""

    def promote(self, plan: PromotionPlan) -> int: ...
    def promote_now(self, memory_md: Path | None = None, threshold: int = ...,
                    allow: Collection[str] = (),
                    drop: Collection[str] = ()) -> tuple[PromotionPlan, int]: ...
