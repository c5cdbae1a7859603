"""The journaled write, written once for every store: the run's journal entry is written ahead,
then the write; the pending entry becomes the run's journal entry exactly when the write lands,
and an interruption at any step is settled from what is on disk (docs/RUNS.md). A run that
replaces one whole file (MEMORY.md, an AGENTS.md, a small file of ours) and its undo are here
too, the same for every store."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from core.errors import (
    GraphError,
    JournalError,
    NuggetsError,
    StalePlanError,
    UnsettledWriteError,
)
from core.journal.entries import (
    Pending,
    commit_pending,
    file_run,
    prune,
    write_pending,
)
from core.journal.guarded_write import (
    directory_lock,
    file_landed,
    remove_if_unchanged,
    replace_if_unchanged,
    settle,
)
from core.journal.own_files import OwnFiles, name_of, own_file
from core.models import JournalEntry, JournalKind, PromotionEntry
from core.notes.snapshot import current_fingerprint
from core.settings import DEFAULT_KEEP

Landing = Callable[[], None]  # called by a write the moment it lands


def land(journal_home: Path, entry: JournalEntry, target: Path, like: Path,
         write: Callable[[Landing], object], keep: int = DEFAULT_KEEP) -> JournalEntry:
    """Journal `entry` ahead (its file's mode and owner like `like`), then `write(on_landed)`
    `target`; the pending entry is committed when the write says it landed, or when it returns.
    Then the journal keeps the newest `keep` runs (the settings' journal_keep)."""
    pending = write_pending(journal_home, entry, like=like)
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
            pending.unlink(missing_ok=True)
        raise
    except OSError as exc:
        if not landed:  # the failure came before the target changed: say so, keep nothing
            with contextlib.suppress(OSError):
                pending.unlink()
            raise GraphError(f"{target}: cannot be written: {exc.strerror or exc}") from None
        raise JournalError(
            f"{target} was written but journal entry {entry.run_id} could not be committed "
            f"({exc.strerror or exc}); it is settled the next time it is opened") from None
    prune(journal_home, keep)
    return entry


class Batch:
    """Runs one operation writes together (one apply, one unhide, one undo of those): each
    entry's `batch` is the first one's run id, and undo takes them back together."""

    def __init__(self) -> None:
        self.id: str | None = None

    def mark(self, entry: JournalEntry) -> JournalEntry:
        self.id = self.id or entry.run_id
        return entry.model_copy(update={"batch": self.id})


class FileRuns:
    """Runs that replace one whole file of a store, journaled in its journal: the store's
    journal directory, the files it may name, the file its journal entries are made like, the
    list its notices go to, the batch its runs belong to (None: each run on its own), and how
    many runs the journal keeps."""

    def __init__(self, journal_home: Path, files: OwnFiles, like: Path,
                 notices: list[str], batch: Batch | None = None, keep: int = DEFAULT_KEEP) -> None:
        self.journal_home, self.files, self.like, self.notices = journal_home, files, like, notices
        self.batch, self.keep = batch, keep

    def write(self, path: Path, before: str | None, after: str | None, base: str,
              kind: JournalKind, at: str, undoes: str | None = None, summary: str = "",
              promoted: list[PromotionEntry] | None = None) -> JournalEntry:
        """Replace (or, `after` None, remove) `path` over the version with fingerprint `base`,
        journaled with both texts (call under its lock)."""
        entry = file_run(self.journal_home, name_of(path, self.files), before, after, base, kind,
                         at, undoes, summary, promoted)
        if self.batch is not None:
            entry = self.batch.mark(entry)
        # The entry is committed once the write returned, its swap file settled: a kill before
        # that leaves a pending entry, and settling it settles the file too (a store need not
        # look for leftovers beside every file it may write).
        if after is None:
            return land(self.journal_home, entry, path, self.like,
                        lambda _landing: remove_if_unchanged(path, base), self.keep)
        data = after.encode("utf-8")
        return land(self.journal_home, entry, path, self.like,
                    lambda _landing: replace_if_unchanged(path, data, base, None, self.notices),
                    self.keep)

    def undo(self, entry: JournalEntry, at: str, elsewhere: str = "") -> JournalEntry:
        """Put back the text a file run replaced, if the file is as the run left it;
        `elsewhere`: what to add when it is not (where else the run may have written)."""
        path = own_file(entry.file_name or "", self.files).path
        with directory_lock(path):
            self.notices += settle(path)
            if current_fingerprint(path) != entry.result_fingerprint:
                raise NuggetsError(f"cannot undo {entry.run_id}: {path} changed since"
                                   f"{elsewhere}; nothing was restored")
            return self.write(path, entry.file_after, entry.file_before,
                              entry.result_fingerprint, "undo", at, undoes=entry.run_id,
                              summary=f"undid {entry.run_id}")


def settle_file_run(pending: Pending, files: OwnFiles) -> str:
    """Decide a pending entry of a `FileRuns` run left by a kill: committed exactly when its
    file landed, discarded when it never did; left as it is (and named) when that cannot be
    told (a file changed since, or unreadable) or the entry is not ours. The message says
    which."""
    path, entry = pending.path, pending.entry
    if pending.foreign:
        return f"left {path.name} as it is: {pending.foreign}"
    if entry is None:
        path.unlink(missing_ok=True)
        return f"discarded journal entry {path.name}: it cannot be read"
    try:
        target = own_file(entry.file_name or "", files).path
        landed = file_landed(target, entry.base_fingerprint, entry.result_fingerprint)
    except (OSError, NuggetsError) as exc:
        return f"left {path.name} as it is: cannot tell whether its run landed ({exc})"
    if landed is None:
        return f"left {path.name} as it is: {target.name} changed since"
    if landed:
        commit_pending(path)
        return f"recovered journal entry {entry.run_id}: its run had landed"
    path.unlink(missing_ok=True)
    return f"discarded journal entry {entry.run_id}: its run never landed"
