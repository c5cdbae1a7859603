"""Keys follow the open store's parts and capabilities: a key that cannot work is neither in the
footer nor in the help, and pressing it opens nothing; a key shown but refused says why at once,
never after a confirmation."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from core.clock import fixed_clock
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.help import HelpScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.footer import Footer
from tests.support.console_support import make_app, settle

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
