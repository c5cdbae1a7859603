"""The console on a Claude Code memory directory written by hand in its documented format (see
tests/stores/test_claude.py): every main-screen key leaves the directory byte for byte, the
title bar names the system, and a deleted topic file seen before is listed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot

from core.clock import fixed_clock
from core.stores.claude.store import ClaudeStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.stores.test_claude import write_directory
from tests.stores.test_claude_batch import applied
from tests.stores.test_claude_merge import DEPLOYING_LINE, with_pair
from tests.support.console_support import main_screen, settle
from tests.support.tree import hashes

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (140, 40)
KEYS = ["h", "h", "r", "x", "y", "p", "g", "l", "f", "c", "v", "s", "slash", "question_mark"]


async def test_every_main_key_leaves_the_directory_byte_for_byte(tmp_path: Path) -> None:
    directory = write_directory(tmp_path / "project")
    ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record").read()
    (directory / "user_role.md").unlink()  # the agent deletes a file seen once
    before = hashes(tmp_path / "project")
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert "Claude Code" in str(app.screen.query_one("#title-bar").render())
        for key in KEYS:
            await pilot.press(key)
            await settle(pilot, app)
            assert hashes(tmp_path / "project") == before, key
            for _ in range(3):
                if isinstance(app.screen, MainScreen):
                    break
                await pilot.press("escape")
                await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    assert hashes(tmp_path / "project") == before


@pytest.fixture
def demo_app(claude_app: NuggetsApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> NuggetsApp:
    monkeypatch.setenv("HOME", str(tmp_path))  # paths show as ~/demo-claude/memory
    return claude_app


def _after(*keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot, pilot.app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, pilot.app)
        pilot.app.clear_notifications()
        await settle(pilot, pilot.app)

    return run_before


def test_demo_main_screen(demo_app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(demo_app, terminal_size=SIZE, run_before=_after("down", "down"))


def test_demo_review_of_the_agents_week(demo_app: NuggetsApp, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(demo_app, terminal_size=SIZE, run_before=_after("r", "down", "down"))


async def test_u_brings_a_deleted_topic_back_byte_for_byte_and_ctrl_z_undoes_it(
    tmp_path: Path,
) -> None:
    directory = write_directory(tmp_path / "project")
    ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record").read()
    role = (directory / "user_role.md").read_bytes()
    (directory / "user_role.md").unlink()
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("h")  # archived notes shown
        await settle(pilot, app)
        main_screen(app).select_note("user_role.md")
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert (directory / "user_role.md").read_bytes() == role
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
    assert not (directory / "user_role.md").exists()


async def test_a_merge_kept_in_the_review_is_applied_as_its_diff_showed(tmp_path: Path) -> None:
    directory = with_pair(tmp_path / "project")
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        table = review.query_one("#changes", VirtualTable)
        for _ in range(len(review.plan.operations)):
            row = table.current
            if isinstance(row, ChangeRow) and row.change.type == "merge":
                break
            await pilot.press("down")
        assert isinstance(row, ChangeRow) and row.change.type == "merge"
        assert row.op_id not in review.kept  # left out unless kept
        await settle(pilot, app)
        shown = review.query_one(DiffView)._text.plain
        assert "Other files" in shown and "feedback_deploys.md: removed" in shown
        assert "## Merged from feedback_deploys.md" in shown
        await pilot.press("space")
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        said = str(app.screen.query_one("#dialog-body").render())
        assert "feedback_deploys.md, MEMORY.md" in said  # the other files it writes
        # what an apply of this store writes, not a rewrite of one file's notes
        assert "The agent's changes kept are accepted" in said
        assert "This rewrites" not in said and "archived notes stay in the file" not in said
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    merged = (directory / "feedback_deploying.md").read_text()
    assert "## Merged from feedback_deploys.md" in merged
    assert not (directory / "feedback_deploys.md").exists()
    assert (directory / "MEMORY.md").read_text().endswith(DEPLOYING_LINE)


async def test_ctrl_z_once_after_an_apply_takes_every_file_of_it_back(tmp_path: Path) -> None:
    directory, _, before = applied(tmp_path)  # a merge, a hygiene fix and a revert: 4 runs
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        said = str(app.screen.query_one("#dialog-body").render())
        assert "undone with the 4 runs written together" in said
        assert "puts back every file of the runs written together" in said  # not one file's
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    assert hashes(directory) == before
