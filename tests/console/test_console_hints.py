"""What the console says about its own keys where a user could expect otherwise."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.console.test_console_narrow import screen_lines
from tests.support.console_support import make_app, settle


async def test_the_review_search_types_a_minus_and_says_which_keys_end_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for key in ("r", "slash", "minus"):
            await pilot.press(key)
            await settle(pilot, app)
        field = app.screen.query_one("#review-search", Input)
        assert field.value == "-"  # the search is literal text: `-` rejects nothing there
        bar = screen_lines(app)[field.region.y]
        assert "⏎ keeps the filter" in bar and "esc clears" in bar
        await pilot.press("escape")
        await settle(pilot, app)
        assert not any("esc clears" in drawn for drawn in screen_lines(app))


async def test_help_opens_on_the_keys_of_the_screen_it_is_asked_on(home: Path) -> None:
    """`?` lists the keys of the screen you are on first, then the others, as lazygit does."""
    from nuggets_tui.screens.help import HelpScreen

    app = make_app(home)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        for keys, section in (
            ((), "Main screen"),
            (("r",), "Review (r)"),
            (("l",), "Run history (l)"),
        ):
            for key in keys:
                await pilot.press(key)
                await settle(pilot, app)
            await pilot.press("question_mark")
            await settle(pilot, app)
            assert isinstance(app.screen, HelpScreen)
            lines = screen_lines(app)
            titles = ("Everywhere", "Main screen", "Review (r)", "Run history (l)")
            where = {t: next((i for i, text in enumerate(lines) if t in text), 99) for t in titles}
            assert min(where, key=lambda t: where[t]) == section, where
            await pilot.press("escape")
            await settle(pilot, app)
            while len(app.screen_stack) > 2:
                await pilot.press("escape")
                await settle(pilot, app)
