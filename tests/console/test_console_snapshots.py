"""Snapshots of each screen at a fixed size on the demo memory (pytest-textual-snapshot).

Update them with `pytest tests/console/test_console_snapshots.py --snapshot-update`, after
looking at the new pictures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from nuggets_tui.app import NuggetsApp
from tests.support.console_support import demo_home, main_screen, make_app, settle

SIZE = (120, 36)


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[NuggetsApp]:
    monkeypatch.setenv("HOME", str(tmp_path))  # paths show as ~/demo
    yield make_app(demo_home(tmp_path))


def _after(*keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot, pilot.app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, pilot.app)

    return run_before


def test_main_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("down", "down"))


def test_review_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    keys = ("r", "space", "down", "down", "down")
    assert snap_compare(app, terminal_size=SIZE, run_before=_after(*keys))


def test_promotion_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("p"))


def test_graph_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot, pilot.app)
        screen = main_screen(pilot.app)
        linked = max(screen.shelf.notes, key=lambda n: (not n.get("hidden"), len(n["links"])))
        screen.select_note(linked["id"])
        await settle(pilot, pilot.app)
        await pilot.press("g")
        await settle(pilot, pilot.app)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_after("question_mark"))


def test_main_screen_small_terminal(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=(80, 24), run_before=_after("down"))


def test_review_grouped_by_nugget(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    keys = ("r", "c", "g", "n", "right_square_bracket", "down")  # one nugget rejected
    assert snap_compare(app, terminal_size=SIZE, run_before=_quietly(*keys))


def _quietly(*keys: str):  # type: ignore[no-untyped-def]
    """The keys, then no toasts: whether one has timed out by then depends on the machine."""

    async def run_before(pilot: Pilot) -> None:
        await _after(*keys)(pilot)
        pilot.app.clear_notifications()
        await settle(pilot, pilot.app)

    return run_before


def test_run_history(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_quietly("r", "a", "y", "l"))


def test_contradiction_queue(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    keys = ("c", "down", "o")  # a group, and what "one stands" would write
    assert snap_compare(app, terminal_size=SIZE, run_before=_after(*keys))


@pytest.mark.parametrize("size", [(140, 42), (80, 24)])
def test_contradiction_queue_picks_the_dissenting_note(  # type: ignore[no-untyped-def]
    app: NuggetsApp, snap_compare, size: tuple[int, int]
) -> None:
    """`local: ports`: nine notes in one block, the dissenting note in the next; `}` puts the
    cursor on it and `space` picks it, in sight at both sizes."""
    assert snap_compare(app, terminal_size=size, run_before=_after("c", "}", "space"))


def test_main_screen_filtered_by_verdict(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_quietly("v", "down"))
