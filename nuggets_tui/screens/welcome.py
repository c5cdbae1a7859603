"""Shown when the default memory directory does not exist: say so, and offer the demo of each
memory system the registry holds (the one asked for first)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.contract.kind import StoreKind

from ..safe import join, line, shown_path
from ..widgets.footer import Footer
from .base import ConsoleScreen


def _options(kinds: Sequence[StoreKind]) -> str:
    """`nuggets --home DIR`, `--microclaw DIR`, ...: how to name each system's directory."""
    named = [f"{k.home_option} {'[DIR]' if k.home_optional else 'DIR'}" for k in kinds]
    return "nuggets " + (f"{', '.join(named[:-1])} or {named[-1]}" if len(named) > 1 else named[0])


class WelcomeScreen(ConsoleScreen[StoreKind]):
    """Dismissed with the memory system whose demo to open (q quits instead)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "demo(0)", "Open the demo", id="welcome.demo"),  # the one asked for
    ]

    def __init__(self, home: Path, demos: Sequence[StoreKind]) -> None:
        """`demos`: the systems whose demo is offered, the one asked for first (`d`)."""
        super().__init__()
        self.home = home
        self.demos = list(demos)

    def compose(self) -> ComposeResult:
        message = join(
            ("No memory here yet\n\n", "bold"),
            "There is no memory directory at ",
            line(shown_path(self.home), "bold"),
            ". Name one with ",
            line(_options(self.demos), "bold"),
            "; or open a demo (its number, or enter) to review, apply, undo and promote "
            "without touching anything of yours:",
        )
        with Vertical(id="dialog"):
            yield Static(message, id="dialog-body")
            yield OptionList(
                *(
                    Option(
                        join(
                            line(f"{number}  {kind.title} demo", "bold"),
                            line(f": {kind.demo_about}"),
                        ),
                        id=kind.name,
                    )
                    for number, kind in enumerate(self.demos, start=1)
                ),
                id="demos",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#demos", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_demo(event.option_index)

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            number = int(event.character)
            if 1 <= number <= len(self.demos):
                event.stop()
                self.action_demo(number - 1)

    def action_demo(self, index: int) -> None:
        self.dismiss(self.demos[index])
