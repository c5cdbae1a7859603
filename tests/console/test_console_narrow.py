"""At 80×24 the list screens stack their panes (the list on top, at the full width, what it
selects below) so titles, run ids and paths are read whole; at 140×42 they stay side by side."""

from __future__ import annotations

from pathlib import Path

import pytest

from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.review import ChangeRow
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import make_app, settle

SMALL = (80, 24)
LARGE = (140, 42)
READ = 40  # characters of a title a narrow screen must show


def screen_lines(app: NuggetsApp) -> list[str]:
    """The terminal's lines as drawn."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_whole(text: str, lines: list[str]) -> bool:
    return any(text in drawn for drawn in lines)


async def _open(app: NuggetsApp, pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    for key in keys:
        await pilot.press(key)
        await settle(pilot, app)


async def test_the_review_shows_titles_not_cut_to_a_dozen_characters(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await _open(app, pilot, "r")
        table = app.screen.query_one("#changes", VirtualTable)
        long_ones = [
            row for row in table.rows if isinstance(row, ChangeRow) and len(row.title) > 24
        ]
        assert long_ones, "the demo's plan changes notes with long titles"
        for row in long_ones[:3]:
            table.select_key(table.renderer.key(row))
            await settle(pilot, app)
            assert shown_whole(row.title[:READ], screen_lines(app)), row.title


async def test_the_run_history_shows_the_run_id_whole_in_both_panes(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await _open(app, pilot, "r", "a", "y", "l")
        run = app.screen.query_one("#runs", VirtualTable).current
        assert run is not None
        lines = screen_lines(app)
        assert shown_whole(run.run_id, [drawn for drawn in lines if "applied" in drawn])
        # The detail's first line: the kind, the run id and when, unbroken.
        assert shown_whole(f"REFLECT {run.run_id}", lines)


async def test_the_memory_files_screen_shows_the_path_whole(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await _open(app, pilot, "f")
        lines = screen_lines(app)
        assert shown_whole("memory/MEMORY.md", lines)
        assert shown_whole("Read-only: the console never writes this file here.", lines)


async def test_promotion_and_the_queue_show_their_titles_at_80_columns(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await _open(app, pilot, "p")
        entries = app.screen.query_one("#entries", VirtualTable)
        title = entries.renderer.cells(entries.rows[1])[-1].plain
        assert len(title) > 26 and shown_whole(title[:READ], screen_lines(app))
        await _open(app, pilot, "escape", "c")
        groups = app.screen.query_one("#groups", VirtualTable)
        topics = [groups.renderer.cells(row)[2].plain for row in groups.rows[:3]]
        lines = screen_lines(app)
        assert all(shown_whole(topic, lines) for topic in topics), topics


@pytest.mark.parametrize(
    ("keys", "pane", "detail"),
    [
        ("r", "#changes", "#review-diff"),
        ("p", "#entries", "#promote-diff"),
        ("f", "#files", "#file-text"),
        ("c", "#groups", "#conflict-pane"),
        ("l", "#runs", "#run-diff"),
    ],
)
async def test_at_80_columns_panes_stack_and_at_140_they_stand_side_by_side(
    home: Path, keys: str, pane: str, detail: str
) -> None:
    app = make_app(home)
    async with app.run_test(size=LARGE) as pilot:
        await _open(app, pilot, keys)
        listed, shown = (app.screen.query_one(pane).region, app.screen.query_one(detail).region)
        assert listed.y == shown.y and listed.right <= shown.x
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, app)
        listed, shown = (app.screen.query_one(pane).region, app.screen.query_one(detail).region)
        assert listed.width == SMALL[0] and listed.bottom <= shown.y


async def test_ctrl_b_hides_the_sidebar_and_the_notes_take_its_columns(home: Path) -> None:
    """At 80 columns the sidebar kept 28 of them for good: ctrl+b gives them to the notes."""
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        content = app.screen.query_one("#content")
        before = content.region.width
        await pilot.press("ctrl+b")
        await settle(pilot, app)
        assert not app.screen.query_one("#sidebar").display
        assert content.region.width >= before + 28
        await pilot.press("ctrl+b")
        await settle(pilot, app)
        assert app.screen.query_one("#sidebar").display and content.region.width == before
