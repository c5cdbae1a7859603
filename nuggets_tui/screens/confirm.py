"""A yes/no question before anything is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..safe import line


def if_yes(action: Callable[[], object]) -> Callable[[bool | None], None]:
    """A ConfirmScreen's callback that runs `action` on yes (what it returns, a worker, is
    not wanted)."""

    def answered(yes: bool | None) -> None:
        if yes:
            action()

    return answered


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, title: str, body: Text, yes: str = "Yes", no: str = "Cancel") -> None:
        """`body`: made with safe.py, like all text that may hold data."""
        super().__init__()
        self.title_text = line(title, "bold")
        self.body = body
        self.labels = (line(f"{yes} (y)"), line(f"{no} (n)"))

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield Static(self.body, id="dialog-body")
            with Horizontal(id="dialog-buttons"):
                yield Button(self.labels[0], variant="primary", id="yes")
                yield Button(self.labels[1], id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
