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
