"""The CLI's progress on a long job: one line on standard error, redrawn in place, only when
standard error is a terminal (a pipe or a log file gets nothing)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from time import monotonic
from typing import TextIO

from core.progress import Progress, progress_text, time_left
from core.safeio.inert_text import one_line

EVERY = 0.25  # seconds between two redraws


class ProgressLine:
    """A progress callback (core/progress.py) that draws `what`, the share done and the time
    left; `close` clears the line so what follows starts on a clean one."""

    def __init__(
        self,
        what: str,
        stream: TextIO,
        clock: Callable[[], float] = monotonic,
        noun: str | None = None,
    ) -> None:
        self.what, self.stream, self.clock, self.noun = one_line(what), stream, clock, noun
        self.since = clock()
        self.drawn_at: float | None = None
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.drawn_at is not None and now - self.drawn_at < EVERY:
            return
        self.drawn_at = now
        left = time_left(done, total, now - self.since)
        text = f"{self.what} {progress_text(done, total, left, self.noun)}"
        self.stream.write("\r")  # back to the start of the line: drawn over the last one
        self.stream.write(one_line(text.ljust(self.width)))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except ValueError:  # closed
        return False


@contextmanager
def stderr_progress(what: str, noun: str | None = None) -> Iterator[Progress | None]:
    """The callback to hand a long job: a ProgressLine on a terminal, None elsewhere."""
    stream = sys.stderr
    if not is_terminal(stream):
        yield None
        return
    line = ProgressLine(what, stream, noun=noun)
    try:
        yield line
    finally:
        line.close()
