"""Keys pressed while a large memory is still being read are answered, not dropped."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from textual.widgets._footer import FooterKey, FooterLabel

from core.reflection.pass_state import PassCancelled
from nuggets_tui.screens.review import ReviewScreen
from tests.support.console_support import demo_home, first_rows, make_app, settle, slow_shelf


async def test_keys_pressed_while_reading_say_still_reading(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    gate = threading.Event()
    slow_shelf(app, gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await first_rows(pilot, app)
        screen = app.screen
        labels = [str(label.render()) for label in screen.query(FooterLabel)]
        assert any("still reading…" in label for label in labels)
        dimmed = {k.action for k in screen.query(FooterKey) if k.has_class("-disabled")}
        assert {"review", "promote", "undo", "history"} <= dimmed
        await pilot.press("r")
        await pilot.pause(0.05)
        said = [str(n.message) for n in app._notifications]
        assert any("Still reading" in message for message in said)
        assert app.screen is screen
        gate.set()
        await settle(pilot, app)
        assert not screen.query(FooterLabel)
        assert not {"review", "promote"} & {
            k.action for k in screen.query(FooterKey) if k.has_class("-disabled")
        }


async def test_escape_during_an_uncapped_plan_stops_the_pass(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    memory, plan = app.memory, app.memory.plan
    started, outcome = threading.Event(), []

    def slow_plan(*args, should_stop=None, **options):  # type: ignore[no-untyped-def]
        if options.get("uncapped"):
            started.set()
            for _ in range(500):  # a large memory: the pass is still going when escape comes
                if should_stop is not None and should_stop():
                    break
                time.sleep(0.01)
            try:
                # the console passes should_stop by keyword, never in args
                return plan(*args, should_stop=should_stop, **options)  # type: ignore[misc]
            except PassCancelled:
                outcome.append("cancelled")
                raise
        return plan(*args, should_stop=should_stop, **options)  # type: ignore[misc]

    memory.plan = slow_plan
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        capped = review.plan
        await pilot.press("c")
        for _ in range(100):
            if started.is_set():
                break
            await pilot.pause(0.02)
        await pilot.press("escape")
        await settle(pilot, app)
        assert outcome == ["cancelled"]  # the core pass itself stopped
        assert review.plan is capped and not review.uncapped and app.screen is review
        said = [str(n.message) for n in app._notifications]
        assert any("showing the capped plan again" in message for message in said)
