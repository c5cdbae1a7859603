"""A file name asked for before anything is written (a note restored into a file)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from ..safe import line
from .base import ConsoleDialog


class AskFileScreen(ConsoleDialog[str | None]):
    """Enter answers with the name typed (none typed: no answer); escape cancels."""

    DEFAULT_CSS = """
    AskFileScreen { align: center middle; background: $background 60%; }
    """
    CANCEL = "ask_file.cancel"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id=CANCEL),
    ]

    def __init__(self, title: str, body: Text, placeholder: str = "", answer: str = "OK") -> None:
        """`body`: made with safe.py, like all text that may hold data; `answer`: what enter
        does, on its button."""
        super().__init__()
        self.title_text = line(title, "bold")
        self.body = body
        self.placeholder = placeholder
        self.answer = answer

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield Static(self.body, id="dialog-body")
            yield Input(placeholder=self.placeholder, id="ask-file")
            with Horizontal(id="dialog-buttons"):
                yield Button(line(f"{self.answer} (enter)"), variant="primary", id="answer")
                yield self.cancel_button()

    def on_mount(self) -> None:
        self.query_one("#ask-file", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._answer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "answer":
            self._answer()
        else:
            self.action_cancel()

    def _answer(self) -> None:
        self.dismiss(self.query_one("#ask-file", Input).value.strip() or None)
