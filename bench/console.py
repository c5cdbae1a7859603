"""Console figures at 100k notes, in a fresh process: `python -m bench.console HOME`.

Prints one JSON object: either `{"skipped": reason}` or `first_paint` (seconds from building the
App to the first screen showing the notes), `ready` (until the background work that follows is
done: search and backlink indexes, the overview, the capped dry run made ahead for `r`) and
`keys` (seconds from a key press to the updated screen, per measured key, once ready). The
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.clock import fixed_clock, parse_iso
from core.memory import Memory

NOW = parse_iso("2026-11-01T09:00:00Z")
SIZE = (120, 40)


@dataclass
class KeyStep:
    """A measured interaction: what to press, after an unmeasured setup."""

    name: str
    keys: list[str]
    setup: list[str] = field(default_factory=list)


# Notes table scroll, a filter keystroke, `r` on the capped pass (SPEC/issue 4).
KEY_STEPS = [
    # A key nothing is bound to: what pressing and waiting for the screen costs by itself.
    KeyStep("a key bound to nothing (the harness's own cost)", ["f12"]),
    KeyStep("notes table scroll (page down)", ["pagedown"]),
    KeyStep("filter keystroke", ["d"], setup=["slash"]),
    KeyStep("`r` on the capped pass", ["r"]),
]


@dataclass
class ConsoleHook:
    """How to build the console's App and know that a screen is settled."""

    module: Any

    def build(self, home: Path) -> Any:
        app_class = self.module.NuggetsApp
        return app_class(Memory(home, fixed_clock(NOW)))

    async def settled(self, app: Any, pilot: Any) -> None:
        """Wait until the App has done the work a key started and painted the result."""
        await app.workers.wait_for_complete()
        await pilot.pause()

    async def painted(self, app: Any, pilot: Any) -> None:
        """Wait until the notes table shows notes (the indexes and the capped dry run are then
        still being built in the background; `settled` waits for those too)."""
        while not getattr(app.screen, "shelf", None) or not app.screen.query_one("#notes").rows:
            await pilot.pause(0.005)


def _load_console() -> tuple[Any | None, str]:
    try:
        return importlib.import_module("nuggets_tui.app"), ""
    except ImportError as exc:
        return None, f"not measured: console not present ({exc})"


async def _timed(step: Callable[[], Awaitable[None]]) -> float:
    start = time.perf_counter()
    await step()
    return time.perf_counter() - start


async def _drive(hook: ConsoleHook, home: Path, runs: int) -> dict[str, Any]:
    start = time.perf_counter()
    app = hook.build(home)
    keys: dict[str, list[float]] = {step.name: [] for step in KEY_STEPS}
    async with app.run_test(size=SIZE) as pilot:
        await hook.painted(app, pilot)
        first_paint = time.perf_counter() - start
        await hook.settled(app, pilot)
        ready = time.perf_counter() - start
        for step in KEY_STEPS:
            for _ in range(runs):
                for key in step.setup:
                    await pilot.press(key)
                await hook.settled(app, pilot)

                async def press(step: KeyStep = step) -> None:
                    await pilot.press(*step.keys)
                    await hook.settled(app, pilot)

                keys[step.name].append(await _timed(press))
                await pilot.press("escape")
                await hook.settled(app, pilot)
    return {"first_paint": first_paint, "ready": ready, "keys": keys}


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
