"""Where a Claude Code memory directory is, and where our record of it lives
(docs/CLAUDE_CODE.md)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

PROJECTS = Path("~/.claude/projects")
INDEX = "MEMORY.md"
# Claude Code names a project's folder after the working directory's absolute path, every
# character that is not an ASCII letter or digit written as "-" (runs are not collapsed).
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def project_folder_name(cwd: Path) -> str:
    return _NOT_ALNUM.sub("-", str(cwd))


def default_directory(cwd: Path | None = None) -> Path:
    """The memory directory Claude Code uses for `cwd` (default: the current directory)."""
    where = Path(os.path.abspath(cwd or Path.cwd()))
    return PROJECTS.expanduser() / project_folder_name(where) / "memory"


def resolve_directory(chosen: Path | None) -> Path:
    """The directory named, else the one for the current working directory."""
    return chosen.expanduser() if chosen is not None else default_directory()


def record_home(directory: Path, data: Path) -> Path:
    """Our files for this directory (journal, what was seen), outside it: under our data
    directory `data` (the settings' data_home), in a folder named after the directory's path
    (and a hash, as names can meet)."""
    absolute = str(Path(os.path.abspath(directory)))
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    tail = project_folder_name(Path(absolute))[-80:].lstrip("-")
    return data / "claude" / f"{tail}-{digest}"
