"""Every key of every screen, from the screens' own bindings."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ..keys import Keymap, key_sections
from ..safe import line
from .base import ConsoleModal


def keys_table(
    keymap: Keymap | None = None,
    hidden: Collection[str] = (),
    first: type | None = None,
    group: str = "nugget",
) -> Table:
    """Every key, as the keymap sets them, but the binding ids `hidden`; `first`: the screen
    whose keys come first; `group`: the open store's word for a group of its notes."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=True)
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("what it does")
    for section, rows in key_sections(keymap, hidden, first, group):
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


def not_offered(screens: Iterable[Screen[Any]]) -> set[str]:
    """The binding ids of keys the open screens refuse outright (`check_action` says False for
    every binding of the id: the store has no such part or capability), which the help leaves
    out."""
    said: dict[str, set[bool | None]] = {}
    for screen in screens:
        for binding in getattr(type(screen), "BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id is not None:
                _, action, parameters = parse(binding.action)
                said.setdefault(binding.id, set()).add(screen.check_action(action, parameters))
    return {binding_id for binding_id, answers in said.items() if answers == {False}}


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
            memory = getattr(self.app, "memory", None)
            group = memory.profile.group if memory is not None else "nugget"
            hidden = not_offered(self.app.screen_stack)
            keys = keys_table(keymap, hidden, self.opened_on, group)
            yield Static(keys, id="help-keys")
            yield Static(Text("escape closes this help.", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
