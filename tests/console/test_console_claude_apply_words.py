"""What the console says after a review of a Claude Code memory directory is what happened: the
files the apply wrote are counted (never "0 notes written"), and the store's refusals name the
review's apply among what writes its files."""

from __future__ import annotations

from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import settle

SIZE = (140, 42)


async def test_an_apply_that_puts_files_back_counts_the_files(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=SIZE) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("r")
        await settle(pilot, claude_app)
        review = claude_app.screen
        assert isinstance(review, ReviewScreen)
        table = review.query_one("#changes", VirtualTable)
        rewrites = [r for r in table.rows if isinstance(r, ChangeRow) and "_" in r.change.note_id]
        table.cursor = table.rows.index(rewrites[0])
        await pilot.press("space")  # left out: its file's reviewed version is put back
        await pilot.press("a")
        await settle(pilot, claude_app)
        assert isinstance(claude_app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, claude_app, pause=0.2)
        assert isinstance(claude_app.screen, MainScreen)
        said = [str(n.message) for n in claude_app._notifications if n.title == "Applied"]
        assert len(said) == 1
        assert "0 notes" not in said[0] and "file" in said[0] and " written)" in said[0]
        runs = claude_app.screen.memory.journal.log()
        files = {run.file_name for run in runs if run.file_name}
        assert files and f"{len(files)} file" in said[0]


def test_the_refusal_names_the_review_among_what_writes(claude_app: NuggetsApp) -> None:
    refusal = claude_app.memory.profile.refusal
    assert "review you apply" in refusal
