"""Our own journal for a memory-purifier workspace: the operator's decisions the purifier has no
input for (a contradiction's "both stand", a claim "reviewed" or "disputed"), kept in small files
of ours (conflicts-settled.json, note-marks.json) and journaled like any run of ours, undoable.

It lives in our data directory (core/data_dirs.py), one folder per workspace, never inside the
workspace: the purifier's files are never written (docs/PURIFIER.md, "Our marks")."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

from core.clock import Clock, to_iso
from core.errors import NuggetsError
from core.journal.entries import (
    JournalHeader,
    Pending,
    pending_entries,
    read_entry,
    read_headers,
    remove_temp_files,
)
from core.journal.guarded_write import directory_lock, settle
from core.journal.history import undone_by
from core.journal.journaled_write import FileRuns, settle_file_run
from core.journal.own_files import OwnFile, OwnFiles, own_file
from core.models import JournalEntry, JournalKind
from core.notes.snapshot import EMPTY_FINGERPRINT, current_fingerprint, fingerprint
from core.review.decisions import SETTLED_FILE
from core.review.marks import MARKS_FILE
from core.settings import DEFAULT_KEEP

OUR_FILES = (SETTLED_FILE, MARKS_FILE)


def review_home(workspace: Path, data: Path) -> Path:
    """Our folder for this workspace: `<data>/purifier/<name>-<hash of its real path>`, `data`
    our data directory (the settings' data_home)."""
    real = os.path.realpath(workspace.expanduser())
    name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(real).name)[:40] or "workspace"
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return data / "purifier" / f"{name}-{digest}"


class ReviewFiles:
    """The files an entry may name: the two small files of ours beside the journal, and the
    workspace's files a restore writes (`workspace`: their resolver, restore.SourceFiles)."""

    def __init__(self, home: Path, workspace: OwnFiles | None = None) -> None:
        self.home, self.workspace = home, workspace

    def named(self, name: str) -> OwnFile | None:
        if name in OUR_FILES:
            return OwnFile(name, self.home / name, self.home)
        return self.workspace.named(name) if self.workspace is not None else None

    def at(self, path: Path) -> OwnFile | None:
        if path.parent == Path(os.path.abspath(self.home)):
            return self.named(path.name) if path.name in OUR_FILES else None
        return self.workspace.at(path) if self.workspace is not None else None


class ReviewJournal:
    """Runs that replace one of our small files, or restore into a workspace file, journaled in
    our folder for the workspace, which keeps its newest `keep` runs."""

    def __init__(self, home: Path, clock: Clock, notices: list[str],
                 workspace: OwnFiles | None = None, keep: int = DEFAULT_KEEP) -> None:
        self.home, self.clock, self.notices, self.keep = home, clock, notices, keep
        self.files = ReviewFiles(home, workspace)

    def _runs(self) -> FileRuns:
        return FileRuns(self.home, self.files, self.home, self.notices, keep=self.keep)

    def write_file(self, path: Path, before: str | None, after: str, kind: JournalKind,
                   summary: str) -> JournalEntry:
        self.home.mkdir(parents=True, exist_ok=True)  # the folder is ours: made on first use
        base = EMPTY_FINGERPRINT if before is None else fingerprint(before.encode("utf-8"))
        with directory_lock(path):
            self.recover()
            self.notices += settle(path)
            return self._runs().write(path, before, after, base, kind, to_iso(self.clock()),
                                      summary=summary)

    def write_over(self, path: Path, before: str | None, after: str, base: str,
                   kind: JournalKind, summary: str) -> JournalEntry:
        """Replace a file over the version with fingerprint `base` (call under its lock)."""
        self.home.mkdir(parents=True, exist_ok=True)
        return self._runs().write(path, before, after, base, kind, to_iso(self.clock()),
                                  summary=summary)

    def log(self) -> list[JournalHeader]:
        if not self.home.is_dir():
            return []
        headers, skipped = read_headers(self.home, self.files)
        self.notices += skipped
        return headers

    def run(self, run_id: str) -> JournalEntry:
        return read_entry(self.home, run_id, self.files)

    def undoable(self, run_id: str) -> JournalEntry:
        entry = self.run(run_id)
        later = undone_by(read_headers(self.home)[0], run_id)
        if later:
            raise NuggetsError(f"run {run_id} was already undone by {later}")
        return entry

    def undo_blockers(self, run_id: str) -> tuple[JournalEntry, list[str]]:
        entry = self.undoable(run_id)
        path = own_file(entry.file_name or "", self.files).path
        changed = current_fingerprint(path) != entry.result_fingerprint
        return entry, [f"{path.name} (changed since)"] if changed else []

    def undo(self, run_id: str) -> JournalEntry:
        entry = self.undoable(run_id)
        return self._runs().undo(entry, to_iso(self.clock()))

    def recover(self) -> list[str]:
        """Settle what an interrupted run left: a pending entry becomes the run's entry
        exactly when its file landed."""
        if not self.home.is_dir():
            return []
        with directory_lock(self.home / MARKS_FILE):  # our folder: re-entrant in a thread
            messages = remove_temp_files(self.home)
            messages += [self._settled(p) for p in pending_entries(self.home, self.files)]
        self.notices += messages
        return messages

    def _settled(self, pending: Pending) -> str:
        entry = pending.entry
        if entry is not None and not pending.foreign:  # its leftovers first, as a write would
            with contextlib.suppress(OSError, NuggetsError):
                self.notices += settle(own_file(entry.file_name or "", self.files).path)
        return settle_file_run(pending, self.files)
