"""Our own journal for a memory-purifier workspace: the operator's decisions the purifier has no
input for (a contradiction's "both stand", a claim "reviewed" or "disputed"), kept in small files
of ours (conflicts-settled.json, note-marks.json) and journaled like any run of ours, undoable
(the one journal, core/journal/journal.py, over `ReviewTarget`).

It lives in our data directory (core/data_dirs.py), one folder per workspace, never inside the
workspace: the purifier's files are never written (docs/PURIFIER.md, "Our marks")."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

from core.journal.guarded_write import directory_lock
from core.journal.journal import FileTarget
from core.journal.own_files import OwnFile, OwnFiles, own_file
from core.models import JournalEntry
from core.notes.snapshot import Graph, current_fingerprint
from core.review.decisions import SETTLED_FILE
from core.review.marks import MARKS_FILE

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


class ReviewTarget(FileTarget):
    """What our journal for a workspace writes: each run replaces one whole file, one of
    ours beside the journal or a source file a restore writes into. Our folder is made on
    first use; until then there is nothing to lock."""

    def __init__(self, home: Path, files: OwnFiles) -> None:
        self.home, self.own = home, files

    def lock(self) -> contextlib.AbstractContextManager[None]:
        if not self.home.is_dir():
            return contextlib.nullcontext()
        return directory_lock(self.home / MARKS_FILE)  # our folder: re-entrant in a thread

    def files(self) -> list[Path]:
        return [self.home / name for name in OUR_FILES]

    def blockers(self, entry: JournalEntry, graph: Graph | None) -> list[str]:
        path = own_file(entry.file_name or "", self.own).path
        changed = current_fingerprint(path) != entry.result_fingerprint
        return [f"{path.name} (changed since)"] if changed else []
