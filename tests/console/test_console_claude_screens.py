"""What a careful user of the console on a Claude Code memory directory (the demo) would notice,
fixed generically: a file's flags said whole in the detail pane (the table cuts them, and at 80
columns leaves them out); the promotion screen of a store that promotes nothing says why, with
no Nuggets words and no "0 notes … 0."; an empty table's sentence wraps instead of being cut;
the review's archive change says where a deleted file's text stays."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from rich.text import Text

from core.clock import fixed_clock
from core.models import HideOp
from core.plans.preview import ChangeView
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.presentation import flags
from core.stores.claude.store import ClaudeStore
from core.stores.nuggets.presentation import PROFILE as NUGGETS
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.conflicts import NO_GROUPS, ConflictsScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.promote import PromoteScreen
from nuggets_tui.screens.review import ReviewScreen, change_text
from nuggets_tui.widgets.note_table import NoteTable
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import settle

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)


def plain(widget: object) -> str:
    return " ".join(str(widget.render()).split())  # type: ignore[attr-defined]


def table_text(table: VirtualTable, rows: int) -> str:
    return " ".join(" ".join(table.render_line(y).text.split()) for y in range(1, rows + 1))


async def test_the_detail_pane_says_a_files_flags_whole_at_80_columns(
    claude_app: NuggetsApp,
) -> None:
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        table = claude_app.screen.query_one(NoteTable)
        assert table.select_key("oncall.md")
        await settle(pilot, claude_app)
        assert table.current is not None
        said = flags(table.current)
        assert len(said) > 60  # more than any column holds
        assert " ".join(said.split()) in plain(claude_app.screen.query_one("#detail-body"))


async def test_promotion_of_a_store_that_promotes_nothing_says_only_why(
    claude_app: NuggetsApp,
) -> None:
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        main = claude_app.screen
        assert isinstance(main, MainScreen)
        await pilot.press("p")  # not offered here: p opens nothing
        await settle(pilot, claude_app)
        assert claude_app.screen is main
        claude_app.push_screen(PromoteScreen(claude_app.memory, None, None))  # pushed directly
        await settle(pilot, claude_app, pause=0.1)
        assert isinstance(claude_app.screen, PromoteScreen)
        assert claude_app.screen.check_action("write", ()) is False  # no a Write in its footer
        summary = plain(claude_app.screen.query_one("#promote-summary"))
        assert summary.startswith("Nothing can be written: promotion: not offered")
        assert "0 notes" not in summary and not summary.endswith("0.")
        table = claude_app.screen.query_one("#entries", VirtualTable)
        assert "recalled" not in table_text(table, 2)
        assert "Nothing is promoted here" in table_text(table, 2)


async def test_an_empty_tables_sentence_wraps_whole_at_140_columns(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("c")
        await settle(pilot, claude_app, pause=0.1)
        assert isinstance(claude_app.screen, ConflictsScreen)
        table = claude_app.screen.query_one("#groups", VirtualTable)
        assert table.scrollable_content_region.width < len(NO_GROUPS)  # it must wrap
        assert NO_GROUPS in table_text(table, 3)


async def test_the_review_says_where_a_deleted_files_text_stays(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("r")
        await settle(pilot, claude_app, pause=0.2)
        assert isinstance(claude_app.screen, ReviewScreen)
        pane = plain(claude_app.screen.query_one("#review-diff #diff-body"))
        assert pane.startswith("ARCHIVE the agent deleted this file")  # the first change
        assert "kept in our record of what was seen" in pane
        assert "kept in the file" not in pane


def test_nuggets_archive_change_reads_as_before() -> None:
    note = {"id": "n1", "title": "T", "content": "text"}
    view = ChangeView(op=HideOp(id=1, note_id="n1"), notes=(note,))
    text: Text = change_text(view, True, NUGGETS.archived_text)
    assert "  its text, kept in the file:\n" in text.plain


async def test_the_run_history_shows_the_file_a_run_wrote_and_its_diff(tmp_path: Path) -> None:
    directory = materialize_claude_demo(tmp_path / "demo-claude" / "memory", NOW)
    memory = ClaudeStore(directory, fixed_clock(NOW))
    memory.unhide(["reference_dashboards.md"])
    claude_app = NuggetsApp(memory)
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("l")
        await settle(pilot, claude_app, pause=0.1)
        shown = str(claude_app.screen.query_one("#run-diff #diff-body").render())
        assert "graph" not in shown
        assert "Created reference_dashboards.md." in shown
        text = (directory / "reference_dashboards.md").read_text()
        assert all(f"  + {row}" in shown for row in text.splitlines() if row.strip())


async def test_x_says_why_nothing_is_archived_by_hand_instead_of_asking(
    claude_app: NuggetsApp,
) -> None:
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("x")
        await settle(pilot, claude_app)
        assert isinstance(claude_app.screen, MainScreen)  # no dialog that could only fail
        said = [n.message for n in claude_app._notifications]
        assert any("Nothing is archived by hand here" in message for message in said)
