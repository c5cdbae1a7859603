"""Reading a Claude Code memory directory: MEMORY.md and the topic files beside it, regular
files of bounded size only; never written here.

A symbolic link in the directory (to a file or a folder) is never followed: its target may be
anything the user can read (`~/.ssh/id_rsa`), and what we read is shown and kept. It is listed
by its name and where it points, as text, and nothing behind it is opened."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import GraphError
from core.safeio.inert_text import one_line as inert
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular


@dataclass
class Files:
    data: dict[str, bytes] = field(default_factory=dict)  # file name -> its bytes
    mtimes: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)  # a link's name -> where it points
    # a file there but not read (too large, no permission): never taken for deleted
    unread: dict[str, str] = field(default_factory=dict)  # its name -> why, in words


def read_files(directory: Path) -> Files:
    """Every `*.md` file directly in the directory (MEMORY.md among them)."""
    found = Files()
    try:
        entries = [e for e in os.scandir(directory) if not e.name.startswith(".")]
    except OSError:
        return found
    names = sorted(e.name for e in entries if e.name.endswith(".md") and not e.is_symlink())
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.is_symlink():
            found.links[entry.name] = _pointed_at(directory / entry.name)
            with contextlib.suppress(OSError):
                found.mtimes[entry.name] = entry.stat(follow_symlinks=False).st_mtime
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
