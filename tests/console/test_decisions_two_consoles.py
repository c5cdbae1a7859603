"""Two consoles on one memory, and `daily --hold` run while a console is open: each decision is
merged into the decisions file key by key, so no writer wipes another's, and a console shows the
decisions another one took within its watch interval."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from textual.pilot import Pilot

from core.plans.review_state import change_key, read_state
from nuggets_tui.app import NuggetsApp
from nuggets_tui.cli import main
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from tests.support.console_support import make_app, settle

SIZE = (120, 40)
ENV = {
    "NUGGETS_NOW": "2026-11-23T10:00:00Z",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
    "TZ": "UTC",
    "NUGGETS_JOURNAL_KEEP": "100",
}


async def _review(pilot: Pilot, app: NuggetsApp) -> ReviewScreen:
    await settle(pilot, app)
    await pilot.press("r")
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ReviewScreen) and screen.plan is not None
    return screen


async def _reject(pilot: Pilot, review: ReviewScreen, op_id: int) -> str:
    """Reject change `op_id` with the space key, as the operator does; its key."""
    table = review.table
    table.cursor = next(
        i for i, row in enumerate(table.rows) if isinstance(row, ChangeRow) and row.op_id == op_id
    )
    await pilot.press("space")
    assert op_id not in review.kept
    assert review.plan is not None
    return change_key(review.plan.operations[op_id - 1])


def _mark(review: ReviewScreen, op_id: int) -> str:
    row = next(r for r in review.table.rows if isinstance(r, ChangeRow) and r.op_id == op_id)
    return str(review.rows.cells(row)[0])


async def test_two_consoles_keep_each_others_decisions_and_show_them(home: Path) -> None:
    one = make_app(home, watch_interval=60)  # never reads the file again by itself
    other = make_app(home, watch_interval=0.05)
    async with one.run_test(size=SIZE) as pilot_one, other.run_test(size=SIZE) as pilot_other:
        first, second = await _review(pilot_one, one), await _review(pilot_other, other)
        assert first.plan is not None and len(first.plan.operations) >= 3
        assert {1, 2, 3} <= first.kept and _mark(second, 1) == "✓"
        rejected = {await _reject(pilot_one, first, 1)}
        for _ in range(100):  # the other console's watch reads the file again
            await pilot_other.pause(0.05)
            if 1 not in second.kept:
                break
        assert 1 not in second.kept and _mark(second, 1) == "✗"
        rejected.add(await _reject(pilot_other, second, 2))
        rejected.add(await _reject(pilot_one, first, 3))  # over a copy read before the 2nd's
        assert 2 not in first.kept  # the merge told the first console of the second's
    decisions = read_state(home).decisions
    assert {key for key, kept in decisions.items() if not kept} == rejected


async def test_daily_hold_while_a_console_is_open_keeps_its_waiting_list(home: Path) -> None:
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        result = CliRunner().invoke(main, ["--home", str(home), "daily", "--hold"], env=ENV)
        assert result.exit_code == 0, result.output
        waiting = read_state(home).waiting
        assert waiting
        rejected = await _reject(pilot, review, 1)
    state = read_state(home)
    assert state.waiting == waiting and state.decisions == {rejected: False}
