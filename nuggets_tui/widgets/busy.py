"""A one-line progress strip for work running in the background."""

from __future__ import annotations

from time import monotonic

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

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

    def start(self, what: str) -> None:
        self._what, self._since, self._ticks = what, monotonic(), 0
        self.add_class("-active")
        self._draw()
        if self._timer is None:
            self._timer = self.set_interval(TICK, self._tick)
        else:
            self._timer.resume()

    def stop(self) -> None:
        self._what = ""
        self.remove_class("-active")
        if self._timer is not None:
            self._timer.pause()

    def _tick(self) -> None:
        self._ticks += 1
        self._draw()

    def _draw(self) -> None:
        frame = FRAMES[self._ticks % len(FRAMES)]
        self.update(Text(f"{frame} {self._what} {monotonic() - self._since:.1f} s"))
