"""The one journal of a store's runs, for every store (docs/RUNS.md).

Every write is a run: its entry is written ahead as a pending file, then the write, and the
pending entry becomes the run's entry exactly when the write lands (`Journal.commit`). A run that
replaces one whole file (MEMORY.md, an AGENTS.md, a topic file, a small file of ours) and its
undo are the journal's own (`replace`, `undo_file`, `write_file`). Runs are read back (`log`,
`run`) and taken back (`undo`, `blockers`), the runs of one batch together. One recovery settles
whatever an interrupted write left (`recover`): our half-made temporary files removed, each
pending entry committed when its run landed, discarded when it never did, left and named when
that cannot be told, and the leftovers beside every file a run writes settled.

What differs between stores is their `Target`: their lock, the files they write, and what only
they know of a run on their notes (whether it landed, what else it wrote, how it is taken back).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Literal, Protocol

from core.clock import Clock, to_iso
from core.errors import (
    GraphError,
    JournalError,
    NuggetsError,
    StalePlanError,
    UnsettledWriteError,
    reason_of,
)
from core.journal.entries import (
    JournalHeader,
    Pending,
    commit_pending,
    file_run,
    has_pending,
    has_temps,
    journal_dir,
    named_files,
    pending_entries,
    prune,
    read_entry,
    read_headers,
    remove_temp_files,
    remove_temps,
    write_pending,
)
from core.journal.guarded_write import (
    directory_lock,
    file_landed,
    remove_if_unchanged,
    replace_if_unchanged,
    settle,
    with_leftovers,
)
from core.journal.history import place, undone_by, undone_together, with_places
from core.journal.own_files import OwnFiles, name_of, own_file
from core.models import JournalEntry, JournalKind, PromotionEntry
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, current_fingerprint, fingerprint
from core.safeio.private import make_folder, tighten
from core.settings import DEFAULT_KEEP

Landing = Callable[[], None]  # called by a write the moment it lands
Write = Callable[[Landing], object]  # a run's write, told how to report its landing
Outcome = Literal["commit", "discard", "leave"]  # what settling does with a pending entry


class Batch:
    """Runs one operation writes together (one apply, one unhide, one undo of those): each
    entry's `batch` is the first one's run id, and undo takes them back together."""

    def __init__(self) -> None:
        self.id: str | None = None

    def mark(self, entry: JournalEntry) -> JournalEntry:
        self.id = self.id or entry.run_id
        return entry.model_copy(update={"batch": self.id})


class Target(Protocol):
    """What the journal needs from a store: its lock, the files it writes, and what only the
    store knows of a run on its notes. A run that replaces one whole file needs nothing more:
    the journal writes, settles and undoes it (`Journal.undo_file`)."""

    def lock(self) -> AbstractContextManager[None]:
        """Our own writers of this memory, one at a time (re-entrant within a thread)."""

    def files(self) -> list[Path]:
        """The files it writes whose leftovers settling clears: the notes' file, the files
        written with it, our small files beside the journal (those a pending entry names are
        settled too)."""

    def folders(self) -> list[Path]:
        """Folders wholly ours besides the journal's (a record of what was seen): every file an
        interrupted atomic write left half-made in them is removed."""

    def landed(self, entry: JournalEntry) -> bool | None:
        """Whether a run on the notes landed; None when that cannot be told (what it wrote
        changed since)."""

    def discard(self, entry: JournalEntry) -> None:
        """A run on the notes that never landed: put back what else it had written."""

    def restore(self, journal: Journal, entry: JournalEntry, batch: Batch | None) -> JournalEntry:
        """Take one run back (a whole-file run through `journal.undo_file`), journaled as its
        undo (in `batch`, when several runs are taken back together)."""

    def blockers(self, entry: JournalEntry, graph: Graph | None) -> list[str]:
        """What changed since the run that keeps undo from taking it back; writes nothing."""

    def undone(self) -> None:
        """What the store does once an undo has written (Claude Code records what it sees)."""


class FileTarget:
    """The target of a store whose runs each replace one whole file: no run on its notes, so a
    pending entry of one never landed, and undo is the journal's file undo."""

    def files(self) -> list[Path]:
        return []

    def folders(self) -> list[Path]:
        return []

    def landed(self, entry: JournalEntry) -> bool | None:
        return False

    def discard(self, entry: JournalEntry) -> None:
        return None

    def restore(self, journal: Journal, entry: JournalEntry, batch: Batch | None) -> JournalEntry:
        return journal.undo_file(entry, batch)

    def undone(self) -> None:
        return None


class ProgramRuns(Protocol):
    """Runs the memory's own program made (memory-purifier's own), which `log` lists after
    ours: never read whole nor taken back here."""

    def headers(self) -> list[JournalHeader]:
        """Its runs, newest first."""

    def refused(self, run_id: str, asked: Literal["run", "undo"]) -> NuggetsError:
        """Why one of its runs is not shown whole (`run`) or taken back (`undo`)."""


class Journal:
    """The runs of one store, journaled in `home`'s `reflections/` (our small files beside it):
    `files`, the files its entries may name; `like`, the file whose owner the journal's files
    take; `notices`, the store's list of what to tell; `refusal`, the words of a store that
    writes no file of ours; `home_is_ours`, False when `home` is the memory's own folder (the
    Nuggets agent's home), which keeps its mode. Everything of ours is private
    (core/safeio/private.py)."""

    def __init__(
        self,
        home: Path,
        files: OwnFiles,
        like: Path,
        target: Target,
        notices: list[str],
        clock: Clock,
        program: ProgramRuns | None = None,
        refusal: str | None = None,
        keep: int = DEFAULT_KEEP,
        home_is_ours: bool = True,
        guard: Callable[[], str | None] | None = None,
    ) -> None:
        self.home, self.files, self.like, self.target = home, files, like, target
        self.keep = keep  # the newest runs the journal keeps
        self.notices, self.clock = notices, clock
        self.program, self.refusal = program, refusal
        self.home_is_ours = home_is_ours
        # Before each write: raises the store's refusal to write here, or names the home its
        # agent left that the run is written in (recorded on the entry), else None.
        self.guard = guard

    @property
    def folder(self) -> Path:
        return journal_dir(self.home)

    def lock(self) -> AbstractContextManager[None]:
        return self.target.lock()

    def may_write(self) -> None:
        if self.guard is not None:
            self.guard()

    def now(self) -> str:
        return to_iso(self.clock())

    # -- writing ------------------------------------------------------------------------------

    def commit(self, entry: JournalEntry, target: Path, write: Write) -> JournalEntry:
        """Journal `entry` ahead, then `write(on_landed)` `target`; the pending entry is
        committed when the write says it landed, or when it returns (call under the lock)."""
        left = self.guard() if self.guard is not None else None
        if left is not None:
            entry = entry.model_copy(update={"left_home": left})
        keep = self.keep
        made = [d for d in (self.home, self.folder) if not d.is_dir()]
        if self.home_is_ours:
            make_folder(self.home)
        pending = write_pending(self.home, entry, like=self.like)
        landed = False

        def record_landing() -> None:
            nonlocal landed
            if not landed:
                landed = True
                commit_pending(pending)

        try:
            write(record_landing)
            record_landing()  # a write that does not report its landing landed when it returned
        except UnsettledWriteError:
            raise  # it may have landed: settling decides
        except (StalePlanError, GraphError):
            if not landed:
                _take_back(pending, made)
            raise
        except OSError as exc:
            if not landed:  # the failure came before the target changed: say so, keep nothing
                _take_back(pending, made)
                raise GraphError(f"{target}: cannot be written: {exc.strerror or exc}") from None
            raise JournalError(
                f"{target} was written but journal entry {entry.run_id} could not be committed "
                f"({exc.strerror or exc}); it is settled the next time it is opened"
            ) from None
        prune(self.home, keep)
        return entry

    def replace(
        self,
        path: Path,
        before: str | None,
        after: str | None,
        base: str,
        kind: JournalKind,
        summary: str = "",
        undoes: str | None = None,
        promoted: list[PromotionEntry] | None = None,
        batch: Batch | None = None,
    ) -> JournalEntry:
        """Replace (`after` None: remove) one whole file of the store over the version with
        fingerprint `base`, journaled with both texts as one run (of `batch`), under the lock
        of its folder; refused before anything is written when it is no file of the store."""
        name = name_of(path, self.files)
        with directory_lock(path):
            self.notices += settle(path)
            entry = file_run(
                self.home, name, before, after, base, kind, self.now(), undoes, summary, promoted
            )
            if batch is not None:
                entry = batch.mark(entry)
            # Committed once the write returned, its swap file settled: a kill before that
            # leaves a pending entry, and settling it settles the file too.
            if after is None:
                return self.commit(entry, path, lambda _landing: remove_if_unchanged(path, base))
            data = after.encode("utf-8")
            return self.commit(
                entry,
                path,
                lambda _landing: replace_if_unchanged(path, data, base, None, self.notices),
            )

    def undo_file(
        self, entry: JournalEntry, batch: Batch | None = None, elsewhere: str = ""
    ) -> JournalEntry:
        """Put back the text a whole-file run replaced, if the file is as the run left it;
        `elsewhere`: what to add when it is not (where else the run may have written)."""
        path = own_file(entry.file_name or "", self.files).path
        with directory_lock(path):
            self.notices += settle(path)
            if current_fingerprint(path) != entry.result_fingerprint:
                raise NuggetsError(
                    f"cannot undo {entry.run_id}: {path} changed since"
                    f"{elsewhere}; nothing was restored"
                )
            return self.replace(
                path,
                entry.file_after,
                entry.file_before,
                entry.result_fingerprint,
                "undo",
                f"undid {entry.run_id}",
                undoes=entry.run_id,
                batch=batch,
            )

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """Replace a small file of ours beside the journal (read as `before`; None: absent)
        with `after`, journaled as a run of `kind` that undo takes back; refused as stale when
        the file changed since it was read."""
        if self.refusal is not None:
            raise NuggetsError(f"{summary or kind}: {self.refusal}")
        if self.home_is_ours:
            make_folder(path.parent)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        base = EMPTY_FINGERPRINT if before is None else fingerprint(before.encode("utf-8"))
        with self.lock():
            self.settle_leftovers()
            entry = self.replace(path, before, after, base, kind, summary)
        tighten(path)  # one an older version made wider
        return entry

    # -- reading ------------------------------------------------------------------------------

    def log(self, quiet: bool = False) -> list[JournalHeader]:
        """Our runs, newest first (a run of a batch says its place in it), then the memory's
        own program's; an entry that cannot be read is skipped and named in the notices
        (unless `quiet`: a look that comes back often, and leaves the naming to `log`)."""
        headers, skipped = read_headers(self.home, self.files)
        if not quiet:
            self.notices += skipped
        return with_places(headers) + (self.program.headers() if self.program else [])

    def run(self, run_id: str) -> JournalEntry:
        """One run whole, checked before it is trusted; its summary says its place in its
        batch, as `log` does."""
        self._refuse_program_run(run_id, "run")
        entry = read_entry(self.home, run_id, self.files)
        if entry.batch is None:
            return entry
        headers, _ = read_headers(self.home, self.files)
        batch = [h.run_id for h in reversed(headers) if h.batch == entry.batch]
        if len(batch) < 2 or run_id not in batch:
            return entry
        return entry.model_copy(update={"summary": entry.summary + place(batch, run_id)})

    def _refuse_program_run(self, run_id: str, asked: Literal["run", "undo"]) -> None:
        if self.program is not None and any(h.run_id == run_id for h in self.program.headers()):
            raise self.program.refused(run_id, asked)

    # -- taking back --------------------------------------------------------------------------

    def undo(self, run_id: str) -> JournalEntry:
        """Take a run back, with every run of its batch still in effect, newest first: all of
        them when none of what they wrote changed since, else none."""
        with self.lock():
            self.settle_leftovers()
            entries = self._together(run_id)
            done = (
                self.target.restore(self, entries[0], None)
                if len(entries) == 1
                else self._undo_batch(run_id, entries)
            )
            self.target.undone()
            return done

    def blockers(
        self,
        run_id: str,
        graph: Graph | None = None,
    ) -> tuple[JournalEntry, list[str]]:
        """The run, and what changed since that keeps undo from taking it back (for a batch,
        the files of all its runs); writes nothing. An error when the run is unknown or
        already undone."""
        entries = self._together(run_id)
        asked = next(e for e in entries if e.run_id == run_id)
        if len(entries) == 1:
            return asked, self.target.blockers(asked, graph)
        files = ", ".join(dict.fromkeys(e.file_name or "" for e in reversed(entries)))
        said = f"{asked.summary}; undone with the {len(entries)} runs written together ({files})"
        return asked.model_copy(update={"summary": said}), self._batch_blockers(entries, graph)

    def _together(self, run_id: str) -> list[JournalEntry]:
        """The run and the others of its batch still in effect, newest first, each read whole;
        an error when it is unknown or already undone."""
        self._refuse_program_run(run_id, "undo")
        entry = read_entry(self.home, run_id, self.files)
        if entry.left_home is not None and entry.left_home != os.path.abspath(self.home):
            raise NuggetsError(
                f"cannot undo {run_id}: it was written in {entry.left_home}, a copy its agent "
                "had left, and came here with the agent's copy of that folder: undo it there "
                "(with --force-home), nothing was restored"
            )
        headers = read_headers(self.home)[0]
        later = undone_by(headers, run_id)
        if later:
            raise NuggetsError(f"run {run_id} was already undone by {later}")
        together = undone_together(headers, run_id)
        return [
            entry if h.run_id == run_id else read_entry(self.home, h.run_id, self.files)
            for h in together
        ] or [entry]

    def _batch_blockers(self, entries: list[JournalEntry], graph: Graph | None) -> list[str]:
        """What changed since the runs (newest first) wrote it: for a file written twice,
        since the newest run."""
        names: set[str] = set()
        blocked = []
        for entry in entries:
            if entry.file_name not in names:
                names.add(entry.file_name or "")
                blocked += self.target.blockers(entry, graph)
        return blocked

    def _undo_batch(self, run_id: str, entries: list[JournalEntry]) -> JournalEntry:
        blocked = self._batch_blockers(entries, None)
        if blocked:
            raise NuggetsError(
                f"cannot undo {run_id}: {', '.join(blocked)} changed since; the "
                f"{len(entries)} runs written together are undone together, so "
                "nothing was restored"
            )
        batch = Batch()  # the undo is one operation too
        done: list[JournalEntry] = []
        for entry in entries:
            try:
                done.append(self.target.restore(self, entry, batch))
            except NuggetsError:  # written between the check and the write
                self.target.undone()
                if not done:
                    raise
                put_back = ", ".join(d.file_name or "" for d in done)
                raise NuggetsError(
                    f"cannot undo {run_id} whole: {entry.file_name} changed while it was being "
                    f"undone; {put_back} restored, the rest not (undo {done[0].run_id} "
                    "writes those back)"
                ) from None
        return undone_as_one(done)

    # -- settling -----------------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Settle what interrupted writes left (ours or another process's), under the lock;
        says what it did (also to the notices). Front ends do it when they open a memory
        (`Store.open`); every write does it first (`settle_leftovers`)."""
        if not self._has_leftovers():
            return []
        with self.lock():
            return self._settle()

    def settle_leftovers(self) -> None:
        """Settle what interrupted writes left, if anything (call under the lock)."""
        if self._has_leftovers():
            self._settle()

    def _has_leftovers(self) -> bool:
        try:
            return (
                has_pending(self.home)
                or has_temps(self.folder)
                or any(has_temps(folder) for folder in self.target.folders())
                or bool(with_leftovers(self.target.files()))
            )
        except OSError as exc:
            raise GraphError(f"{self.home}: cannot be searched: {exc.strerror or exc}") from None

    def _settle(self) -> list[str]:
        messages = remove_temp_files(self.home)
        for folder in self.target.folders():
            messages += remove_temps(folder, "an unfinished copy from an interrupted write")
        pending = pending_entries(self.home, self.files)
        # Decided while a write's swap file still tells whether it landed; done once the
        # leftovers beside every file a run writes are settled.
        decided = [(found, self._decide(found)) for found in pending]
        for path in self._written(pending):
            with directory_lock(path):
                messages += settle(path)
        messages += [self._conclude(found, *decision) for found, decision in decided]
        self.notices += messages
        return messages

    def _decide(self, pending: Pending) -> tuple[Outcome, str]:
        """Commit a pending entry exactly when its run landed, discard it when it never did;
        leave one that cannot be decided (or is not ours: not a regular file) and name it,
        rather than stop every command."""
        path, entry = pending.path, pending.entry
        if pending.foreign:
            return "leave", f"left {path.name} as it is: {pending.foreign}"
        if entry is None:
            return "discard", f"discarded journal entry {path.name}: it cannot be read"
        try:
            if entry.file_name is not None:
                target = own_file(entry.file_name, self.files).path
                landed = file_landed(target, entry.base_fingerprint, entry.result_fingerprint)
                changed = f"{target.name} changed since"
            else:
                landed = self.target.landed(entry)
                changed = "what its run wrote changed since, so whether it landed cannot be told"
        except (OSError, NuggetsError) as exc:
            return "leave", (
                f"left {path.name} as it is: cannot tell whether its run landed ({reason_of(exc)})"
            )
        if landed is None:
            return "leave", f"left {path.name} as it is: {changed}"
        if landed:
            return "commit", f"recovered journal entry {entry.run_id}: its run had landed"
        return "discard", f"discarded journal entry {entry.run_id}: its run never landed"

    def _conclude(self, pending: Pending, outcome: Outcome, said: str) -> str:
        path, entry = pending.path, pending.entry
        try:
            if outcome == "commit":
                commit_pending(path)
            elif outcome == "discard":
                if entry is not None and entry.file_name is None:
                    self.target.discard(entry)
                path.unlink(missing_ok=True)
        except (OSError, NuggetsError) as exc:
            return f"left {path.name} as it is: it cannot be settled ({reason_of(exc)})"
        return said

    def _written(self, pending: list[Pending]) -> list[Path]:
        """The files whose leftovers settling clears: the store's, and those pending entries
        name; each once, those whose folder is not there left out."""
        paths = list(self.target.files())
        for found in pending:
            if found.entry is None or found.foreign:
                continue
            for name in named_files(found.entry):
                with contextlib.suppress(OSError, NuggetsError):
                    paths.append(own_file(name, self.files).path)
        unique: dict[str, Path] = {}
        for path in paths:
            unique.setdefault(os.path.abspath(path), path)
        # only those with something to settle: each folder listed once, not once a file
        return with_leftovers(path for path in unique.values() if path.parent.is_dir())


def _take_back(pending: Path, made: list[Path]) -> None:
    """A run that never landed leaves nothing: its pending entry, and the folders writing it
    made (only while empty: another run's entry is never removed with them)."""
    with contextlib.suppress(OSError):
        pending.unlink()
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()


def undone_as_one(done: list[JournalEntry]) -> JournalEntry:
    """The runs of one undo of a batch as one result: the files put back, as the notes
    restored (what the front ends count), under the first undo run's id (the batch's)."""
    names = list(dict.fromkeys(d.file_name or "" for d in done))
    return done[0].model_copy(
        update={
            "file_name": None,
            "after": {n: {"id": n, "title": n} for n in names},
            "summary": f"undid {len(done)} runs written together: {', '.join(names)}",
        }
    )
