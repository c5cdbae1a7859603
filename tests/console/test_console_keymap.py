"""The config file's keymap (README.md, "Configuration"): a binding id moved to other keys is
pressed there and no longer on its own key; the footer, the help and the palette say the keys as
moved; every binding of the console has an id for it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from textual.binding import Binding
from textual.widgets import Static

from nuggets_tui.keys import binding_ids, console_bindings
from nuggets_tui.screens.help import HelpScreen
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.support.console_support import make_app, settle

SIZE = (120, 40)
KEYMAP = {"main.history": "f2", "app.help": "f1", "list.down": "down,n"}


async def test_the_keymap_moves_a_binding_to_its_new_keys(home: Path) -> None:
    app = make_app(home, keymap=KEYMAP)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("l")  # the history's own key does nothing now
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        assert "f2" in [key for key, *_ in app.screen.active_bindings.items()]
        await pilot.press("f2")
        await settle(pilot, app)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        await settle(pilot, app)
        notes = app.screen.query_one(NoteTable)
        start = notes.cursor
        await pilot.press("j")  # moved away: j is no longer "down"
        assert notes.cursor == start
        await pilot.press("n")
        assert notes.cursor == start + 1
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Runs (f2)" in titles and not any(t.startswith("Runs (l)") for t in titles)
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=120, record=True)
        console.print(app.screen.query_one("#help-keys", Static).content)
        rows = [line.split() for line in console.export_text().splitlines()]
        assert ["f1", "Help"] in rows and ["?", "Help"] not in rows
        assert any(row[:2] == ["f2", "Every"] for row in rows), rows  # "Every applied run ..."


async def test_without_a_keymap_the_keys_are_the_defaults(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("l")
        await settle(pilot, app)
        assert isinstance(app.screen, HistoryScreen)


def test_every_binding_of_the_console_has_an_id() -> None:
    """What a keymap can move: every binding, the movement keys and the second bindings of a
    key (r while the plan is current, u on a run undone) included."""
    bindings = list(console_bindings())
    assert len(bindings) > 70
    missing = [f"{b.key} -> {b.action}" for b in bindings if isinstance(b, Binding) and not b.id]
    assert missing == []
    assert {
        "app.help",
        "main.history",
        "review.replan",
        "history.undo",
        "list.down",
    } <= binding_ids()
