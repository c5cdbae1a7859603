"""What the purifier's store does beyond reading (docs/PURIFIER.md, "Acting through the
purifier"): its plan is a preview of the purifier's next run on a copy of the workspace,
applying it runs the purifier itself (under its own lock), and restoring a rejected or deferred
candidate writes its text into a source file as a journaled run of ours that undo takes back.
Nothing here writes an artifact, ledger, manifest, view or lock of the purifier."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from core.clock import Clock, to_iso
from core.contract.parts import SystemRun
from core.contract.store import Chooser
from core.errors import NuggetsError, StalePlanError
from core.journal.guarded_write import directory_lock, settle
from core.journal.journal import Journal
from core.models import JournalEntry, NoteDiff, Operation, Plan, RawNote, ReflectionResult
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, current_fingerprint
from core.progress import Progress
from core.stores.purifier import paths, preview, restore, runner
from core.stores.purifier.artifacts import read_artifacts

RECONCILE = SystemRun(
    "c",
    "Run a reconciliation",
    "The purifier's reconciliation run, for real: it reads every source file again (what a "
    "failed run dropped too), under its own lock, in its own memory-log; not a run of ours, "
    "undo does not take it back. Its model backend may spend tokens.",
    "reconciliation",
)
ACKNOWLEDGE = SystemRun(
    "a",
    "Acknowledge the upgrade",
    "The purifier's acknowledgement of its pending upgrade, for real: it clears its "
    "upgrade-pending lock and runs a reconciliation that rebuilds its state; not a run of "
    "ours, undo does not take it back. Its model backend may spend tokens.",
    "acknowledge-upgrade",
)


class PurifierActing:
    """The acting half of `PurifierStore` (core/stores/purifier/store.py)."""

    home: Path
    clock: Clock
    notices: list[str]
    # Set from the command line's options (core/stores/purifier/kind.py) or by a caller.
    purifier_scripts: Path | None = None
    run_mode: str = "incremental"
    acknowledge_upgrade: bool = False
    purifier_args: tuple[str, ...] = ()  # more arguments for its orchestrator (tests: a backend)
    restore_into: Path | None = None
    _preview: preview.Preview | None = None
    journal: Journal  # ours, outside the workspace: restores are runs of it

    def read(self) -> Graph:
        raise NotImplementedError  # PurifierStore's

    def now(self) -> str:
        return to_iso(self.clock())

    def installation(self) -> runner.Installation:
        return runner.find(self.home, self.purifier_scripts)

    # -- the plan: a preview of the purifier's next run ---------------------------------------

    def plan(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        """The claims and views the purifier's next run would change, from a run on a copy of
        the workspace; PreviewUnavailable (one line) when its run cannot be previewed: not
        installed, or an upgrade pending that is not being acknowledged."""
        graph = graph or self.read()
        self._preview = None
        self._refuse_pending_upgrade()
        try:
            found = preview.preview(
                self.home,
                self.installation(),
                self._mode(),
                self.acknowledge_upgrade,
                self.purifier_args,
            )
        except runner.NotInstalledError as exc:
            raise runner.PreviewUnavailable(
                f"{exc}; its next run cannot be previewed (nothing was run)"
            ) from None
        self._preview = found
        self.notices += preview.said(found)
        return self._plan(graph, *preview.operations(found, self.now()))

    def _refuse_pending_upgrade(self) -> None:
        """With an upgrade pending the purifier's run stops before it changes anything
        (upgrade_required): only its acknowledgement can be previewed."""
        if self.acknowledge_upgrade:
            return
        for pending in sorted(paths.locks_dir(self.home).glob("purifier-upgrade-pending-*.json")):
            raise runner.PreviewUnavailable(
                f"{pending}: an upgrade of the purifier is pending, so its next run stops "
                "before it changes anything (upgrade_required); preview its acknowledgement "
                "instead: reflect --acknowledge-upgrade (nothing was run)"
            )

    def _plan(
        self, graph: Graph, ops: list[Operation], diffs: list[NoteDiff], result: ReflectionResult
    ) -> Plan:
        return Plan(
            ran_at=self.now(),
            base_fingerprint=graph.fingerprint,
            limit=0,
            result=result,
            operations=ops,
            notes=diffs,
        )

    def _mode(self) -> str:
        return "reconciliation" if self.acknowledge_upgrade else self.run_mode

    def is_stale(self, plan: Plan) -> bool:
        return self.read().fingerprint != plan.base_fingerprint

    def side_file_lines(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return preview.lines_for(self._preview, note_ids)

    def side_file_names(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return list(self._preview.views) if self._preview is not None else []

    # -- running it for real --------------------------------------------------------------------

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Run the purifier for real, the previewed plan whole: it decides every change itself."""
        if accepted is not None and set(accepted) != {op.id for op in plan.operations}:
            raise NuggetsError(
                "the purifier's run is taken whole: keep every change, or none (nothing was run)"
            )
        if self.is_stale(plan):
            raise StalePlanError(
                "the purifier's files changed since the preview: preview again (nothing was run)"
            )
        self.run_now()
        return None

    def reflect(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        also: Collection[str] = (),
        choose: Chooser | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        """Run the purifier for real; the plan says what its run changed. `choose` is not
        asked: the purifier decides every change of its run itself."""
        graph = self.read()
        before = read_artifacts(self.home)
        result = self.run_now()
        found = preview.compared(result, before, read_artifacts(self.home))
        return self._plan(graph, *preview.operations(found, self.now())), None

    def run_now(self, mode: str | None = None, acknowledge: bool | None = None) -> runner.RunResult:
        """One run of the purifier (its lock, its files, its memory-log), said in one line;
        the mode and acknowledgement asked for, else the store's."""
        acknowledge = self.acknowledge_upgrade if acknowledge is None else acknowledge
        result = runner.run_for_real(
            self.home,
            self.installation(),
            mode or ("reconciliation" if acknowledge else self.run_mode),
            acknowledge,
            self.purifier_args,
        )
        self.notices.append(result.line())
        return result

    # -- the runs of it an operator may start (SelfKeeper) ------------------------------------

    def system_runs(self) -> list[SystemRun]:
        """Its reconciliation, and the acknowledgement of an upgrade while one is pending."""
        runs = [RECONCILE]
        if any(paths.locks_dir(self.home).glob("purifier-upgrade-pending-*.json")):
            runs.append(ACKNOWLEDGE)
        return runs

    def start_run(self, run: SystemRun) -> str:
        """Run the purifier as asked: its result in one line (RunFailed: its own message)."""
        if run.name not in (RECONCILE.name, ACKNOWLEDGE.name):
            raise NuggetsError(f"{run.name}: not a run of the purifier's")
        return self.run_now("reconciliation", run.name == ACKNOWLEDGE.name).line()

    # -- restoring a candidate into a source file ---------------------------------------------

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Restore rejected or deferred candidates into the source file chosen (restore_into)."""
        if self.restore_into is None:
            raise NuggetsError(
                "a rejected or deferred candidate is restored into a source "
                "file of the workspace: name it (unhide ID --into FILE)"
            )
        return self.restore(note_ids, self.restore_into)

    def restorable(self, note: RawNote) -> bool:
        return note.get("nuggetName") in restore.RESTORABLE

    def _restoring(self, note_ids: Iterable[str], into: Path) -> tuple[Path, list[RawNote]]:
        """The source file named and the candidates to restore into it (one-line errors)."""
        path = restore.target(self.home, into)
        return path, restore.candidates({n["id"]: n for n in self.read().notes}, list(note_ids))

    def restore_diff(self, note_ids: Iterable[str], into: Path) -> list[str]:
        """The diff restoring these candidates would make, before anything is written."""
        path, chosen = self._restoring(note_ids, into)
        before = restore.current_text(path)
        name = "/".join(path.relative_to(restore.SourceFiles(self.home).workspace).parts)
        return restore.diff_lines(name, before, restore.restored_text(before, chosen))

    def restore(self, note_ids: Iterable[str], into: Path) -> JournalEntry:
        """Append the candidates' text to a source file, journaled (undo takes it back), and
        offer a reconciliation."""
        path, chosen = self._restoring(note_ids, into)
        with self.journal.lock(), directory_lock(path):
            self.journal.settle_leftovers()
            self.notices += settle(path)
            before = restore.current_text(path)
            after = restore.restored_text(before, chosen)
            base = current_fingerprint(path) if before is not None else EMPTY_FINGERPRINT
            ids = ", ".join(n["id"] for n in chosen)
            entry = self.journal.replace(
                path, before, after, base, "unhide", f"restored {ids} into {path.name}"
            )
        self.notices.append(
            "the purifier reads it on its next reconciliation: reflect --apply --reconcile"
        )
        return entry
