"""Console figures at 100k notes, in a fresh process: `python -m bench.console HOME`.

Prints one JSON object: either `{"skipped": reason}` or, in seconds from building the App:
`first_frame` (the first screen drawn: the layout with "Loading the memory…"), `first_page` (the
first frame with notes in the table: a page read from the head of the file while the rest is
read), `first_paint` (the first frame with the whole file read and checked, its notes in the
table and every key working), `ready` (the background work that follows is done:
search and backlink indexes, the overview, the capped dry run made ahead for `r`); and per
measured key, once ready: `keys` (from the key press to the last frame drawn before the screen
settled, i.e. the key's result on screen; None when the key drew nothing) and `keys_settled` (to
the moment the harness saw the App idle again: its own waiting included). The
console (`nuggets_tui.app`) is optional here: when it cannot be imported, or its API does not
fit the hook below, the figures are "not measured" and nothing crashes.

The one place that knows the console's API is `ConsoleHook`; adapt it when that API settles.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.clock import fixed_clock
from core.stores.nuggets.store import NuggetsStore

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
SIZE = (120, 40)


@dataclass
class KeyStep:
    """A measured interaction: what to press, after an unmeasured setup."""

    name: str
    keys: list[str]
    setup: list[str] = field(default_factory=list)


# Notes table scroll, a filter keystroke, `r` on the capped pass (docs/PASS.md), `s` sorting.
KEY_STEPS = [
    # A key nothing is bound to: what pressing and waiting for the screen costs by itself.
    KeyStep("a key bound to nothing (the harness's own cost)", ["f12"]),
    KeyStep("notes table scroll (page down)", ["pagedown"]),
    KeyStep("filter keystroke", ["d"], setup=["slash"]),
    KeyStep("`r` on the capped pass", ["r"]),
    # Last, so the steps above keep measuring file order: each press moves to the next order.
    KeyStep("`s` sorts the notes (the next order)", ["s"]),
]


@dataclass
class ConsoleHook:
    """How to build the console's App and know that a screen is settled."""

    module: Any

    def build(self, home: Path) -> Any:
        app_class = self.module.NuggetsApp
        return app_class(NuggetsStore(home, fixed_clock(NOW)))

    async def settled(self, app: Any, pilot: Any) -> None:
        """Wait until the App has done the work a key started and painted the result."""
        await app.workers.wait_for_complete()
        await pilot.pause()

    def watch_frames(self, app: Any) -> Frames:
        """Note the time of every screen update the App sends towards the terminal. Textual
        hands each update to `App._display` (private, but the one place every frame passes,
        headless too); a frame after a key is the key's result on screen."""
        frames = Frames()
        draw = app._display

        def display(screen: Any, renderable: Any) -> None:
            draw(screen, renderable)
            if renderable is not None:
                rows = self.rows_shown(app)
                frames.drawn(time.perf_counter(), rows, rows and self.notes_shown(app))

        app._display = display
        return frames

    @staticmethod
    def rows_shown(app: Any) -> bool:
        screen = app.screen
        return bool(screen.query("#notes")) and bool(screen.query_one("#notes").rows)

    def notes_shown(self, app: Any) -> bool:
        return bool(getattr(app.screen, "shelf", None)) and self.rows_shown(app)

    def quiet_cursor(self, app: Any) -> None:
        """The filter's blinking cursor would draw a frame twice a second whatever a key did."""
        app.screen.query_one("#filter").cursor_blink = False

    async def painted(self, app: Any, pilot: Any) -> None:
        """Wait until the notes table shows notes (the indexes and the capped dry run are then
        still being built in the background; `settled` waits for those too)."""
        # A plain sleep between looks: `pilot.pause` waits on every widget's messages, and
        # doing that 200 times a second takes the interpreter from the thread that loads.
        while not self.notes_shown(app):
            await asyncio.sleep(0.005)
        await pilot.pause()


@dataclass
class Frames:
    """When the App drew: every frame, the first one at all, the first with notes in it."""

    times: list[float] = field(default_factory=list)
    first: float | None = None
    page: float | None = None  # notes in the table: the first page, read ahead, or all
    notes: float | None = None  # the whole file read and checked, its notes in the table

    def drawn(self, at: float, rows_shown: bool, loaded: bool) -> None:
        self.times.append(at)
        self.first = self.first or at
        if rows_shown and self.page is None:
            self.page = at
        if rows_shown and loaded and self.notes is None:
            self.notes = at


def _load_console() -> tuple[Any | None, str]:
    try:
        return importlib.import_module("nuggets_tui.app"), ""
    except ImportError as exc:
        return None, f"not measured: console not present ({exc})"


async def _drive(hook: ConsoleHook, home: Path, runs: int) -> dict[str, Any]:
    start = time.perf_counter()
    app = hook.build(home)
    frames = hook.watch_frames(app)
    keys: dict[str, list[float | None]] = {step.name: [] for step in KEY_STEPS}
    settled: dict[str, list[float]] = {step.name: [] for step in KEY_STEPS}
    async with app.run_test(size=SIZE) as pilot:
        await hook.painted(app, pilot)
        await hook.settled(app, pilot)
        ready = time.perf_counter() - start
        hook.quiet_cursor(app)
        for step in KEY_STEPS:
            for _ in range(runs):
                for key in step.setup:
                    await pilot.press(key)
                await hook.settled(app, pilot)
                seen, pressed = len(frames.times), time.perf_counter()
                await pilot.press(*step.keys)
                await hook.settled(app, pilot)
                settled[step.name].append(time.perf_counter() - pressed)
                after = frames.times[seen:]
                # The last frame before the screen settled shows the key's whole result; a key
                # that changes nothing draws nothing (None).
                keys[step.name].append(after[-1] - pressed if after else None)
                await pilot.press("escape")
                await hook.settled(app, pilot)
    assert frames.first is not None and frames.page is not None and frames.notes is not None
    return {
        "first_frame": frames.first - start,
        "first_page": frames.page - start,
        "first_paint": frames.notes - start,
        "ready": ready,
        "keys": keys,
        "keys_settled": settled,
    }


def measure(home: Path, runs: int = 5) -> dict[str, Any]:
    module, reason = _load_console()
    if module is None:
        return {"skipped": reason}
    try:
        return asyncio.run(_drive(ConsoleHook(module), home, runs))
    except (AttributeError, TypeError) as exc:
        return {"skipped": f"not measured: console API not hooked up yet ({exc!r})"}


def main() -> None:
    home = Path(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(json.dumps(measure(home, runs)))


if __name__ == "__main__":
    main()
