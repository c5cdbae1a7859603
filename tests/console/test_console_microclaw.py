"""The console on a MicroClaw data dir, with keys: the bot's rules reviewed and applied, a row
brought back with `u`, the run undone with ctrl+z, a stale plan refused while the bot writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.clock import fixed_clock
from core.stores.microclaw.paths import database_path
from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ChoiceScreen, ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ReviewScreen
from tests.support.console_support import main_screen, settle
from tests.support.microclaw_support import NOW

SIZE = (140, 40)


def rows(data_dir: Path) -> dict[int, tuple]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return {
            r[0]: r[1:]
            for r in conn.execute(
                "SELECT id, content, is_archived, archived_at, updated_at FROM memories"
            )
        }
    finally:
        conn.close()


def app_on(data_dir: Path) -> NuggetsApp:
    return NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))


async def test_r_a_archives_exactly_the_planned_rows_u_brings_one_back_ctrl_z_undoes(
    data_dir: Path,
) -> None:
    before = rows(data_dir)
    plan = MicroClawStore(data_dir, fixed_clock(NOW)).plan()
    # the review keeps at first what the bot will do; our suggestions and rescues left out
    planned = {
        int(op.note_id[3:])
        for op in plan.operations
        if op.id in plan.default_kept() and op.type == "hide"
    }
    assert planned and plan.unkept_by_default  # the demo has a case of every step
    app = app_on(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "MicroClaw" in str(app.screen.query_one("#title-bar").render())
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        after = rows(data_dir)
        assert set(after) == set(before)  # no row deleted
        archived_now = {i for i in after if after[i][1] and not before[i][1]}
        assert archived_now == planned
        assert all(after[i] == before[i] for i in after if i not in planned)

        back = min(planned)
        await pilot.press("h")
        await settle(pilot, app)
        main_screen(app).select_note(f"mc-{back}")
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        # archived by the bot's stale step: a confidence its prompt skips, so raising it is
        # offered; unhiding alone is the other choice
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("u")
        await settle(pilot, app)
        row = rows(data_dir)[back]
        assert row[1] == 0 and row[2] is None  # active again, archived_at cleared

        await pilot.press("ctrl+z")  # the unhide first
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        await pilot.press("ctrl+z")  # then the bot's rules
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
    restored = rows(data_dir)
    assert {i: r[:3] for i, r in restored.items()} == {i: r[:3] for i, r in before.items()}


async def test_a_row_the_bot_changes_while_you_review_makes_the_plan_stale(data_dir: Path) -> None:
    app = app_on(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        touched = int(review.plan.notes[0].note_id[3:])
        conn = sqlite3.connect(database_path(data_dir), timeout=5)
        conn.execute(
            "UPDATE memories SET confidence = 0.99, updated_at = ? WHERE id = ?",
            ("2026-11-24T09:30:00+00:00", touched),
        )  # the bot, meanwhile
        conn.commit()
        conn.close()
        behind_our_back = rows(data_dir)
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        if "Stale plan" not in _title(app.screen):  # the review's watch has not looked yet
            await pilot.press("y")
            await settle(pilot, app)
        assert rows(data_dir) == behind_our_back  # nothing written
        assert isinstance(app.screen, ConfirmScreen)
        assert "Stale plan" in _title(app.screen)


def _title(dialog: ConfirmScreen) -> str:
    return str(dialog.query_one("#dialog-title").render())


async def test_the_palette_and_the_files_screen_name_a_scope_not_a_nugget(
    data_dir: Path,
) -> None:
    """MicroClaw groups its rows by scope (global, a chat): the words that name a group say
    so, as the sidebar does, instead of "nugget"."""
    from nuggets_tui.commands import NoteCommands

    app = app_on(data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        provider = NoteCommands(app.screen)
        labels = [hit.text async for hit in provider.discover()]
        assert labels and all(str(label).startswith("Scope: ") for label in labels)
        found = [hit.text async for hit in provider.search("global")]
        assert "Scope: global" in found
        await pilot.press("f")
        await settle(pilot, app)
        title = str(app.screen.query_one("#files-title").render())
        assert "of every scope" in title and "nugget" not in title
