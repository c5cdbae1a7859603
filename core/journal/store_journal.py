"""A store's journal as the store contract offers it (core/contract/parts.py, `Journal`), over
the store's own journal methods, until one journal implementation serves every store."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from core.journal.entries import JournalHeader, journal_dir
from core.models import JournalEntry, JournalKind
from core.notes.snapshot import Graph


class Runs(Protocol):
    """The journal methods a store has."""

    def log(self) -> list[JournalHeader]: ...
    def run(self, run_id: str) -> JournalEntry: ...
    def undo(self, run_id: str) -> JournalEntry: ...
    def undo_blockers(self, run_id: str,
                      graph: Graph | None = None) -> tuple[JournalEntry, list[str]]: ...
    def write_file(self, path: Path, before: str | None, after: str, kind: JournalKind,
                   summary: str) -> JournalEntry: ...
    def exclusive(self) -> AbstractContextManager[None]: ...


class StoreJournal:
    """`home`: the directory whose `reflections/` holds the runs, with our small files beside."""

    def __init__(self, home: Path, runs: Runs) -> None:
        self._home = home
        self._runs = runs

    @property
    def home(self) -> Path:
        return self._home

    @property
    def folder(self) -> Path:
        return journal_dir(self._home)

    def log(self) -> list[JournalHeader]:
        return self._runs.log()

    def run(self, run_id: str) -> JournalEntry:
        return self._runs.run(run_id)

    def undo(self, run_id: str) -> JournalEntry:
        return self._runs.undo(run_id)

    def blockers(self, run_id: str, graph: Graph | None = None,
                 ) -> tuple[JournalEntry, list[str]]:
        return self._runs.undo_blockers(run_id, graph)

    def write_file(self, path: Path, before: str | None, after: str, kind: JournalKind,
                   summary: str) -> JournalEntry:
        return self._runs.write_file(path, before, after, kind, summary)

    def lock(self) -> AbstractContextManager[None]:
        return self._runs.exclusive()
