"""Restoring a rejected or deferred candidate (docs/PURIFIER.md, "Restoring a candidate"): its
text goes into a source file of the workspace the operator picks, as a journaled run of ours
that `undo` takes back (core/journal/journal.py), never into the purifier's own files.
The purifier reads it again on its next reconciliation."""

from __future__ import annotations

import difflib
import os
import stat
from pathlib import Path

from core.errors import NuggetsError
from core.journal.own_files import OwnFile, plain_name
from core.models import RawNote
from core.safeio.open_regular import MEMORY_MD_BYTES, kind_name, read_regular

# The source files its source contract reads (episodes/*.md besides): a candidate goes back
# into one of them, never into a view or an artifact.
SOURCE_FILES = ("MEMORY.md", "RTMEMORY.md", "PROCEDURES.md", "CHRONICLES.md", "DREAMS.md")
RESTORABLE = ("rejected", "deferred")


class SourceFiles:
    """The workspace's source files, by their name in the workspace (`episodes/x.md`)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = Path(os.path.abspath(workspace))

    def named(self, name: str) -> OwnFile | None:
        parts = name.split("/")
        if all(plain_name(part) for part in parts) and _is_source(parts):
            return OwnFile(name, self.workspace.joinpath(*parts), self.workspace)
        return None

    def at(self, path: Path) -> OwnFile | None:
        try:
            relative = path.relative_to(self.workspace)
        except ValueError:
            return None
        return self.named("/".join(relative.parts))


def _is_source(parts: list[str]) -> bool:
    if len(parts) == 1:
        return parts[0] in SOURCE_FILES
    return len(parts) == 2 and parts[0] == "episodes" and parts[1].endswith(".md")


def target(workspace: Path, into: Path) -> Path:
    """The source file named (relative to the workspace, or a path into it); a one-line
    error for any other file."""
    path = into if into.is_absolute() else workspace / into
    path = Path(os.path.abspath(path))
    if SourceFiles(workspace).at(path) is None:
        raise NuggetsError(
            f"{into}: not a source file of the workspace (one of "
            f"{', '.join(SOURCE_FILES)} or episodes/*.md); nothing was written"
        )
    _refuse_links(Path(os.path.abspath(workspace)), path)
    return path


def _refuse_links(workspace: Path, path: Path) -> None:
    """A source file (or its episodes/ folder) that is a symbolic link, or not a regular file,
    is refused: a write through it would land in whatever it points at (a purifier's
    artifact, a file outside)."""
    step = workspace
    for part in path.relative_to(workspace).parts:
        step = step / part
        try:
            info = step.lstat()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise NuggetsError(
                f"{step}: cannot be read ({exc.strerror}); nothing was written"
            ) from None
        last = step == path
        if stat.S_ISLNK(info.st_mode) or (last and not stat.S_ISREG(info.st_mode)):
            raise NuggetsError(
                f"{step}: is {kind_name(info.st_mode)}; a candidate is restored only into a "
                "regular source file of the workspace, never through a link; nothing was written"
            )


def _unreadable(path: Path, exc: OSError) -> NuggetsError:
    return NuggetsError(f"{path}: cannot be read ({exc.strerror or exc}); nothing was written")


def candidates(notes: dict[str, RawNote], note_ids: list[str]) -> list[RawNote]:
    """The rejected or deferred candidates named, in order; a one-line error otherwise."""
    found = []
    for note_id in note_ids:
        note = notes.get(note_id)
        if note is None:
            raise NuggetsError(f"{note_id}: no such claim or candidate; nothing was written")
        if note.get("nuggetName") not in RESTORABLE:
            raise NuggetsError(
                f"{note_id}: not a rejected or deferred candidate (only those "
                "are restored into a source file); nothing was written"
            )
        found.append(note)
    return found


def current_text(path: Path) -> str | None:
    """The source file's text now (None: not there yet); a link or a special file is refused
    (target), never read through."""
    try:
        data = read_regular(path, MEMORY_MD_BYTES, follow=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise NuggetsError(
            f"{path}: cannot be read ({exc.strerror}); nothing was written"
        ) from None
    return data.decode("utf-8")


def restored_text(before: str | None, notes: list[RawNote]) -> str:
    """The file with each candidate's text appended as its own paragraph."""
    text = before or ""
    for note in notes:
        body = str(note.get("content") or "").strip()
        if text and not text.endswith("\n"):
            text += "\n"
        text += ("\n" if text.strip() else "") + body + "\n"
    return text


def diff_lines(name: str, before: str | None, after: str) -> list[str]:
    return list(
        difflib.unified_diff(
            (before or "").splitlines(), after.splitlines(), f"a/{name}", f"b/{name}", lineterm=""
        )
    )
