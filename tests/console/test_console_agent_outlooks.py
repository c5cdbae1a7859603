"""The console asks before writing what the agent will do after (the store's foresight): an
unhide the agent's pass would undo is asked, not done at once; an undo and a "both stand" say
it in their confirmation; an undo the agent already overwrote says what the agent did. Homes
from `tests/fixtures/agent_live/` (how they were made: the module docstring of
tests/stores/test_agent_aftermath.py)."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.notes import fields
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from tests.support.agent_live import home_at
from tests.support.console_support import main_screen, notes_on_disk, settle
from tests.support.moments import at

SIZE = (140, 42)
NOW = at("2026-12-21T08:00:00Z")


def app_on(home: Path) -> NuggetsApp:
    return NuggetsApp(NuggetsStore(home, fixed_clock(NOW)))


def dialog(app: NuggetsApp) -> str:
    assert isinstance(app.screen, ConfirmScreen)
    return str(app.screen.query_one("#dialog-body").render())


async def test_unhiding_a_note_the_agent_merges_again_is_asked_first(tmp_path: Path) -> None:
    home = home_at("morning", 7, tmp_path)
    app = app_on(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main = main_screen(app)
        await pilot.press("h")  # archived notes shown
        await settle(pilot, app)
        main.select_note("note-memory-00000004")
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        body = dialog(app)
        assert "Afterwards:" in body and "the agent's next morning pass merges it into" in body
        assert fields.hidden(notes_on_disk(home)["note-memory-00000004"])  # not yet
        await pilot.press("y")
        await settle(pilot, app)
        assert not fields.hidden(notes_on_disk(home)["note-memory-00000004"])


async def test_undo_of_a_merge_says_the_agent_merges_the_pair_again(tmp_path: Path) -> None:
    app = app_on(home_at("morning", 9, tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        body = dialog(app)
        assert "(note-memory-00000005): the agent's next morning pass merges it into" in body


async def test_undo_of_a_run_the_agent_overwrote_says_what_the_agent_did(tmp_path: Path) -> None:
    app = app_on(home_at("busy", 8, tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main_screen(app).undo_run("20261221T090004Z-0002")
        await settle(pilot, app)
        body = dialog(app)
        assert "since this run the agent undid this run" in body
        assert "a later run edited them" not in body
