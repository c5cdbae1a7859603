"""Keys pressed while a large memory is still being read are answered, not dropped."""

from __future__ import annotations

import threading
from pathlib import Path

from test_console import _slow_shelf, first_rows
from textual.widgets._footer import FooterKey, FooterLabel

from console_support import demo_home, make_app, settle


async def test_keys_pressed_while_reading_say_still_reading(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    gate = threading.Event()
    _slow_shelf(app, gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await first_rows(pilot, app)
        screen = app.screen
        labels = [str(label.render()) for label in screen.query(FooterLabel)]
        assert any("still reading…" in label for label in labels)
        dimmed = {k.action for k in screen.query(FooterKey) if k.has_class("-disabled")}
        assert {"review", "promote", "undo", "history", "graph"} <= dimmed
        await pilot.press("r")
        await pilot.pause(0.05)
        said = [str(n.message) for n in app._notifications]
        assert any("Still reading" in message for message in said)
        assert app.screen is screen
        gate.set()
        await settle(pilot, app)
        assert not screen.query(FooterLabel)
        assert not {"review", "promote"} & {
            k.action for k in screen.query(FooterKey) if k.has_class("-disabled")}
