"""A file name asked for before anything is written (a note restored into a file)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from ..safe import line
from .base import ConsoleModal


class AskFileScreen(ConsoleModal[str | None]):
    """Enter answers with the name typed (none typed: no answer); escape cancels."""

    DEFAULT_CSS = """
    AskFileScreen { align: center middle; background: $background 60%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="ask_file.cancel"),
    ]

    def __init__(self, title: str, body: Text, placeholder: str = "") -> None:
        """`body`: made with safe.py, like all text that may hold data."""
        super().__init__()
        self.title_text = line(title, "bold")
        self.body = body
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield Static(self.body, id="dialog-body")
            yield Input(placeholder=self.placeholder, id="ask-file")

    def on_mount(self) -> None:
        self.query_one("#ask-file", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
