"""Keys follow the open store's parts and capabilities: a key that cannot work is neither in the
footer nor in the help, and pressing it opens nothing; a key shown but refused says why at once,
never after a confirmation."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.conflicts import ConflictsScreen
from nuggets_tui.screens.help import HelpScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.footer import Footer
from tests.support.console_support import make_app, on_top, settle
from tests.support.microclaw_support import NOW as MICROCLAW_NOW

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-reconciliation"
NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (160, 40)


def purifier_app(tmp_path: Path) -> NuggetsApp:
    root = tmp_path / "copy"
    shutil.copytree(FIXTURE, root)
    return NuggetsApp(PurifierStore(root / "workspace", fixed_clock(NOW)))


async def _help_text(pilot, app: NuggetsApp) -> str:  # type: ignore[no-untyped-def]
    await pilot.press("question_mark")
    await settle(pilot, app)
    assert isinstance(app.screen, HelpScreen)
    console = Console(width=300, record=True)
    console.print(app.screen.query_one("#help-keys", Static).content)
    text = " ".join(console.export_text().split())
    await pilot.press("escape")
    await settle(pilot, app)
    return text


def _footer(app: NuggetsApp) -> list[str]:
    """The keys the footer offers, by their descriptions."""
    return [key.description for key in app.screen.query_one(Footer).query(FooterKey)]


async def test_nuggets_help_offers_no_marks_and_no_versions(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        said = await _help_text(pilot, app)
        assert "Mark the selected note" not in said
        assert "The versions kept of the selected note" not in said
        assert "Kept versions (V)" not in said
        assert "Promote durable notes" in said  # Nuggets promotes
        await pilot.press("m", "V")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)


async def test_purifier_help_offers_marks_but_no_promotion(tmp_path: Path) -> None:
    app = purifier_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        said = await _help_text(pilot, app)
        assert "Mark the selected note" in said  # the purifier's store keeps marks
        assert "Promote durable notes" not in said and "Promotion (p)" not in said


async def test_p_opens_nothing_where_nothing_is_promoted(
    tmp_path: Path, claude_app: NuggetsApp
) -> None:
    for app in (claude_app, purifier_app(tmp_path)):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "Review" in _footer(app) and "Promote" not in _footer(app)
            await pilot.press("p")
            await settle(pilot, app)
            assert isinstance(app.screen, MainScreen)


async def test_purifier_x_says_read_only_at_once_without_a_dialog(tmp_path: Path) -> None:
    app = purifier_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("x")
        await settle(pilot, app)
        assert not isinstance(app.screen, ConfirmScreen)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "read-only" in said


QUEUE_DECIDING = ("Pick note", "One stands", "Merge", "Apply")


async def _open_queue(pilot, app: NuggetsApp) -> ConflictsScreen:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("c")
    await settle(pilot, app)
    return on_top(app, ConflictsScreen)


async def test_the_purifier_queue_offers_only_both_stand(tmp_path: Path) -> None:
    """The purifier decides nothing here (no decider): space, o, m and a are neither in the
    footer nor in the help, pressing them plans nothing and refuses nothing afterwards; b, the
    one way offered, stays; the summary says why at once."""
    workspace = materialize_purifier_demo(tmp_path / "demo-purifier" / "workspace", NOW)
    app = NuggetsApp(PurifierStore(workspace, fixed_clock(NOW)))
    async with app.run_test(size=(80, 24)) as pilot:
        queue = await _open_queue(pilot, app)
        assert queue.group is not None and not queue.group.outdated  # a group to decide
        footer = _footer(app)
        assert "Both stand" in footer and not set(QUEUE_DECIDING) & set(footer)
        summary = str(queue.query_one("#conflicts-summary", Static).render())
        assert "to keep one note: a memory-purifier workspace is read-only here" in summary
        pane = queue.query_one(DiffView)._text.plain
        assert "▶ stands if you decide" not in pane and " o it stands" not in pane
        await pilot.press("space", "o", "m", "a")
        await settle(pilot, app)
        assert app.screen is queue and queue.decision is None
        assert not app._notifications  # nothing planned, nothing refused after the fact
        said = await _help_text(pilot, app)  # the help says each key by what it does
        assert "Every note of the group stands" in said
        for refused in (
            "Pick the note under the cursor",
            "The picked note stands",
            "Merge the others into the picked note",
            "Apply the decision shown",
        ):
            assert refused not in said


async def test_the_claude_queue_offers_no_decision(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=(140, 42)) as pilot:
        await _open_queue(pilot, claude_app)
        footer = _footer(claude_app)
        assert "Both stand" in footer and not set(QUEUE_DECIDING) & set(footer)


async def test_a_nuggets_queue_still_offers_every_decision(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(140, 42)) as pilot:
        await _open_queue(pilot, app)
        assert set(QUEUE_DECIDING) <= set(_footer(app)) | {"Apply"}
        assert {"Pick note", "One stands", "Merge"} <= set(_footer(app))


async def test_microclaw_help_leaves_out_merge_and_keeps_one_stands(data_dir: Path) -> None:
    """Rows cannot be merged: the queue's m (decide('merge')) is refused for that parameter
    alone, and the help reads each key's own parameters to leave it out."""
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW)))
    async with app.run_test(size=(140, 42)) as pilot:
        await _open_queue(pilot, app)
        assert "One stands" in _footer(app) and "Merge" not in _footer(app)
        said = await _help_text(pilot, app)
        assert "The picked note stands" in said
        assert "Merge the others into the picked note" not in said


async def test_the_help_and_the_review_search_name_a_group_in_the_stores_words(
    home: Path, tmp_path: Path, claude_app: NuggetsApp, data_dir: Path
) -> None:
    """Claude Code groups its files by type, MicroClaw its rows by scope, the purifier its
    claims by home: the help and the review's search say so, never "nugget"."""
    apps = {
        "nugget": make_app(home),
        "type": claude_app,
        "scope": NuggetsApp(MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW))),
        "home": purifier_app(tmp_path),
    }
    for group, app in apps.items():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            said = await _help_text(pilot, app)
            assert f"Group the changes by kind or by {group}" in said, group
            assert ("nugget" in said) == (group == "nugget"), group
            await pilot.press("r")
            await settle(pilot, app)
            if isinstance(app.screen, ConfirmScreen):  # a costly plan (the purifier's) asks
                await pilot.press("y")
                await settle(pilot, app)
            search = app.screen.query_one("#review-search", Input)
            assert search.placeholder == f"/ search the changes: note, {group} or detail"
