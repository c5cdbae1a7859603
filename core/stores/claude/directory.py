"""Reading a Claude Code memory directory: MEMORY.md and the topic files beside it and in its
subfolders (the files Claude Code reads as memory: docs/CLAUDE_CODE.md, "Which files"), regular
files of bounded size only; never written here.

A symbolic link in the directory (to a file or a folder) is never followed: its target may be
anything the user can read (`~/.ssh/id_rsa`), and what we read is shown and kept. It is listed
by its name and where it points, as text, and nothing behind it is opened."""

from __future__ import annotations

import contextlib
import os
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import GraphError
from core.safeio.inert_text import one_line as inert
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular
from core.stores.claude.paths import INDEX

SKIPPED_FOLDERS = ("logs", "sessions", "proposals")  # at the top level: not memory
TEAM = "team"  # at the top level: its files are memory, its folders are not


@dataclass
class Files:
    data: dict[str, bytes] = field(default_factory=dict)  # path in the directory -> its bytes
    mtimes: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)  # a link's path -> where it points
    # a file there but not read (too large, no permission): never taken for deleted
    unread: dict[str, str] = field(default_factory=dict)  # its path -> why, in words


def folder_key(name: str) -> str:
    """A top-level folder's name as Claude Code compares it: NFC, lower case, trailing dots and
    spaces dropped (`Logs./` is `logs`)."""
    return unicodedata.normalize("NFC", name).lower().rstrip(". ")


def is_memory_path(name: str) -> bool:
    """Whether a path in the directory (`/`-separated) is a file Claude Code reads as memory,
    MEMORY.md at the top included: a `.md` file, no part starting with a dot, no MEMORY.md in a
    folder, not under a top-level logs/, sessions/ or proposals/, and in team/ only directly."""
    parts = name.split("/")
    if not name.endswith(".md") or any(not p or p.startswith(".") for p in parts):
        return False
    if len(parts) == 1:
        return True
    top = folder_key(parts[0])
    return parts[-1] != INDEX and top not in SKIPPED_FOLDERS and (top != TEAM or len(parts) == 2)


def _descends(prefix: str, name: str) -> bool:
    """Whether a folder of the directory is walked into (`prefix`: the path it is in)."""
    if not prefix:
        return folder_key(name) not in SKIPPED_FOLDERS
    return folder_key(prefix.split("/", 1)[0]) != TEAM


def walk(directory: Path, found: Files | None = None) -> tuple[list[str], Files]:
    """The memory files' paths in the directory, its subfolders included (never through a
    link), and its links by path; what cannot be listed said in the Files' notices."""
    found = found if found is not None else Files()
    names: list[str] = []
    folders = [("", directory)]
    while folders:
        prefix, folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = [e for e in listing if not e.name.startswith(".")]
        except OSError as exc:
            if prefix:
                found.notices.append(f"{prefix}: not read ({exc.strerror or exc})")
            continue
        for entry in entries:
            path = prefix + entry.name
            if entry.is_symlink():
                found.links[path] = _pointed_at(folder / entry.name)
                with contextlib.suppress(OSError):
                    found.mtimes[path] = entry.stat(follow_symlinks=False).st_mtime
            elif entry.is_dir(follow_symlinks=False):
                if _descends(prefix, entry.name):
                    folders.append((path + "/", folder / entry.name))
            elif is_memory_path(path):
                names.append(path)
    return sorted(names), found


def read_files(directory: Path) -> Files:
    """Every memory file of the directory (MEMORY.md among them, and the files in its
    subfolders), by its path in it."""
    names, found = walk(directory)
    for name in names:
        path = directory / name
        try:
            found.data[name] = read_regular(path, MEMORY_MD_BYTES, follow=False)
            found.mtimes[name] = path.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:
            continue  # removed while the directory was read: gone, as it is
        except (GraphError, OSError) as exc:
            found.unread[name] = _why(path, exc)
            with contextlib.suppress(OSError):
                found.mtimes[name] = path.stat(follow_symlinks=False).st_mtime
            found.notices.append(f"{path}: not read ({found.unread[name]})")
    return found


def _why(path: Path, exc: Exception) -> str:
    """Why a file was not read, without its path (the message names it)."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc).removeprefix(f"{path}: ").removeprefix("is ")


def _pointed_at(path: Path) -> str:
    """Where a link points, as the link says it (never resolved), inert."""
    try:
        return inert(os.readlink(path))
    except OSError as exc:
        return f"(unreadable: {exc.strerror or exc})"


def text_of(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
