"""One memory home and everything a front end does to it: plan, apply, unhide, undo, promote.

Every front end (the console, the command line, a cron job) goes through this class.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from . import fields
from .clock import Clock, system_clock, to_iso
from .errors import (
    GraphError,
    JournalError,
    NuggetsError,
    StalePlanError,
    UndoConflictError,
    UnknownNoteError,
    UnsettledWriteError,
)
from .gcpause import paused_gc
from .guard import directory_lock, graph_lock, replace_if_unchanged, settle, swap_outcome
from .journal import (
    commit_pending,
    journal_dir,
    next_run_id,
    pending_entries,
    read_entries,
    read_entry,
    remove_temp_files,
    write_pending,
)
from .models import JournalEntry, NoteDiff, Operation, Plan, PromotionPlan, ReflectionResult
from .promotion import DEFAULT_THRESHOLD, plan_promotion, resolve_memory_md
from .reflection import plan_pass
from .selection import resolve_limit
from .shelf import Shelf, nugget_file_names
from .store import (
    EMPTY_FINGERPRINT,
    Graph,
    current_fingerprint,
    dump_graph,
    fingerprint,
    graph_path,
    read_graph,
)
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
        self.notices: list[str] = []
        self._opened: Graph | None = None  # read by startup_messages, for the command to take

    @property
    def graph_path(self) -> Path:
        return graph_path(self.home)

    def shelf(self) -> Shelf:
        return Shelf(self._read(), nugget_file_names(self.home))

    def _read(self) -> Graph:
        """The graph file: the snapshot `startup_messages` just read (taken once, so a retry
        reads afresh), else read now. A command thus reads and checks the file once."""
        graph, self._opened = self._opened, None
        return graph or read_graph(self.graph_path)

    def now(self) -> str:
        return to_iso(self.clock())

    # -- reflection ---------------------------------------------------------------------------

    def plan(
        self, nugget_name: str | None = None, limit: int | None = None, uncapped: bool = False,
        graph: Graph | None = None,
    ) -> Plan:
        """The pass computed on the current file; writes nothing."""
        graph = graph or self._read()
        capped = resolve_limit(limit)
        outcome = plan_pass(graph.notes, self.clock(), nugget_name, capped, uncapped)
        ws = outcome.workspace
        with paused_gc():
            diffs = [
                NoteDiff(note_id=graph.notes[p]["id"], before=graph.notes[p], after=ws.notes[p])
                for p in ws.touched_positions()
            ]
        # Built from the models the pass just made: validating them again (170k operations
        # and 100k diffs at 100k notes) would only check their types once more.
        return Plan.model_construct(
            ran_at=outcome.result.ran_at, base_fingerprint=graph.fingerprint,
            nugget_name=nugget_name, limit=capped, uncapped=uncapped, result=outcome.result,
            operations=outcome.operations, notes=diffs,
        )

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Replay the accepted operations (all when None) on the file the plan was made from."""
        kept = {op.id for op in plan.operations} if accepted is None else set(accepted)
        with graph_lock(self.graph_path), paused_gc():
            return self._apply_locked(plan, kept)

    def _settle_first(self) -> None:
        if self._has_leftovers():
            self._settle_locked()

    def _apply_locked(self, plan: Plan, kept: set[int]) -> JournalEntry | None:
        self._settle_first()
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
        self._settle_first()
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
        """Restore the notes a run changed, if none of them changed since; checks again while
        another writer keeps changing the file (bounded)."""

        def attempt() -> JournalEntry:
            with graph_lock(self.graph_path):
                return self._undo_locked(run_id)

        return _retrying(attempt)

    def _undo_locked(self, run_id: str) -> JournalEntry:
        self._settle_first()
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
        """Journal (write-ahead) and write the changed notes over `graph`'s version, if any.

        The pending entry becomes the run's journal entry exactly when the graph lands; an
        interruption at any step is settled from what is on disk (see `recover`).
        """
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
        landed = False

        def record_landing() -> None:
            nonlocal landed
            landed = True
            commit_pending(pending)

        try:
            replace_if_unchanged(self.graph_path, data, graph.fingerprint, record_landing,
                                 self.notices)
        except UnsettledWriteError:
            raise
        except (StalePlanError, GraphError):
            if not landed:
                pending.unlink(missing_ok=True)
            raise
        except OSError as exc:
            raise JournalError(
                f"{self.graph_path} was written but journal entry {run_id} could not be "
                f"committed ({exc.strerror or exc}); it is settled the next time it is opened"
            ) from None
        return entry

    def recover(self) -> list[str]:
        """Settle what interrupted writes left (ours or another nuggets process's); says what
        it did. Front ends call it when they open a memory; every write also does it first.

        A pending journal entry becomes a journal entry exactly when its run landed: the
        version it replaced was swapped out (or, without an exchange, the graph is its
        result); otherwise it is discarded. See core/guard.py for the files a write leaves.
        """
        if not self._has_leftovers():
            return []
        with graph_lock(self.graph_path):
            return self._settle_locked()

    def _written_files(self) -> list[Path]:
        """The files we replace: the graph, and MEMORY.md when its directory can be seen."""
        files = [self.graph_path]
        try:
            target = self.promotion_target()
            if target.parent.is_dir():
                files.append(target)
        except (OSError, RuntimeError):  # no home to resolve against, or no right to look
            pass
        return files

    def _has_leftovers(self) -> bool:
        journal = journal_dir(self.home)
        try:
            return bool(pending_entries(self.home)) or any(
                any(True for _ in path.parent.glob(f".{path.name}.*.nuggets-*"))
                for path in self._written_files() if path.parent.is_dir()
            ) or (journal.is_dir() and any(True for _ in journal.glob(".*.nuggets-tmp")))
        except OSError as exc:
            raise GraphError(f"{self.home}: cannot be searched: {exc.strerror or exc}") from None

    def _settle_locked(self) -> list[str]:
        messages = remove_temp_files(self.home)
        for path, entry in pending_entries(self.home):
            if entry is not None and self._landed(entry):
                commit_pending(path)
                messages.append(f"recovered journal entry {entry.run_id}: its run had landed")
            else:
                path.unlink(missing_ok=True)
                name = entry.run_id if entry else path.name
                messages.append(f"discarded journal entry {name}: its run never landed")
        messages += settle(self.graph_path)
        for path in self._written_files()[1:]:
            with directory_lock(path):
                messages += settle(path)
        self.notices += messages
        return messages

    def _landed(self, entry: JournalEntry) -> bool:
        outcome = swap_outcome(self.graph_path, entry.base_fingerprint, entry.result_fingerprint)
        if outcome is not None:
            return outcome == "landed"
        now = current_fingerprint(self.graph_path)
        if now == entry.result_fingerprint:
            return True
        if now in (entry.base_fingerprint, EMPTY_FINGERPRINT):
            return False
        # Another program wrote since (only possible without an atomic exchange): landed
        # when the notes are as this run left them.
        graph = read_graph(self.graph_path)
        return all(graph.get(i) == note for i, note in entry.after.items())

    def take_notices(self) -> list[str]:
        """Messages from settling interrupted writes since the last call (for front ends)."""
        taken, self.notices = self.notices, []
        return taken

    def startup_messages(self) -> list[str]:
        """What a front end should tell when it opens the memory: interrupted writes settled,
        and what was read tolerantly (a byte-order mark, repeated keys). A graph that cannot
        be read is reported by the command that reads it, not here."""
        messages = self.recover()
        self.notices = []
        with contextlib.suppress(GraphError):
            self._opened = read_graph(self.graph_path)
            messages += self._opened.warnings
        return messages

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold our lock across several steps (the daily pass); writes inside still lock."""
        with graph_lock(self.graph_path):
            yield

    # -- promotion ----------------------------------------------------------------------------

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        return resolve_memory_md(memory_md or self.memory_md)

    def plan_promotion(
        self, memory_md: Path | None = None, threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (), graph: Graph | None = None,
    ) -> PromotionPlan:
        """The MEMORY.md edit; entries screening holds back are listed as blocked unless their
        note id is in `allow`. Writes nothing. `graph`: the notes as already read (the
        console's), else the graph file is read."""
        path = self.promotion_target(memory_md)
        exists = path.parent.is_dir()
        before, base = _read_memory_md(path) if exists else ("", EMPTY_FINGERPRINT)
        notes = (graph or self._read()).notes
        return plan_promotion(notes, path, before, exists, threshold, allow, base)

    def promote_now(
        self, memory_md: Path | None = None, threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
    ) -> tuple[PromotionPlan, int]:
        """Plan and write promotion in one go, planning again if MEMORY.md changes under it."""

        def attempt() -> tuple[PromotionPlan, int]:
            plan = self.plan_promotion(memory_md, threshold, allow)
            return plan, self.promote(plan)

        return _retrying(attempt, "MEMORY.md")

    def promote(self, plan: PromotionPlan) -> int:
        """Write the planned MEMORY.md over the version it was planned from; returns the
        entries added. Nothing when its directory does not exist."""
        if not plan.changes_file:
            return plan.added if plan.directory_exists else 0
        path = Path(plan.path)
        with graph_lock(self.graph_path), directory_lock(path):
            self.notices += settle(path)
            replace_if_unchanged(path, plan.after_text.encode("utf-8"), plan.base_fingerprint,
                                 notices=self.notices)
        return plan.added


RETRIES = 8


def _retrying(attempt: Callable[[], T], what: str = "the graph file") -> T:
    """Run a plan-and-write step again while the file keeps changing under it (bounded)."""
    for _ in range(RETRIES - 1):
        try:
            return attempt()
        except StalePlanError:
            time.sleep(random.uniform(0.01, 0.1))  # jitter: don't fall in step with a writer
    try:
        return attempt()
    except StalePlanError:
        raise StalePlanError(
            f"{what} kept changing while we wrote it ({RETRIES} tries); "
            "another program is writing it - try again in a moment"
        ) from None


def _read_memory_md(path: Path) -> tuple[str, str]:
    """MEMORY.md's text and the fingerprint of its bytes; absent reads as empty."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return "", EMPTY_FINGERPRINT
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8"), fingerprint(data)
    except UnicodeDecodeError as exc:
        raise NuggetsError(f"{path}: not valid UTF-8 at byte {exc.start}") from None


def _summarize(result: ReflectionResult | None) -> str:
    if result is None:
        return ""
    return (
        f"{result.rewritten} rewritten, {result.merged} merged, {result.hidden} archived, "
        f"{result.tagged} tagged, {result.linked} linked"
    )
