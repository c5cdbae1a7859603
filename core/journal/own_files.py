"""The files a store writes besides its notes, and how a journal entry names them.

An entry names each file its run wrote relative to the memory it belongs to, never by where the
file happened to be: MEMORY.md by its role (the store's MEMORY.md when the entry is read), our
own small files (conflicts-settled.json) and the agent's fact files by their name inside the
home, MicroClaw's AGENTS.md files by their place under the data dir's scope folders
(`groups/...`). Reading an entry resolves every name through its store (`OwnFiles`): a name that
is none of the store's files (a path elsewhere, `..`, a name the store never writes, or a file
whose symlinks lead out of the folder it belongs in) makes the entry refused, so an edited entry
can never make an undo write anywhere else (docs/RUNS.md, "The journal").

Entries written before names existed hold the file's path, usually absolute: such a path is
accepted when it is exactly where the store's file is today.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from core.errors import NuggetsError

_SHOWN = 80  # characters of a name quoted back


@dataclass(frozen=True)
class OwnFile:
    """One file a store writes: its name in journal entries, where it is now, and the folder
    it must stay inside once symlinks are followed (None: wherever the operator put it, as
    MEMORY.md, which is written through a symlink)."""

    name: str
    path: Path
    folder: Path | None


class OwnFiles(Protocol):
    """A store's files, by the name entries give them and by where they are."""

    def named(self, name: str) -> OwnFile | None:
        """The file an entry names `name` (None: no file of this store is so named)."""

    def at(self, path: Path) -> OwnFile | None:
        """The store's file at this absolute, normalized path (None: not one of them)."""


class OwnFileError(NuggetsError):
    """A journal entry names a file its store never writes."""


def shown(name: str) -> str:
    return repr(name[:_SHOWN]) + ("…" if len(name) > _SHOWN else "")


def own_file(name: str, files: OwnFiles) -> OwnFile:
    """The store's file an entry names (a name, or an old entry's path); OwnFileError saying
    why otherwise."""
    if not name or "\0" in name:
        raise OwnFileError(f"it names {shown(name)}, not a file name")
    found = files.named(name) or files.at(Path(os.path.abspath(name)))
    if found is None:
        raise OwnFileError(f"it names {shown(name)}, which is not a file this memory writes")
    if _escapes(found):
        raise OwnFileError(
            f"it names {shown(name)}, which leads out of {found.folder} (a symbolic link)"
        )
    return found


def _escapes(file: OwnFile) -> bool:
    """Whether the file, symlinks followed, is outside the folder it belongs in."""
    if file.folder is None:
        return False
    real, root = os.path.realpath(file.path), os.path.realpath(file.folder)
    return os.path.commonpath([real, root]) != root or real == root


def plain_name(part: str) -> bool:
    """A path component that stays one directory level (no separators, no dot names)."""
    return (
        bool(part)
        and "/" not in part
        and "\\" not in part
        and part not in (".", "..")
        and "\0" not in part
    )


def name_of(path: Path, files: OwnFiles) -> str:
    """The name an entry gives the store's file at `path`; OwnFileError when the store does
    not write that file (a write there is refused before anything is written)."""
    found = files.at(Path(os.path.abspath(path)))
    if found is None or _escapes(found):
        raise OwnFileError(
            f"{path}: not a file this memory writes (or a symbolic link out of "
            "its folder); nothing was written"
        )
    return found.name


class _NoFiles:
    """A store that writes no file besides its notes."""

    def named(self, name: str) -> OwnFile | None:
        return None

    def at(self, path: Path) -> OwnFile | None:
        return None


NO_FILES: OwnFiles = _NoFiles()
