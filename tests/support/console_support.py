"""Helpers for driving the console in tests: a temporary demo memory and a settled app."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from core import NuggetsStore
from core.clock import fixed_clock, parse_iso
from core.settings import DEFAULTS, Settings
from core.stores.nuggets.demo import materialize_demo
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.app import NuggetsApp
from nuggets_tui.widgets.note_table import NoteTable

NOW = parse_iso("2026-11-23T10:00:00Z")


def demo_home(where: Path) -> Path:
    return materialize_demo(where / "demo")


def make_app(home: Path, settings: Settings = DEFAULTS, **options: Any) -> NuggetsApp:
    memory = NuggetsStore(home, fixed_clock(NOW), memory_md=home / "memory" / "MEMORY.md",
                          settings=settings)
    return NuggetsApp(memory, **options)


async def settle(pilot: Pilot, app: NuggetsApp, pause: float = 0.05) -> None:
    """Let the screen's workers finish and their results reach the widgets."""
    for _ in range(3):
        await pilot.pause(pause)
        await app.workers.wait_for_complete()
    await pilot.pause(pause)


def notes_on_disk(home: Path) -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in json.loads(graph_path(home).read_bytes())["notes"]}


async def first_rows(pilot: Pilot, app: NuggetsApp) -> None:
    """Wait (up to 2 s) for the notes table to show any rows."""
    for _ in range(100):
        await pilot.pause(0.02)
        if app.screen.query_one(NoteTable).rows:
            return


def slow_shelf(app: NuggetsApp, gate: threading.Event) -> None:
    """The whole read waits for `gate`, as it does for seconds on a large memory."""
    memory = app.memory
    read = memory.shelf

    def shelf():  # type: ignore[no-untyped-def]
        gate.wait(10)
        return read()

    memory.shelf = shelf
