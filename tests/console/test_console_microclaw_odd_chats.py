"""`p` and `f` in the console on odd chats: a 300-character channel, a chat with no channel, an
AGENTS.md that is not UTF-8, a FIFO AGENTS.md. Each is named in one line, every other scope is
promoted, and nothing ends in a traceback (docs/MICROCLAW_WRITES.md, "Promotion to AGENTS.md")."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.files import FilesScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.promote import PromoteScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.nugget_list import NuggetList
from tests.support.console_support import settle
from tests.support.microclaw_rows import insert, make_db

SIZE = (140, 40)
LONG_CHANNEL = "c" * 300
CHATS = [
    (7, "telegram", "x" * 300),
    (8, LONG_CHANNEL, "8"),
    (9, "telegram", "9"),
    (10, "telegram", "10"),
    (11, None, "11"),
]


def odd_store(tmp_path: Path) -> MicroClawStore:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    for chat_id, channel, external in CHATS:
        conn.execute(
            "INSERT INTO chats VALUES (?, 't', 'private', '2026-10-01', ?, ?)",
            (chat_id, channel, external),
        )
        insert(
            conn,
            f"Chat {chat_id} likes green tea",
            chat_id=chat_id,
            category="PROFILE",
            confidence=0.9,
        )
    insert(conn, "The project deploys on Fridays", category="PROFILE", confidence=0.9)
    conn.commit()
    conn.close()
    groups = db.parent / "groups" / "telegram"
    for chat in ("7", "9", "10"):
        (groups / chat).mkdir(parents=True)
    (groups / "9" / "AGENTS.md").write_bytes(b"# Chat\n\xff\xfe\n")
    os.mkfifo(groups / "10" / "AGENTS.md")
    return MicroClawStore(db.parent.parent)


async def choose(pilot: object, app: NuggetsApp, nugget: str | None) -> None:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    names = screen.query_one(NuggetList).names
    screen.query_one(NuggetList).highlighted = names.index(nugget)
    await settle(pilot, app)  # type: ignore[arg-type]
    assert screen.nugget == nugget


def said(app: NuggetsApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
async def test_p_and_f_name_each_odd_chat_in_one_line_and_promote_the_others(
    tmp_path: Path,
) -> None:
    store = odd_store(tmp_path)
    groups = store.home / "runtime" / "groups"
    app = NuggetsApp(store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        nuggets = app.screen.query_one(NuggetList).names
        odd = {
            f"{LONG_CHANNEL}:8": "its channel is not a name a folder can have",
            "telegram:9": "UTF-8",
            "telegram:10": "not promoted",
            next(n for n in nuggets if n and "11" in n): "its channel is not known",
        }
        for nugget, why in odd.items():
            await choose(pilot, app, nugget)
            await pilot.press("p")
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, PromoteScreen)
            shown = "\n".join([*said(app), str(screen.query_one("#promote-summary").render())])
            assert "Traceback" not in shown
            assert [s for s in shown.splitlines() if nugget in s and why in s], shown
            await pilot.press("a")  # nothing to write: no confirmation comes
            await settle(pilot, app)
            assert not isinstance(app.screen, ConfirmScreen)
            await pilot.press("escape")
            await settle(pilot, app)
            await pilot.press("f")
            await settle(pilot, app)
            assert isinstance(app.screen, FilesScreen)
            assert "Traceback" not in app.screen.query_one("#file-text", DiffView)._text.plain
            await pilot.press("escape")
            await settle(pilot, app)
        chosen: list[tuple[str | None, Path]] = [
            (f"telegram:{'x' * 300}", groups / "telegram/7/AGENTS.md"),
            (None, groups / "AGENTS.md"),
        ]
        for target, path in chosen:
            await choose(pilot, app, target)
            await pilot.press("p")
            await settle(pilot, app)
            await pilot.press("a")
            await settle(pilot, app)
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            await settle(pilot, app)
            assert isinstance(app.screen, MainScreen)
            assert "likes green tea" in path.read_text() or "Fridays" in path.read_text()
    assert (groups / "telegram/9/AGENTS.md").read_bytes() == b"# Chat\n\xff\xfe\n"
    assert not (groups / LONG_CHANNEL[:200]).exists()
