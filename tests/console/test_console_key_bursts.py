"""Keys that arrive in one burst (a paste, `tmux send-keys qs`, a fast typist) never crash the
console, even when they land while a screen is being pushed or popped or while the console
closes. Each screen of the console, on each store's demo, gets every key bound on it at once,
then `escape` and each key, then pairs that open and act (`r` and `a`, `q` and `s`), all posted
before the first is handled, as a terminal delivers them."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.keys import _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from core.clock import fixed_clock
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.store import ClaudeStore
from core.stores.microclaw.demo import materialize_microclaw_demo
from core.stores.microclaw.store import MicroClawStore
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from tests.support.console_support import demo_home, make_app, settle
from tests.support.microclaw_support import NOW as MICROCLAW_NOW

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (80, 24)
# The keys from the main screen to each other screen (a store without one stays on main).
SCREENS = [
    (),
    ("r",),
    ("r", "R"),
    ("r", "s"),
    ("r", "a"),
    ("c",),
    ("g",),
    ("l",),
    ("f",),
    ("p",),
    ("V",),
    ("x",),
    ("question_mark",),
    ("slash",),
]
QUITS = {"quit", "app.quit", "quit_review", "app.exit"}
TYPING = {"slash", "ctrl+p"}  # open a search or the palette: what follows is typed, not keys
PAIRS = [("r", "a"), ("r", "s"), ("r", "R"), ("r", "escape"), ("c", "escape"), ("p", "y")]


def _nuggets(tmp_path: Path) -> NuggetsApp:
    return make_app(demo_home(tmp_path))


def _microclaw(tmp_path: Path) -> NuggetsApp:
    data_dir = materialize_microclaw_demo(tmp_path / "mc", MICROCLAW_NOW)
    return NuggetsApp(MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW)))


def _purifier(tmp_path: Path) -> NuggetsApp:
    workspace = materialize_purifier_demo(tmp_path / "workspace", NOW)
    return NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))


def _claude(tmp_path: Path) -> NuggetsApp:
    directory = materialize_claude_demo(tmp_path / "demo-claude" / "memory", NOW)
    return NuggetsApp(ClaudeStore(directory, fixed_clock(NOW)))


DEMOS: dict[str, Callable[[Path], NuggetsApp]] = {
    "nuggets": _nuggets,
    "microclaw": _microclaw,
    "purifier": _purifier,
    "claude": _claude,
}


def burst(app: NuggetsApp, keys: Iterable[str]) -> None:
    """Every key posted at once, as the terminal's driver posts what it read in one go (the
    pilot's `press` waits for the console to be idle after each key, which a person does not)."""
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(key))
        except KeyError:
            char = key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


def bound_keys(app: NuggetsApp, quitting: bool = False) -> list[str]:
    """The keys bound on the screen on top now (its own, its widgets' and the app's)."""
    return [
        key
        for key, active in app.screen.active_bindings.items()
        if (active.binding.action in QUITS) == quitting
    ]


async def calm(pilot: Pilot[Any], app: NuggetsApp) -> None:
    """Let the console handle the burst and its workers finish; a worker of a screen the burst
    closed is cancelled with it, which is no crash."""
    for _ in range(3):
        await pilot.pause(0.02)
        with suppress(WorkerCancelled):
            await app.workers.wait_for_complete()


async def back_to_main(pilot: Pilot[Any], app: NuggetsApp) -> None:
    for _ in range(6):
        if isinstance(app.screen, MainScreen):
            return
        await pilot.press("escape")
        await calm(pilot, app)


async def open_screen(pilot: Pilot[Any], app: NuggetsApp, path: tuple[str, ...]) -> None:
    await back_to_main(pilot, app)
    for key in path:
        await pilot.press(key)
        await calm(pilot, app)


def _unhurt(app: NuggetsApp) -> None:
    assert app._exception is None, repr(app._exception)
    assert app.return_code in (None, 0)


@pytest.mark.slow
@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_bursts_of_keys_on_every_screen_never_crash(demo: str, tmp_path: Path) -> None:
    app = DEMOS[demo](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        for path in SCREENS:
            await open_screen(pilot, app, path)
            keys = bound_keys(app)
            burst(app, keys)
            await calm(pilot, app)
            await open_screen(pilot, app, path)
            burst(app, [k for key in keys for k in ("escape", key)])
            await calm(pilot, app)
            _unhurt(app)
        for pair in PAIRS:
            await back_to_main(pilot, app)
            burst(app, pair)
            await calm(pilot, app)
        _unhurt(app)
    _unhurt(app)


@pytest.mark.parametrize("demo", sorted(DEMOS))
@pytest.mark.parametrize("path", [(), ("r",), ("r", "R")])
async def test_keys_after_q_in_one_burst_never_crash(
    demo: str, path: tuple[str, ...], tmp_path: Path
) -> None:
    """`q` then more keys (`tmux send-keys qs` in the review): the console closes cleanly; the
    keys after it would have opened a dialog (`s`, `a`) that never mounted."""
    app = DEMOS[demo](tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await open_screen(pilot, app, path)
        burst(app, ["q", *(key for key in bound_keys(app) if key not in TYPING)])
        await calm(pilot, app)
    _unhurt(app)
