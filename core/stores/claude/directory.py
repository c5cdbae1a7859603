"""Reading a Claude Code memory directory: MEMORY.md and the topic files beside it, regular
files of bounded size only; never written here."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import GraphError
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular


@dataclass
class Files:
    data: dict[str, bytes] = field(default_factory=dict)  # file name -> its bytes
    mtimes: dict[str, float] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def read_files(directory: Path) -> Files:
    """Every `*.md` file directly in the directory (MEMORY.md among them)."""
    found = Files()
    try:
        names = sorted(entry.name for entry in os.scandir(directory)
                       if entry.name.endswith(".md") and not entry.name.startswith("."))
    except OSError:
        return found
    for name in names:
        path = directory / name
        try:
            found.data[name] = read_regular(path, MEMORY_MD_BYTES)
            found.mtimes[name] = path.stat().st_mtime
        except (GraphError, OSError) as exc:
            found.notices.append(f"{name}: not read ({exc})")
    return found


def text_of(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
