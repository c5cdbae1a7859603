"""Every key says what it did or why it did nothing: planning again on a fresh plan, applying a
plan already known to be stale, undoing a run that was undone, ctrl+z on the queue."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Static

from core.browse.overview_stats import Overview
from core.browse.shelf import NuggetSummary
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.screens.review import ReviewScreen
from nuggets_tui.widgets.overview import OverviewPanel
from tests.support.console_support import make_app, settle

SIZE = (120, 40)


def said(app: NuggetsApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def _review(pilot, app) -> ReviewScreen:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("r")
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ReviewScreen) and screen.plan is not None
    return screen


async def test_r_on_a_current_plan_says_it_is_current(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        review = await _review(pilot, app)
        plan = review.plan
        await pilot.press("r")
        await settle(pilot, app)
        assert app.screen is review and review.plan is plan
        assert said(app)[-1] == (
            "Nothing to plan again: This plan is current: the graph file "
            "has not changed since it was made. r plans again once it has."
        )


async def test_planning_again_a_stale_plan_says_what_it_found(home: Path) -> None:
    app = make_app(home, watch_interval=0.1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        review = await _review(pilot, app)
        await _go_stale(pilot, app, home)
        await pilot.press("r")
        await settle(pilot, app)
        assert review.plan is not None and not review.stale
        changes = len(review.plan.operations)
        assert said(app)[-1] == (
            f"Planned again: Planned again on the graph file as it is now: "
            f"{changes:,} changes, {len(review.rows.new):,} new since the "
            "last plan."
        )


async def _go_stale(pilot, app, home: Path) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(graph_path(home).read_bytes())
    doc["notes"][0]["hits"] += 1  # the agent recalls a note while we review
    graph_path(home).write_text(json.dumps(doc))
    await pilot.pause(0.4)
    await settle(pilot, app)
    assert app.screen.stale


async def test_apply_on_a_plan_known_stale_says_so_at_once(home: Path) -> None:
    app = make_app(home, watch_interval=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await _review(pilot, app)
        await _go_stale(pilot, app, home)
        await pilot.press("a")
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "Stale plan" in dialog.title_text.plain  # not "Apply the kept changes" first


async def test_cancelling_an_undo_from_the_run_history_goes_back_to_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await _review(pilot, app)
        await pilot.press("a", "y")
        await settle(pilot, app)
        await pilot.press("l")
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot, app)
        assert isinstance(app.screen, HistoryScreen)


async def test_the_sidebar_shows_a_count_of_100_000_whole(home: Path) -> None:
    """Notes per nugget: the bars narrow so a six-digit count is not cut at the sidebar's edge."""
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        panel = app.screen.query_one(OverviewPanel)
        panel.show(
            Overview(
                [NuggetSummary("project", notes=100_000), NuggetSummary("user", notes=91)],
                100_091,
                0,
                [0] * 10,
                0,
            )
        )
        await pilot.pause()
        bars = panel.query_one("#overview-bars", Static)
        shown = [line.text for line in bars.render_lines(bars.region.reset_offset)]
        assert shown[0].rstrip().endswith(" 100,000")
        assert shown[1].rstrip().endswith(" 91")
