"""MicroClaw's store: the `Store` interface (core/stores/base.py) over a MicroClaw data dir.

Reading never writes the bot's database (see schema.py). The plan is the bot's own maintenance
(rules.py); the journal lives under `<data dir>/runtime/nuggets-review/`, outside the database.
The write side (apply, unhide, archive, undo, promotion) comes in its own module.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path

from ...clock import Clock, system_clock, to_iso
from ...errors import GraphError, MicroClawError, reason_of
from ...gcpause import paused_gc
from ...journal import JournalHeader, read_entry, read_headers
from ...models import JournalEntry, Plan, PromotionPlan, RawNote
from ...safeopen import MEMORY_MD_BYTES, read_regular
from ...shelf import Shelf
from ...store import Graph
from .paths import MemoryFile, Scope, database_path, journal_home, scope_files
from .rows import read_graph, row_id, scope_of
from .rules import plan_maintenance
from .schema import BUSY_TIMEOUT_S, read_only

PROMOTION_CONFIDENCE = 0.8
CHUNK = 10_000


class MicroClawStore:
    system = "MicroClaw"

    def __init__(self, data_dir: Path, clock: Clock = system_clock,
                 busy_timeout: float = BUSY_TIMEOUT_S) -> None:
        self.home = data_dir
        self.clock = clock
        self.busy_timeout = busy_timeout
        self.notices: list[str] = []
        self.promotion_run: JournalEntry | None = None
        self._opened: Graph | None = None

    @property
    def graph_path(self) -> Path:
        return database_path(self.home)

    @property
    def journal_home(self) -> Path:
        return journal_home(self.home)

    # -- reading ------------------------------------------------------------------------------

    def read(self) -> Graph:
        """Every row as a note, from one consistent read of the database."""
        graph, self._opened = self._opened, None
        if graph is not None:
            return graph
        with paused_gc():
            return read_graph(self.graph_path, self.busy_timeout)

    def shelf(self) -> Shelf:
        return Shelf(self.read())

    def now(self) -> str:
        return to_iso(self.clock())

    def memory_files(self, nugget: str, graph: Graph | None = None) -> list[MemoryFile]:
        """The AGENTS.md and USER.md files of a nugget's scope (global ones included)."""
        return scope_files(self.home, self.scope(nugget, graph))

    def scope(self, nugget: str, graph: Graph | None = None) -> Scope:
        if nugget == "global":
            return Scope(nugget)
        notes = (graph or self.read()).notes
        found = next((n for n in notes if n["nuggetName"] == nugget), None)
        if found is None:
            raise MicroClawError(f"no chat {nugget!r} in {self.graph_path}")
        return scope_of(found)

    @staticmethod
    def read_memory_file(file: MemoryFile) -> str:
        """A file memory's text, read through safeopen (shown read-only)."""
        try:
            return read_regular(file.path, MEMORY_MD_BYTES).decode("utf-8", "replace")
        except (OSError, GraphError) as exc:
            raise MicroClawError(f"{file.path}: cannot be read: {reason_of(exc)}") from None

    # -- the plan -----------------------------------------------------------------------------

    def plan(self, nugget_name: str | None = None, limit: int | None = None,
             uncapped: bool = False, graph: Graph | None = None,
             should_stop: Callable[[], bool] | None = None) -> Plan:
        """The bot's maintenance (rules 1-4) on the current rows; writes nothing. The bot
        applies every rule in full, so `limit` and `uncapped` change nothing here."""
        graph = graph or self.read()
        with paused_gc():
            return plan_maintenance(graph.notes, self.clock(), graph.fingerprint, nugget_name)

    def is_stale(self, plan: Plan) -> bool:
        """Whether a row the plan touches changed since (its before-image no longer holds)."""
        images = {d.note_id: d.before["microclaw"]["row"] for d in plan.notes}
        return bool(self.changed_rows(images))

    def changed_rows(self, images: dict[str, dict]) -> list[str]:
        """The note ids whose row no longer equals its image (or is gone), in one read."""
        if not images:
            return []
        ids = {row_id(i): i for i in images}
        columns = sorted({c for image in images.values() for c in image})
        numbers = [n for n in ids if n is not None]
        current: dict[int, dict] = {}
        with read_only(self.graph_path, self.busy_timeout) as conn:
            for start in range(0, len(numbers), CHUNK):  # SQLite bounds a query's parameters
                chunk = numbers[start:start + CHUNK]
                query = (f"SELECT id, {', '.join(columns)} FROM memories "
                         f"WHERE id IN ({','.join('?' * len(chunk))})")
                current.update((r[0], dict(zip(columns, r[1:], strict=True)))
                               for r in conn.execute(query, chunk))
        changed = []
        for number, note_id in ids.items():
            row = current.get(number)
            image = images[note_id]
            if row is None or any(row[c] != v for c, v in image.items()):
                changed.append(note_id)
        return changed

    # -- journal ------------------------------------------------------------------------------

    def run(self, run_id: str) -> JournalEntry:
        return read_entry(self.journal_home, run_id)

    def log(self) -> list[JournalHeader]:
        headers, skipped = read_headers(self.journal_home)
        self.notices += skipped
        return headers

    def recover(self) -> list[str]:
        """Nothing to settle yet: the write side records its own leftovers."""
        return []

    def take_notices(self) -> list[str]:
        taken, self.notices = self.notices, []
        return taken

    def startup_messages(self) -> list[str]:
        """What a front end tells when it opens the data dir: settled writes, the schema read.
        A database that cannot be read is reported by the command that reads it."""
        messages = self.recover()
        self.notices = []
        with contextlib.suppress(GraphError):
            self._opened = read_graph(self.graph_path, self.busy_timeout)
            info = self._opened.doc["microclaw"]
            if info["schemaVersion"] < 43:
                messages.append(f"{self.graph_path}: schema version {info['schemaVersion']} "
                                "(older than 43): columns it lacks are left out")
        return messages

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Nothing to hold across steps: each write is one short database transaction."""
        yield

    # -- writing (the write side fills these) -------------------------------------------------

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        raise NotImplementedError

    def reflect(self, nugget_name: str | None = None, limit: int | None = None,
                uncapped: bool = False) -> tuple[Plan, JournalEntry | None]:
        raise NotImplementedError

    def unhide(self, note_ids: Iterable[str]) -> JournalEntry | None:
        raise NotImplementedError

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        raise NotImplementedError

    def undo(self, run_id: str) -> JournalEntry:
        raise NotImplementedError

    def undo_blockers(self, run_id: str,
                      graph: Graph | None = None) -> tuple[JournalEntry, list[str]]:
        raise NotImplementedError

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        raise NotImplementedError

    def plan_promotion(self, memory_md: Path | None = None, threshold: int = 0,
                       allow: Collection[str] = (), graph: Graph | None = None,
                       drop: Collection[str] = ()) -> PromotionPlan:
        raise NotImplementedError

    def promote(self, plan: PromotionPlan) -> int:
        raise NotImplementedError

    def promote_now(self, memory_md: Path | None = None, threshold: int = 0,
                    allow: Collection[str] = (),
                    drop: Collection[str] = ()) -> tuple[PromotionPlan, int]:
        raise NotImplementedError


def promotable(note: RawNote, threshold: float = PROMOTION_CONFIDENCE) -> bool:
    """§9 promotion candidates: active PROFILE or KNOWLEDGE rows with confidence >= 0.8."""
    return (not note.get("hidden") and note.get("type") in ("PROFILE", "KNOWLEDGE")
            and note.get("confidence", 0) >= threshold)
