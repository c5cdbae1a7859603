"""The console at its smallest supported size, 80×24, and below it."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from core.notes import fields
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.too_small import TooSmallScreen
from nuggets_tui.widgets.note_detail import NoteDetailPane
from tests.support.console_support import main_screen, make_app, settle

SMALL = (80, 24)


def hidden_footer_keys(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The footer keys of the current screen not drawn whole inside the terminal."""
    width = app.size.width
    out = []
    for key in app.screen.query(FooterKey):
        drawn = key.region
        if drawn.width < key.get_content_width(app.size, app.size) or drawn.right > width:
            out.append(key.description)
    return out


@pytest.mark.parametrize("keys", ["", "r", "p", "g", "l", "c"])
async def test_every_footer_key_is_visible_at_80_columns(home: Path, keys: str) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        if keys:
            await pilot.press(keys)
            await settle(pilot, app)
        assert app.screen.query(FooterKey)
        assert hidden_footer_keys(app) == []


@pytest.mark.parametrize("width", [100, 120, 149, 150])
async def test_the_main_screens_footer_fits_at_any_width(home: Path, width: int) -> None:
    app = make_app(home)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot, app)
        assert hidden_footer_keys(app) == []


async def test_below_80_by_24_the_console_says_it_is_too_small(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(70, 20)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, TooSmallScreen)
        said = str(app.screen.query_one("#too-small", Static).render())
        assert "Terminal too small (needs 80×24, this one is 70×20)" in said
        await pilot.resize_terminal(80, 23)
        await settle(pilot, app)
        assert "this one is 80×23" in str(app.screen.query_one("#too-small", Static).render())
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        assert not app.screen.query(TooSmallScreen)


async def test_at_80_by_24_a_notes_links_show_without_scrolling(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        screen = main_screen(app)
        linked = next(
            n
            for n in screen.shelf.graph.notes
            if n.get("links") and not fields.hidden(n) and len(fields.text(n, "content")) < 80
        )
        screen.select_note(linked["id"])
        await settle(pilot, app)
        pane = screen.query_one(NoteDetailPane)
        body = pane.query_one("#detail-body", Static)
        seen = "\n".join(
            strip.text
            for strip in body.render_lines(
                Region(0, 0, body.size.width, pane.scrollable_content_region.height)
            )
        )
        assert fields.text(linked, "title") in seen
        assert "Links (" in seen and "→" in seen


async def test_a_footer_shrunk_to_80_by_24_compacts_and_still_shows_q(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot, app)
        drawn = [key.key for key in app.screen.query(FooterKey)]
        assert "q" in drawn and "question_mark" in drawn
        await pilot.resize_terminal(*SMALL)
        await settle(pilot, app)
        # The compact footer: no key (`q Quit`, `? Help`) left past the terminal's edge.
        assert app.screen.query(FooterKey)
        assert hidden_footer_keys(app) == []
        assert {"q", "question_mark"} <= {key.key for key in app.screen.query(FooterKey)}
        await pilot.resize_terminal(160, 40)
        await settle(pilot, app)
        assert "q" in [key.key for key in app.screen.query(FooterKey)]
        assert hidden_footer_keys(app) == []


async def test_a_dialog_keeps_its_buttons_on_an_80x24_terminal(home: Path) -> None:
    """A dialog's text longer than the terminal scrolls; its buttons stay in sight."""
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        body = Text("\n".join(f"line {n} of what applying writes" for n in range(40)))
        app.push_screen(ConfirmScreen("Apply the kept changes", body, yes="Apply"))
        await settle(pilot, app)
        screen = app.screen
        dialog = screen.query_one("#dialog").region
        for button in ("#yes", "#cancel"):
            region = screen.query_one(button).region
            assert region.height == 3 and dialog.y < region.y and region.bottom <= dialog.bottom
