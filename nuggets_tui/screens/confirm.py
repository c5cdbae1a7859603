"""Questions before anything is written: yes or no, or one of several ways to go on."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen, ScreenResultType
from textual.widgets import Button, Static

from core.contract.profile import Profile

from ..safe import join, line
from .base import ConsoleDialog


def if_yes(action: Callable[[], object]) -> Callable[[bool | None], None]:
    """A ConfirmScreen's callback that runs `action` on yes (what it returns, a worker, is
    not wanted)."""

    def answered(yes: bool | None) -> None:
        if yes:
            action()

    return answered


def plan_asked(screen: Screen[Any], profile: Profile, plan: Callable[[], object]) -> None:
    """Plans at once, or, when planning may cost (`costly_plans`), asks first."""
    if not profile.capabilities.costly_plans:
        plan()
        return
    body = join(
        "Planning the ", line(profile.pass_label), ": ", line(profile.plan_cost), ".\n\nPlan now?"
    )
    screen.app.push_screen(ConfirmScreen("Planning may cost", body, yes="Plan"), if_yes(plan))


class _ButtonsDialog(ConsoleDialog[ScreenResultType]):
    """A title, a body that scrolls within the dialog, and a row of buttons under it."""

    def __init__(self, title: str, body: Text) -> None:
        """`body`: made with safe.py, like all text that may hold data."""
        super().__init__()
        self.title_text = line(title, "bold")
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            with VerticalScroll(id="dialog-scroll"):  # the buttons stay on a small terminal
                yield Static(self.body, id="dialog-body")
            with Horizontal(id="dialog-buttons"):
                yield from self.buttons()

    def buttons(self) -> Iterable[Button]:
        raise NotImplementedError


class ConfirmScreen(_ButtonsDialog[bool]):
    """Yes or no: y answers yes, n or escape cancels (dismissed with False)."""

    CANCEL = "confirm.no"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "cancel", "No", id=CANCEL),
    ]

    def __init__(self, title: str, body: Text, yes: str = "Yes", no: str = "Cancel") -> None:
        """`body`: made with safe.py, like all text that may hold data."""
        super().__init__(title, body)
        self.labels = (yes, no)

    def buttons(self) -> Iterable[Button]:
        yes, no = self.labels
        yield Button(line(f"{yes} ({self.keys_of('confirm.yes')})"), variant="primary", id="yes")
        yield self.cancel_button(no)

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(False)


class ChoiceScreen(_ButtonsDialog[str | None]):
    """A question with more than one way to go on: each choice a button with its own key;
    dismissed with the chosen value, or None (escape: nothing is done)."""

    DEFAULT_CSS = "ChoiceScreen { align: center middle; background: $background 60%; }"
    CANCEL = "choice.cancel"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id=CANCEL),
    ]

    def __init__(self, title: str, body: Text, choices: list[tuple[str, str, str]]) -> None:
        """`choices`: (key, label, value) each; `body` made with safe.py."""
        super().__init__(title, body)
        self.choices = choices

    def buttons(self) -> Iterable[Button]:
        for number, (key, label, _) in enumerate(self.choices):
            yield Button(
                line(f"{label} ({key})"),
                id=f"choice-{number}",
                variant="primary" if number == 0 else "default",
            )
        yield self.cancel_button()

    def on_mount(self) -> None:
        self.query_one("#choice-0", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        number = (event.button.id or "").removeprefix("choice-")
        self.dismiss(self.choices[int(number)][2] if number.isdigit() else None)

    def on_key(self, event: events.Key) -> None:
        chosen = next((value for key, _, value in self.choices if key == event.key), None)
        if chosen is not None:
            event.stop()
            self.dismiss(chosen)
