"""Every key of every screen, from the screens' own bindings."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..keys import Keymap, key_sections
from ..safe import line
from .base import ConsoleModal


def keys_table(keymap: Keymap | None = None, first: type | None = None) -> Table:
    """Every key, as the keymap sets them; `first`: the screen whose keys come first."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("what it does")
    for section, rows in key_sections(keymap, first):
        table.add_row(line(section, "bold underline"), "")
        for key, description, _ in rows:
            table.add_row(line(key), line(description))
        table.add_row("", "")
    table.add_row(Text("In the notes table", style="bold underline"), "")
    table.add_row(Text("A"), Text("marks an archived note (shown with h)"))
    table.add_row(
        Text("Verdict"),
        Text(
            "the scorer's advice: reject, defer, compress, merge or "
            "promote (v filters by it; the detail pane explains each "
            "score in words)"
        ),
    )
    return table


class HelpScreen(ConsoleModal[None]):
    """Every key, the keys of the screen it was opened on first (as lazygit and k9s do)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, opened_on: type | None = None) -> None:
        super().__init__()
        self.opened_on = opened_on

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "keymap", None)
        with VerticalScroll(id="dialog"):
            yield Static(Text("Keys", style="bold"), id="dialog-title")
            yield Static(keys_table(keymap, self.opened_on), id="help-keys")
            yield Static(Text("escape closes this help.", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
