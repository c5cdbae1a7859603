"""A review tells three states apart: kept (✓), rejected by the operator or a rule (✗), and
left out unless kept (○: a change the plan leaves out by default, which nobody rejected). The
group headers, the change pane and the quit dialog count and name each."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.review import ChangeRow, Group, ReviewScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import settle
from tests.support.microclaw_support import NOW

SIZE = (140, 40)


async def _review(pilot, app: NuggetsApp) -> ReviewScreen:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("r")
    await settle(pilot, app)
    review = app.screen
    assert isinstance(review, ReviewScreen) and review.plan is not None
    return review


def _left_out_group(review: ReviewScreen) -> tuple[int, Group]:
    """A group holding a change the plan leaves out by default, and its row."""
    assert review.plan is not None
    unkept = set(review.plan.unkept_by_default)
    rows = review.query_one("#changes", VirtualTable).rows
    for at, row in enumerate(rows):
        if isinstance(row, Group) and unkept & set(row.members):
            return at, row
    raise AssertionError("the demo's plan leaves nothing out by default")


async def test_left_out_by_default_is_neither_kept_nor_rejected(data_dir: Path) -> None:
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        table = review.query_one("#changes", VirtualTable)
        at, group = _left_out_group(review)
        assert review.plan is not None
        left = [i for i in group.members if i in review.plan.unkept_by_default]
        kept = [i for i in group.members if i in review.kept]
        header = str(table.renderer.header_text(group))
        assert f"{len(kept)} kept" in header
        assert f"{len(left)} left out unless kept" in header
        assert "rejected" not in header  # nobody rejected anything yet
        row = next(r for r in table.rows if isinstance(r, ChangeRow) and r.op_id == left[0])
        assert str(table.renderer.cells(row)[0]) == "○"
        table.cursor = table.rows.index(row)
        await settle(pilot, app)
        assert review.query_one(DiffView)._text.plain.count("○ Left out unless kept") == 1
        await pilot.press("space")  # kept by the operator
        table.cursor = table.rows.index(row)
        await pilot.press("space")  # then rejected by the operator
        await settle(pilot, app)
        assert str(table.renderer.cells(row)[0]) == "✗"
        table.cursor = table.rows.index(row)
        await settle(pilot, app)
        assert review.query_one(DiffView)._text.plain.count("✗ Rejected:") == 1
        header = str(table.renderer.header_text(table.rows[at]))
        assert "1 rejected" in header
        assert f"{len(left) - 1} left out" in header if len(left) > 1 else "left out" not in header


async def test_the_quit_dialog_counts_kept_and_left_out_apart(data_dir: Path) -> None:
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        assert review.plan is not None
        total = len(review.plan.operations)
        table = review.query_one("#changes", VirtualTable)
        table.cursor = next(
            at
            for at, r in enumerate(table.rows)
            if isinstance(r, ChangeRow) and r.op_id in review.kept
        )
        await pilot.press("space")  # one decision: a kept change rejected
        await settle(pilot, app)
        kept_undecided = len(review.plan.default_kept()) - 1
        left = len(review.plan.unkept_by_default)
        await pilot.press("q")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        body = str(app.screen.query_one("#dialog-body").render())
        assert f"{total - 1} changes not decided yet" in body
        assert f"{kept_undecided} kept" in body
        assert f"{left} left out unless kept" in body
        assert "undecided" not in body
