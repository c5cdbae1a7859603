"""A text file read to be shown, never to be written: its text, or why it cannot be shown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.errors import FileKindError, reason_of
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular


@dataclass(frozen=True)
class ShownFile:
    path: Path
    text: str | None  # None: absent or unreadable (see problem)
    problem: str | None = None


def read_shown(path: Path, limit: int = MEMORY_MD_BYTES) -> ShownFile:
    """The file's text (bytes that are not UTF-8 shown as replacement characters)."""
    try:
        data = read_regular(path, limit)
    except FileNotFoundError:
        return ShownFile(path, None, "no such file")
    except (OSError, FileKindError) as exc:
        return ShownFile(path, None, reason_of(exc))
    return ShownFile(path, data.decode("utf-8", errors="replace"))
