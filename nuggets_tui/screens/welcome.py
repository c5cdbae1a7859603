"""Shown when the default memory directory does not exist: say so, and offer the demo."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..safe import join, line, shown_path
from ..widgets.footer import Footer
from .base import ConsoleScreen


class WelcomeScreen(ConsoleScreen[bool]):
    """Dismissed with True to open the demo memory."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "demo", "Open the demo", id="welcome.demo"),
    ]

    def __init__(self, home: Path) -> None:
        super().__init__()
        self.home = home

    def compose(self) -> ComposeResult:
        message = join(
            ("No memory here yet\n\n", "bold"),
            "There is no memory directory at ",
            line(shown_path(self.home), "bold"),
            ".\n\n",
            "Point the console at an agent's memory with ",
            ("nuggets --home DIR", "bold"),
            " or ",
            ("$NUGGETS_HOME", "bold"),
            ". Or look around the built-in demo memory: a "
            "realistic, messy 300-note memory that you can review, apply, undo and promote "
            "without touching anything of yours.",
        )
        with Vertical(id="dialog"):
            yield Static(message, id="dialog-body")
            with Horizontal(id="dialog-buttons"):
                yield Button("Open the demo (d)", variant="primary", id="demo")
                yield Button("Quit (q)", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#demo", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "demo":
            self.dismiss(True)
        else:
            self.app.exit()

    def action_demo(self) -> None:
        self.dismiss(True)
