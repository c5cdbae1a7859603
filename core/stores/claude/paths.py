"""Where a Claude Code memory directory is, and where our record of it lives
(docs/CLAUDE_CODE.md, "Which directory")."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from core.promotion.claude_folder import folder_name, memory_folder
from core.settings import DEFAULTS, Settings

INDEX = "MEMORY.md"
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def project_folder_name(base: Path) -> str:
    """A path as Claude Code names a project's folder after it (core/promotion/claude_folder.py)."""
    return folder_name(str(base))


def resolve_directory(chosen: Path | None, settings: Settings = DEFAULTS) -> Path:
    """The directory named, else the one Claude Code uses for the current working directory."""
    return chosen.expanduser() if chosen is not None else memory_folder(settings).path


def record_home(directory: Path, data: Path) -> Path:
    """Our files for this directory (journal, what was seen), outside it: under our data
    directory `data` (the settings' data_home), in a folder named after the directory's path
    (and a hash, as names can meet)."""
    absolute = str(Path(os.path.abspath(directory)))
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    tail = _NOT_ALNUM.sub("-", absolute)[-80:].lstrip("-")  # as it always was: the record stays
    return data / "claude" / f"{tail}-{digest}"
