"""Long jobs in the console show how far they are, with the time left, and escape stops them."""

from __future__ import annotations

import threading
from pathlib import Path

from core.reflection.pass_state import PassCancelled
from nuggets_tui.screens.review import ReviewScreen
from nuggets_tui.widgets.busy import Busy
from tests.support.console_support import demo_home, make_app, settle


async def _until(pilot, check) -> None:  # type: ignore[no-untyped-def]
    for _ in range(150):
        if check():
            return
        await pilot.pause(0.02)


async def test_the_uncapped_plan_shows_progress_and_escape_stops_it(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    memory, plan = app.memory, app.memory.plan
    halfway, outcome = threading.Event(), []

    def slow_plan(*args, should_stop=None, progress=None, **options):  # type: ignore[no-untyped-def]
        if not options.get("uncapped"):
            return plan(*args, should_stop=should_stop, progress=progress, **options)
        for done in range(0, 40, 10):  # a large memory: a tenth of the pass at a time
            progress(done, 100)
        halfway.set()
        while not should_stop():
            threading.Event().wait(0.01)
        outcome.append("cancelled")
        raise PassCancelled

    memory.plan = slow_plan
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        capped = review.plan
        await pilot.press("c")
        await _until(pilot, halfway.is_set)
        busy = review.query_one(Busy)
        await _until(pilot, lambda: "30%" in str(busy.render()))
        strip = str(busy.render())
        assert "Planning the whole graph" in strip and "30%" in strip and "left" in strip
        assert "esc stops" in strip
        await pilot.press("escape")
        await settle(pilot, app)
        assert outcome == ["cancelled"]
        assert app.screen is review and review.plan is capped
        assert not busy.has_class("-active")
