"""One memory home and everything a front end does to it: plan, apply, unhide, undo, promote.

Every front end (the console, the command line, a cron job) goes through this class.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from . import fields
from .atomic import atomic_write
from .clock import Clock, system_clock, to_iso
from .errors import NuggetsError, StalePlanError, UndoConflictError, UnknownNoteError
from .gcpause import paused_gc
from .guard import graph_lock, replace_if_unchanged
from .journal import (
    commit_pending,
    next_run_id,
    pending_entries,
    read_entries,
    read_entry,
    write_pending,
)
from .models import JournalEntry, NoteDiff, Operation, Plan, PromotionPlan, ReflectionResult
from .promotion import DEFAULT_THRESHOLD, plan_promotion, resolve_memory_md
from .reflection import plan_pass
from .selection import resolve_limit
from .shelf import Shelf
from .store import Graph, dump_graph, fingerprint, graph_path, read_graph
from .workspace import Workspace, replay, unhide

T = TypeVar("T")


def result_of(result: ReflectionResult, kept: set[int]) -> ReflectionResult:
    """The result counting only the kept changes (ids are 1-based positions)."""
    changes = [c for i, c in enumerate(result.changes, start=1) if i in kept]
    counts = {name: 0 for name in ("rewritten", "merged", "hidden", "tagged", "linked")}
    names = {"rewrite": "rewritten", "merge": "merged", "hide": "hidden", "tag": "tagged",
             "link": "linked"}
    for change in changes:
        counts[names[change.type]] += 1
    return ReflectionResult(ran_at=result.ran_at, inspected=result.inspected, changes=changes,
                            **counts)


class Memory:
    def __init__(
        self, home: Path, clock: Clock = system_clock, memory_md: Path | None = None
    ) -> None:
        self.home = home
        self.clock = clock
        self.memory_md = memory_md

    @property
    def graph_path(self) -> Path:
        return graph_path(self.home)

    def shelf(self) -> Shelf:
        return Shelf.load(self.home)

    def now(self) -> str:
        return to_iso(self.clock())

    # -- reflection ---------------------------------------------------------------------------

    def plan(
        self, nugget_name: str | None = None, limit: int | None = None, uncapped: bool = False,
        graph: Graph | None = None,
    ) -> Plan:
        """The pass computed on the current file; writes nothing."""
        graph = graph or read_graph(self.graph_path)
        capped = resolve_limit(limit)
        outcome = plan_pass(graph.notes, self.clock(), nugget_name, capped, uncapped)
        ws = outcome.workspace
        with paused_gc():
            diffs = [
                NoteDiff(note_id=graph.notes[p]["id"], before=graph.notes[p], after=ws.notes[p])
                for p in ws.touched_positions()
            ]
        return Plan(
            ran_at=outcome.result.ran_at, base_fingerprint=graph.fingerprint,
            nugget_name=nugget_name, limit=capped, uncapped=uncapped, result=outcome.result,
            operations=outcome.operations, notes=diffs,
        )

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Replay the accepted operations (all when None) on the file the plan was made from."""
        kept = {op.id for op in plan.operations} if accepted is None else set(accepted)
        with graph_lock(self.graph_path), paused_gc():
            return self._apply_locked(plan, kept)

    def _apply_locked(self, plan: Plan, kept: set[int]) -> JournalEntry | None:
        graph = read_graph(self.graph_path)
        if graph.fingerprint != plan.base_fingerprint:
            raise StalePlanError(
                f"stale plan: {self.graph_path} changed since the plan was made; plan again"
            )
        operations = [op for op in plan.operations if op.id in kept]
        ws = Workspace(graph.notes)
        for op in operations:
            replay(ws, op, plan.ran_at)
        return self._commit(graph, ws, "reflect", operations,
                            result_of(plan.result, kept), plan.ran_at)

    def reflect(
        self, nugget_name: str | None = None, limit: int | None = None, uncapped: bool = False
    ) -> tuple[Plan, JournalEntry | None]:
        """Plan and apply in one go, planning again while another writer keeps the plan stale."""

        def attempt() -> tuple[Plan, JournalEntry | None]:
            plan = self.plan(nugget_name, limit, uncapped)
            return plan, self.apply(plan)

        return _retrying(attempt)

    # -- recovery -----------------------------------------------------------------------------

    def unhide(self, note_ids: Iterable[str]) -> JournalEntry | None:
        """Bring archived notes back; visible ones are left as they are."""
        ids = list(dict.fromkeys(note_ids))

        def attempt() -> JournalEntry | None:
            with graph_lock(self.graph_path):
                return self._unhide_locked(ids)

        return _retrying(attempt)

    def _unhide_locked(self, ids: list[str]) -> JournalEntry | None:
        graph = read_graph(self.graph_path)
        unknown = [i for i in ids if graph.get(i) is None]
        if unknown:
            raise UnknownNoteError(f"no note {', '.join(unknown)} in {self.graph_path}")
        ws = Workspace(graph.notes)
        now = self.now()
        for note_id in ids:
            if fields.hidden(graph.get(note_id)):
                unhide(ws, note_id, now)
        summary = "unhid " + ", ".join(ids)
        return self._commit(graph, ws, "unhide", [], None, now, summary=summary)

    def undo(self, run_id: str) -> JournalEntry:
        """Restore the notes a run changed, if none of them changed since."""
        with graph_lock(self.graph_path):
            return self._undo_locked(run_id)

    def _undo_locked(self, run_id: str) -> JournalEntry:
        entry = read_entry(self.home, run_id)
        later = [e.run_id for e in read_entries(self.home) if e.undoes == run_id]
        if later:
            raise NuggetsError(f"run {run_id} was already undone by {later[0]}")
        graph = read_graph(self.graph_path)
        changed = [i for i, after in entry.after.items() if graph.get(i) != after]
        if changed:
            raise UndoConflictError(
                f"cannot undo {run_id}: these notes changed since: {', '.join(changed)}", changed
            )
        ws = Workspace(graph.notes)
        for note_id, before in entry.before.items():
            ws.put(note_id, before)
        committed = self._commit(graph, ws, "undo", [], None, self.now(), undoes=run_id,
                                 summary=f"undid {run_id}")
        if committed is None:
            raise NuggetsError(f"run {run_id} changed nothing; there is nothing to undo")
        return committed

    def log(self) -> list[JournalEntry]:
        return read_entries(self.home)

    def _commit(
        self, graph: Graph, ws: Workspace, kind: str, operations: list[Operation],
        result: ReflectionResult | None, at: str, undoes: str | None = None, summary: str = "",
    ) -> JournalEntry | None:
        touched = ws.touched_positions()
        if not touched:
            return None
        data = dump_graph(graph.with_notes(ws.notes))
        seq, run_id = next_run_id(self.home, at)
        # Built from data this process just made and checked: no second validation of 2 x 100k
        # note images (reading an entry back validates it).
        entry = JournalEntry.model_construct(
            run_id=run_id, seq=seq, kind=kind, at=at, base_fingerprint=graph.fingerprint,
            result_fingerprint=fingerprint(data), operations=operations, result=result,
            before={graph.notes[p]["id"]: graph.notes[p] for p in touched},
            after={ws.notes[p]["id"]: ws.notes[p] for p in touched},
            undoes=undoes, summary=summary or _summarize(result),
        )
        pending = write_pending(self.home, entry)
        try:
            replace_if_unchanged(self.graph_path, data, graph.fingerprint)
        except BaseException:
            pending.unlink(missing_ok=True)
            raise
        commit_pending(pending)
        return entry

    def recover(self) -> list[str]:
        """Settle journal entries left pending by an interrupted run; says what it did.

        A pending entry whose notes are in the graph as it wrote them landed and is kept;
        otherwise the graph was never replaced and the entry is discarded.
        """
        messages: list[str] = []
        if not pending_entries(self.home):
            return messages
        with graph_lock(self.graph_path):
            graph = read_graph(self.graph_path)
            for path, entry in pending_entries(self.home):
                landed = entry is not None and (
                    graph.fingerprint == entry.result_fingerprint
                    or (graph.fingerprint != entry.base_fingerprint
                        and all(graph.get(i) == note for i, note in entry.after.items()))
                )
                if landed:
                    commit_pending(path)
                    messages.append(f"recovered journal entry {entry.run_id}: its run had landed")
                else:
                    path.unlink(missing_ok=True)
                    name = entry.run_id if entry else path.name
                    messages.append(f"discarded journal entry {name}: its run never landed")
        return messages

    # -- promotion ----------------------------------------------------------------------------

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        return resolve_memory_md(memory_md or self.memory_md)

    def plan_promotion(
        self, memory_md: Path | None = None, threshold: int = DEFAULT_THRESHOLD
    ) -> PromotionPlan:
        path = self.promotion_target(memory_md)
        exists = path.parent.is_dir()
        before = _read_text(path) if exists else ""
        return plan_promotion(read_graph(self.graph_path).notes, path, before, exists, threshold)

    def promote_now(
        self, memory_md: Path | None = None, threshold: int = DEFAULT_THRESHOLD
    ) -> tuple[PromotionPlan, int]:
        """Plan and write promotion in one go, planning again if MEMORY.md changes under it."""

        def attempt() -> tuple[PromotionPlan, int]:
            plan = self.plan_promotion(memory_md, threshold)
            return plan, self.promote(plan)

        return _retrying(attempt)

    def promote(self, plan: PromotionPlan) -> int:
        """Write the planned MEMORY.md; returns the entries added. Nothing when no directory."""
        if not plan.changes_file:
            return plan.added if plan.directory_exists else 0
        path = Path(plan.path)
        if _read_text(path) != plan.before_text:
            raise StalePlanError(f"stale plan: {path} changed since the promotion was planned")
        try:
            atomic_write(path, plan.after_text.encode("utf-8"))
        except OSError as exc:
            raise NuggetsError(f"{path}: cannot be written: {exc.strerror or exc}") from None
        return plan.added


RETRIES = 8


def _retrying(attempt: Callable[[], T]) -> T:
    """Run a plan-and-write step again while the file keeps changing under it (bounded)."""
    for _ in range(RETRIES - 1):
        try:
            return attempt()
        except StalePlanError:
            time.sleep(0.05)
    try:
        return attempt()
    except StalePlanError:
        raise StalePlanError(
            f"the graph file kept changing while we wrote it ({RETRIES} tries); "
            "another program is writing it - try again in a moment"
        ) from None


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc}") from None


def _summarize(result: ReflectionResult | None) -> str:
    if result is None:
        return ""
    return (
        f"{result.rewritten} rewritten, {result.merged} merged, {result.hidden} archived, "
        f"{result.tagged} tagged, {result.linked} linked"
    )
