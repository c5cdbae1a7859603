"""Helpers for driving the console in tests: a temporary demo memory and a settled app."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, TypeVar

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from core.clock import fixed_clock
from core.review.contradictions import find_by_rules
from core.review.decisions import settled_key, settled_path
from core.settings import DEFAULTS, Settings
from core.stores.nuggets.demo import materialize_demo
from core.stores.nuggets.graph_file import graph_path
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.support.moments import at

S = TypeVar("S", bound=Screen[Any])

NOW = at("2026-11-23T10:00:00Z")


def demo_home(where: Path) -> Path:
    return materialize_demo(where / "demo")


def let_every_group_stand(home: Path) -> None:
    """As if the operator had let every group of the contradiction queue stand (`b`): promotion
    then holds back nothing for the queue (a screen that shows many entries written)."""
    store = NuggetsStore(home, fixed_clock(NOW))
    notes = store.read().notes
    by_id = {n["id"]: n for n in notes}
    keys = [
        settled_key(by_id[i] for i in g.note_ids) for g in find_by_rules(notes, store.topic_rules())
    ]
    path = settled_path(store.journal_home)
    path.write_text(json.dumps({"bothStand": sorted(keys)}))


def make_app(home: Path, settings: Settings = DEFAULTS, **options: Any) -> NuggetsApp:
    memory = NuggetsStore(
        home, fixed_clock(NOW), memory_md=home / "memory" / "MEMORY.md", settings=settings
    )
    return NuggetsApp(memory, **options)


def on_top(app: App[Any], kind: type[S]) -> S:
    """The screen on top, which the test expects to be a `kind` (typed as one from here on)."""
    screen = app.screen
    assert isinstance(screen, kind), f"{type(screen).__name__} is on top, not {kind.__name__}"
    return screen


def main_screen(app: App[Any]) -> MainScreen:
    return on_top(app, MainScreen)


async def settle(pilot: Pilot[Any], app: App[Any], pause: float = 0.05) -> None:
    """Let the screen's workers finish and their results reach the widgets."""
    for _ in range(3):
        await pilot.pause(pause)
        await app.workers.wait_for_complete()
    await pilot.pause(pause)


def notes_on_disk(home: Path) -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in json.loads(graph_path(home).read_bytes())["notes"]}


async def pressed(pilot: Pilot[Any], app: App[Any], key: str, kind: type[S]) -> S:
    """`key` pressed and let settle: the screen it opened, which the test expects to be a
    `kind`."""
    await pilot.press(key)
    await settle(pilot, app)
    return on_top(app, kind)


async def first_rows(pilot: Pilot, app: NuggetsApp) -> None:
    """Wait (up to 2 s) for the notes table to show any rows."""
    for _ in range(100):
        await pilot.pause(0.02)
        if app.screen.query_one(NoteTable).rows:
            return


def slow_shelf(app: NuggetsApp, gate: threading.Event) -> None:
    """The whole read waits for `gate`, as it does for seconds on a large memory."""
    memory = app.memory
    whole = memory.read

    def read():  # type: ignore[no-untyped-def]
        gate.wait(10)
        return whole()

    memory.read = read


def add_notes(home: Path, *notes: dict[str, Any]) -> None:
    """Notes appended to the graph, each the first note's copy with these fields: shown, recalled
    seven times (over promotion's threshold), without links."""
    doc = json.loads(graph_path(home).read_bytes())
    template = doc["notes"][0]
    doc["notes"] += [dict(template, hidden=False, hits=7, links=[], **n) for n in notes]
    graph_path(home).write_text(json.dumps(doc))


def diff_body(app: App[Any]) -> str:
    """The text of the diff pane of the screen on top."""
    return str(app.screen.query_one("#diff-body").render())
