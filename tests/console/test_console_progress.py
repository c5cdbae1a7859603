"""Long jobs in the console show how far they are, with the time left, and escape stops them."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from core.progress import Stopped
from core.reflection.pass_state import PassCancelled
from nuggets_tui.screens.review import ReviewScreen
from nuggets_tui.widgets.busy import Busy
from tests.support.console_support import demo_home, main_screen, make_app, settle


async def _until(pilot, check) -> None:  # type: ignore[no-untyped-def]
    for _ in range(500):  # up to ~10 s: a loaded machine draws late
        if check():
            return
        await pilot.pause(0.02)


async def test_the_uncapped_plan_shows_progress_and_escape_stops_it(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    memory, plan = app.memory, app.memory.plan
    halfway, outcome = threading.Event(), []

    def slow_plan(*args, should_stop=None, progress=None, **options):  # type: ignore[no-untyped-def]
        if not options.get("uncapped"):
            # the console passes these two by keyword, never in args
            return plan(
                *args,
                should_stop=should_stop,
                progress=progress,  # type: ignore[misc]
                **options,
            )
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
        assert review.plan is capped and app.screen is review
        assert not busy.has_class("-active")


async def test_verdict_scoring_shows_a_sign_and_progress_and_escape_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from core.review import service  # the main screen scores through the review service
    from core.review.verdicts import judge
    from nuggets_tui.screens import main
    from nuggets_tui.widgets.note_table import NoteTable

    real, started, stopped = judge, threading.Event(), []

    def slow_judge(notes, now, *, progress=None, should_stop=None, **options):  # type: ignore[no-untyped-def]
        if started.is_set():  # scored again after the stop: at once
            return real(notes, now, progress=progress, should_stop=should_stop, **options)
        started.set()
        progress(250, 1000)
        while not should_stop():
            threading.Event().wait(0.01)
        stopped.append(True)
        raise Stopped

    monkeypatch.setattr(service, "judge", slow_judge)
    home = demo_home(tmp_path)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, started.is_set)
        screen, busy = main_screen(app), app.screen.query_one(Busy)
        await _until(pilot, lambda: "25%" in str(busy.render()))
        table = screen.query_one(NoteTable)
        cell = table.renderer.cells(table.rows[0])[-1].plain
        assert cell == "…"  # a sign, not a blank, while the verdicts are on their way
        strip = str(busy.render())
        assert "Scoring the verdicts" in strip and "25%" in strip and "esc stops" in strip
        await pilot.press("escape")
        await settle(pilot, app)
        assert stopped == [True] and not busy.has_class("-active")
        assert table.renderer.cells(table.rows[0])[-1].plain == "–"
        said = [str(n.message) for n in app._notifications]
        assert any("Stopped scoring the verdicts" in message for message in said)
        assert screen.verdicts is None
        await pilot.press("v")  # scores them now
        await settle(pilot, app)
        assert screen.verdicts
        assert table.renderer.cells(table.rows[0])[-1].plain in main.VERDICTS
