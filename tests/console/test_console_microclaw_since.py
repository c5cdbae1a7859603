"""The console says what the bot did since to our runs' rows: a notice on opening for the newest
run, the run history's state and detail, and a brought-back row's detail (the bot's writes are
its own SQL: tests/support/microclaw_bot.py); `u` on a row the bot's prompt skips offers to raise
its confidence."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ChoiceScreen
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.diff_view import DiffView
from tests.support.console_support import main_screen, settle
from tests.support.microclaw_bot import (
    archive_low,
    bot_deletes_expired,
    bot_matches,
    confidence,
    data_dir_of,
)
from tests.support.microclaw_support import NOW

SIZE = (140, 40)


async def test_the_console_names_rows_the_bot_deleted_and_brought_back(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    entry = MicroClawStore(data_dir, fixed_clock(NOW)).archive(["mc-1", "mc-2"])
    assert entry is not None
    bot_deletes_expired(data_dir, 1)
    bot_matches(data_dir, 2)
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        told = [str(n.message) for n in app._notifications]
        assert any(
            entry.run_id in m and "deleted mc-1" in m and "brought back mc-2" in m for m in told
        )
        main_screen(app).select_note("mc-2")
        await settle(pilot, app)
        detail = str(app.screen.query_one("#detail-body").render())
        assert f"Brought back by the bot since run {entry.run_id}" in detail
        await pilot.press("l")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert screen.current is not None
        assert screen.runs.state(screen.current) == "changed since"
        shown = screen.query_one("#run-diff", DiffView)._text.plain
        assert "deleted mc-1" in shown and "brought back mc-2" in shown


async def test_u_on_a_row_below_the_prompts_confidence_offers_to_raise_it(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    archive_low(data_dir, 2, 0.3)
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await settle(pilot, app)
        main_screen(app).select_note("mc-2")
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        assert "mc-2 (0.30) to 0.45" in str(app.screen.body)
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        assert confidence(data_dir, 2) == (0.45, 0)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
    assert confidence(data_dir, 2) == (0.3, 1)
