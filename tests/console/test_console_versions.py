"""V on the main screen: the versions a store keeps of the selected note (capability
"versions", docs/STORES.md), at 80×24 — each listed with when it was first seen, its size and its
hash; the highlighted one's text, and with d its diff against the note now; a version whose copy
is missing says so. Browsing writes nothing, neither in the directory nor in the record; a store
that keeps no versions offers no V. The directory is written by hand as in
tests/stores/test_claude.py."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from core.clock import fixed_clock
from core.stores.claude.store import ClaudeStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.versions import VersionsScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.stores.test_claude import store, write_directory
from tests.support.console_support import demo_home, make_app, settle
from tests.support.tree import hashes

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (80, 24)
FIRST = b"---\nname: Role\ndescription: who\ntype: user\n---\n\nBackend engineer.\n"
SECOND = FIRST.replace(b"Backend engineer.", b"Backend engineer, on call on Fridays.")


def two_versions(tmp_path: Path) -> Path:
    """A topic file seen as FIRST, then rewritten by the agent to SECOND and seen again."""
    directory = write_directory(tmp_path / "project")
    (directory / "user_role.md").write_bytes(FIRST)
    store(directory, tmp_path).read()
    (directory / "user_role.md").write_bytes(SECOND)
    store(directory, tmp_path).read()
    return directory


def pane_text(app: NuggetsApp) -> str:
    return str(app.screen.query_one("#version-text #diff-body").render())


def listed(app: NuggetsApp) -> list[str]:
    options = app.screen.query_one("#versions")
    return [
        str(options.get_option_at_index(i).prompt)  # type: ignore[attr-defined]
        for i in range(options.option_count)  # type: ignore[attr-defined]
    ]


async def open_versions(app: NuggetsApp, pilot, note_id: str) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    assert app.screen.query_one(NoteTable).select_key(note_id)
    await pilot.press("V")
    await settle(pilot, app, pause=0.1)
    assert isinstance(app.screen, VersionsScreen)


async def test_v_lists_the_kept_versions_shows_text_and_diff_and_writes_nothing(
    tmp_path: Path,
) -> None:
    directory = two_versions(tmp_path)
    memory = ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record")
    app = NuggetsApp(memory)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        before = hashes(tmp_path)  # after the console's own opening record
        await open_versions(app, pilot, "user_role.md")
        rows = listed(app)
        assert len(rows) == 2
        assert f"{len(FIRST)} bytes" in rows[0] and f"{len(SECOND)} bytes" in rows[1]
        assert hashlib.sha256(FIRST).hexdigest()[:12] in rows[0]
        assert "on call on Fridays" in pane_text(app)  # the newest, highlighted first
        await pilot.press("up")
        await settle(pilot, app)
        assert "on call on Fridays" not in pane_text(app)
        assert "Backend engineer." in pane_text(app)
        await pilot.press("d")
        await settle(pilot, app)
        diff = pane_text(app)
        assert "- Backend engineer." in diff
        assert "+ Backend engineer, on call on Fridays." in diff
        await pilot.press("down")  # the newest against the note now: the same
        await settle(pilot, app)
        assert "The same as the note now." in pane_text(app)
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        assert hashes(tmp_path) == before


async def test_a_version_whose_copy_is_gone_says_so(tmp_path: Path) -> None:
    directory = two_versions(tmp_path)
    (tmp_path / "record" / "seen" / "blobs" / hashlib.sha256(FIRST).hexdigest()).unlink()
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), record_root=tmp_path / "record"))
    async with app.run_test(size=SIZE) as pilot:
        await open_versions(app, pilot, "user_role.md")
        assert "copy missing" in listed(app)[0]
        await pilot.press("up")
        await settle(pilot, app)
        assert "its kept copy is missing or damaged" in pane_text(app)


async def test_a_store_that_keeps_no_versions_offers_no_v(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.screen.check_action("versions", ()) is False
        await pilot.press("V")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
