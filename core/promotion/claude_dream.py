"""Whether Claude Code's consolidation ("the dream") holds a memory folder now
(docs/CLAUDE_CODE.md, "The dream"): it writes its process id into `.consolidate-lock` and holds
the folder while the file's mtime is under an hour old and that process is alive. Every writer
of ours into such a folder asks here first — the Claude Code store's apply, unhide and undo, and
promotion into the folder and its undo — so nothing of ours is written under a dream.

`holder` decides (pure, the clock and the process check given); `read_lock` reads."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.errors import NuggetsError
from core.safeio.open_regular import read_regular

LOCK = ".consolidate-lock"
HELD_FOR = timedelta(hours=1)
POLL_SECONDS = 1.0
_PID = re.compile(r"[+-]?\d+")  # the leading number, as Claude Code parses the lock's text
_LOCK_BYTES = 4096


class DreamingError(NuggetsError):
    """The directory is being consolidated by Claude Code: nothing is written under it."""


def holder(text: str, mtime: datetime, now: datetime, alive: Callable[[int], bool]) -> int | None:
    """The process holding the lock, None when it is not held: the lock younger than an hour
    and its process alive (Claude Code's own test)."""
    found = _PID.match(text.strip())
    if found is None or now - mtime >= HELD_FOR:
        return None
    pid = int(found.group())
    return pid if pid > 1 and alive(pid) else None


def alive(pid: int) -> bool:
    """Whether the process runs (another user's counts as not, as for Claude Code)."""
    try:
        os.kill(pid, 0)
    except (OSError, OverflowError):
        return False
    return True


def read_lock(directory: Path) -> tuple[str, datetime] | None:
    """The lock's text and mtime (None: no lock); never read through a link."""
    path = directory / LOCK
    try:
        mtime = datetime.fromtimestamp(path.stat(follow_symlinks=False).st_mtime, UTC)
    except OSError:
        return None
    try:
        text = read_regular(path, _LOCK_BYTES, follow=False).decode("utf-8", "replace")
    except (OSError, NuggetsError):
        text = ""  # names no process; its mtime still marks the last dream
    return text, mtime


def lock_holder(directory: Path, now: datetime) -> int | None:
    """The dreaming process that holds the folder now (None: no dream holds it)."""
    lock = read_lock(directory)
    return None if lock is None else holder(*lock, now, alive)


def wait_out(
    directory: Path,
    clock: Callable[[], datetime],
    wait: int,
    what: str,
    sleep: Callable[[float], None],
) -> None:
    """Return once no dream holds the directory, looking again each second for up to `wait`
    seconds (0: not at all); DreamingError, one line, when one still does."""
    for _ in range(wait):
        if lock_holder(directory, clock()) is None:
            return
        sleep(POLL_SECONDS)
    pid = lock_holder(directory, clock())
    if pid is not None:
        waited = f" after waiting {wait} s" if wait else ""
        raise DreamingError(
            f"{directory}: Claude Code is consolidating this memory (process "
            f"{pid} holds {LOCK}){waited}; nothing was {what}. Try again when it is "
            "done, or set NUGGETS_DREAM_WAIT to wait for it"
        )
