"""The console and secrets: the notes table marks a note holding one (S) and the detail pane
says why, masked, so the operator can archive it; the promotion screen holds it back and
shows it masked; a scope promotion refuses (a link in place of MEMORY.md) writes nothing."""

from __future__ import annotations

import html
import re
from pathlib import Path

from core.settings import load
from nuggets_tui.screens.promote import PromoteScreen
from nuggets_tui.widgets.note_table import NoteTable
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import make_app, pressed, settle
from tests.support.reliability_support import make_home, note

SIZE = (120, 40)
KEY = "ghp_" + "Zq8Xw2Lm5Np7Rt4Vy1Bc6Df9Gh3Jk0Ps8Ua"
MAIL = "ops.lead@acme-corp.io"


def _home(tmp_path: Path) -> Path:
    return make_home(
        tmp_path,
        [
            note("plain", "deploy", "run make deploy", hits=5),
            note("key", "ci token", f"CI pushes with {KEY}", hits=5),
            note("mail", "contact", f"Ask {MAIL} for access", hits=4),
            note("gone", "old key", f"was {KEY}", hidden=True),
        ],
    )


def _screen_text(app) -> str:  # type: ignore[no-untyped-def]
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r"<text [^>]*>(.*?)</text>", svg))).replace("\xa0", " ")


def _marks(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    table = app.screen.query_one(NoteTable)
    return {row["id"]: table.renderer.cells(row)[0].plain for row in table.rows}


async def test_the_notes_table_marks_notes_holding_a_secret(tmp_path: Path) -> None:
    app = make_app(_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert _marks(app) == {"plain": " ", "key": "S", "mail": "S"}
        assert app.screen.query_one(NoteTable).select_key("key")
        await settle(pilot, app)
        body = str(app.screen.query_one("#detail-body").render())
        assert "Holds a secret: it carries a GitHub token (ghp_…)" in body
        assert "x archives the note" in body
        await pilot.press("h")  # archived notes shown: A comes before S
        await settle(pilot, app)
        assert _marks(app)["gone"] == "A"


async def test_contact_details_are_not_marked_when_allowed(tmp_path: Path) -> None:
    app = make_app(_home(tmp_path), load({"NUGGETS_ALLOW_CONTACT": "1"}).settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert _marks(app) == {"plain": " ", "key": "S", "mail": " "}


async def test_the_promotion_screen_holds_a_secret_back_and_shows_it_masked(tmp_path: Path) -> None:
    app = make_app(_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = await pressed(pilot, app, "p", PromoteScreen)
        assert screen.plan is not None
        assert sorted(b.note_id for b in screen.plan.blocked) == ["key", "mail"]
        summary = str(screen.query_one("#promote-summary").render())
        assert (
            "2 held back: they read like instructions to the agent, hide characters or "
            "carry secrets" in summary
        )
        screen.query_one("#entries", VirtualTable).select_key("key")
        await settle(pilot, app)
        body = str(screen.query_one("#diff-body").render())
        assert "Held back: carries a GitHub token (ghp_…)" in body
        assert "The secret is masked here" in body and "CI pushes with ghp_…" in body
        assert KEY not in _screen_text(app) and MAIL not in _screen_text(app)


async def test_a_refused_scope_can_not_be_written_from_the_console(tmp_path: Path) -> None:
    home = _home(tmp_path)
    rc = tmp_path / "bashrc"
    rc.write_text("# rc\n")
    target = home / "memory" / "MEMORY.md"
    target.unlink()
    target.symlink_to(rc)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = await pressed(pilot, app, "p", PromoteScreen)
        summary = str(screen.query_one("#promote-summary").render())
        assert "Nothing can be written" in summary and "is a symbolic link" in summary
        assert screen.check_action("write", ()) is None
        await pilot.press("a")
        await settle(pilot, app)
        assert rc.read_text() == "# rc\n"
