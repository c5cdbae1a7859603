"""The console on a memory-purifier workspace the real purifier produced (see
tests/stores/test_purifier.py for how): every main-screen key, and not one byte of the workspace
or its telemetry changes; a write is refused in one line."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from tests.support.console_support import settle
from tests.support.tree import hashes

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-reconciliation"
NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (140, 40)
KEYS = [
    "h",
    "h",
    "r",
    "x",
    "y",
    "u",
    "y",
    "ctrl+z",
    "y",
    "p",
    "g",
    "l",
    "f",
    "c",
    "v",
    "s",
    "slash",
    "question_mark",
]


@pytest.mark.slow
async def test_every_main_key_leaves_the_workspace_byte_for_byte(tmp_path: Path) -> None:
    root = tmp_path / "copy"
    shutil.copytree(FIXTURE, root)
    before = hashes(root)
    app = NuggetsApp(PurifierStore(root / "workspace", fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "memory-purifier" in str(app.screen.query_one("#title-bar").render())
        for key in KEYS:
            await pilot.press(key)
            await settle(pilot, app)
            assert hashes(root) == before, key
            for _ in range(3):
                if isinstance(app.screen, MainScreen):
                    break
                await pilot.press("escape")
                await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    assert hashes(root) == before
