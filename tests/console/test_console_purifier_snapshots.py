"""Snapshots of the main screens on the memory-purifier demo (pytest-textual-snapshot): a claim
marked by the operator, its source opened at its lines, the contradiction queue with its
outdated contradiction apart. Update them with `pytest
tests/console/test_console_purifier_snapshots.py --snapshot-update`, after looking at them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.clock import fixed_clock
from core.review.marks import mark_notes
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from tests.support.console_support import main_screen, settle

SIZE = (120, 36)
NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
CLAIM = "cl-demo000000000003"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[NuggetsApp]:
    monkeypatch.setenv("HOME", str(tmp_path))  # paths show as ~/demo-purifier
    workspace = materialize_purifier_demo(tmp_path / "demo-purifier" / "workspace", NOW)
    mark_notes(PurifierStore(workspace, fixed_clock(NOW)), [CLAIM], "reviewed")
    yield NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))


def _on_claim(*keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot, pilot.app)
        main_screen(pilot.app).select_note(CLAIM)
        await settle(pilot, pilot.app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, pilot.app)
        pilot.app.clear_notifications()  # the health lines, said on opening: not the screen's
        await settle(pilot, pilot.app)

    return run_before


def test_purifier_main_screen(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_on_claim())


def test_purifier_source_at_its_lines(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_on_claim("f"))


def test_purifier_contradiction_queue(app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=SIZE, run_before=_on_claim("c", "down"))
