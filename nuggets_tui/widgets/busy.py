"""A one-line progress strip for work running in the background."""

from __future__ import annotations

from time import monotonic

from textual.timer import Timer
from textual.widgets import Static

from core.progress import progress_text, time_left

from ..safe import line

# A spinner and the seconds so far, redrawn four times a second. Textual's indeterminate
# ProgressBar redraws at 15 frames a second, and every frame takes the interpreter from the
# thread doing the work: loading 100k notes took 0.4 s longer beside it.
FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
TICK = 0.25


class Busy(Static):
    DEFAULT_CSS = """
    Busy { height: 1; display: none; padding: 0 1; background: $boost; color: $text-muted; }
    Busy.-active { display: block; }
    """

    def __init__(self) -> None:
        super().__init__("")
        self._what = ""
        self._since = 0.0
        self._ticks = 0
        self._timer: Timer | None = None
        self._told: tuple[int, int] | None = None  # (done, total), set from the job's thread
        self._noun: str | None = None
        self._stops = ""

    def start(self, what: str, noun: str | None = None, stops: str = "") -> None:
        """`noun`: what the job's progress counts (None: a share only); `stops`: the key that
        stops the job, said on the strip."""
        self._what, self._since, self._ticks = what, monotonic(), 0
        self._told, self._noun, self._stops = None, noun, stops
        self.add_class("-active")
        self._draw()
        if self._timer is None:
            self._timer = self.set_interval(TICK, self._tick)
        else:
            self._timer.resume()

    def told(self, done: int, total: int) -> None:
        """The job's progress callback: safe from its thread (one assignment), drawn at the
        next tick rather than at every call."""
        self._told = (done, total)

    def stop(self) -> None:
        self._what = ""
        self._told = None
        self.remove_class("-active")
        if self._timer is not None:
            self._timer.pause()

    def _tick(self) -> None:
        self._ticks += 1
        self._draw()

    def _draw(self) -> None:
        frame = FRAMES[self._ticks % len(FRAMES)]
        elapsed = monotonic() - self._since
        if self._told is None:
            text = f"{frame} {self._what} {elapsed:.1f} s"
        else:  # the time left says more than the time so far
            done, total = self._told
            left = time_left(done, total, elapsed)
            text = f"{frame} {self._what} {progress_text(done, total, left, self._noun)}"
        if self._stops:
            text += f" · {self._stops} stops"
        self.update(line(text))  # `what` may name the memory's own words
