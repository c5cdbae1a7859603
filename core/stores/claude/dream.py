"""Claude Code's consolidation ("the dream") as the review sees it (docs/CLAUDE_CODE.md, "The
dream"): while it runs it holds `.consolidate-lock` in the memory directory, and it writes,
edits and removes topic files; we write nothing then. The lock's text is the dreaming process's
id, its mtime when the last dream started: held while that is under an hour old and the process
is alive. A dream is due once 24 hours have passed since the last one and 5 sessions have
been saved since (Claude Code counts the session transcripts of the project's folder).

`dream_state` decides (pure, the clock and the process check given); `read_dream` reads."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.clock import shown_time
from core.promotion import claude_dream
from core.promotion.claude_dream import LOCK as LOCK
from core.promotion.claude_dream import DreamingError as DreamingError
from core.promotion.claude_dream import alive, holder, read_lock

EVERY = timedelta(hours=24)
SESSIONS = 5
_SESSION = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl", re.I)
pause = time.sleep  # how a write waits a second for the dream (a test's own, in tests)


@dataclass(frozen=True)
class Dream:
    last: datetime | None  # when the last dream started (the lock's mtime); None: none yet
    holder: int | None  # the dreaming process, while the lock is held
    sessions: int  # sessions saved since the last dream
    due: bool  # 24 hours and 5 sessions since the last one

    def line(self, now: datetime) -> str:
        """The review's one line about it."""
        if self.holder is not None:
            return f"Claude Code is consolidating this memory now (process {self.holder})"
        last = (
            "no consolidation yet"
            if self.last is None
            else f"last consolidated {_ago(now, self.last)}"
        )
        due = "one is due" if self.due else "none due"
        saved = f"{self.sessions:,} session{'' if self.sessions == 1 else 's'}"
        return f"{last}; {saved} since: {due} (24 h and {SESSIONS} sessions)"


def _ago(now: datetime, then: datetime) -> str:
    hours = (now - then).total_seconds() / 3600
    when = shown_time(then)
    return f"{when} ({hours:.0f} h ago)" if hours >= 1 else f"{when} (under an hour ago)"


def dream_state(
    lock: tuple[str, datetime] | None,
    sessions: list[datetime],
    now: datetime,
    alive: Callable[[int], bool],
) -> Dream:
    """`lock`: its text and mtime (None: no lock file); `sessions`: each transcript's mtime."""
    last = lock[1] if lock else None
    since = sum(1 for at in sessions if last is None or at > last)
    due = (last is None or now - last >= EVERY) and since >= SESSIONS
    return Dream(last, holder(*lock, now, alive) if lock else None, since, due)


def _sessions(directory: Path) -> list[datetime]:
    """The mtimes of the session transcripts beside the memory folder (the project's)."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory.parent):
            if _SESSION.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                found.append(
                    datetime.fromtimestamp(entry.stat(follow_symlinks=False).st_mtime, UTC)
                )
    return found


def read_dream(directory: Path, at: datetime) -> Dream:
    return dream_state(read_lock(directory), _sessions(directory), at, alive)


def wait_out(
    directory: Path,
    clock: Callable[[], datetime],
    wait: int,
    what: str,
    sleep: Callable[[float], None] | None = None,
) -> None:
    """Return once no dream holds the directory, looking again each second for up to `wait`
    seconds (0: not at all); DreamingError, one line, when one still does
    (core/promotion/claude_dream.py, which promotion into the folder asks too)."""
    claude_dream.wait_out(directory, clock, wait, what, sleep or pause)
