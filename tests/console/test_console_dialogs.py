"""One rule for every dialog of the console: escape cancels it (nothing is done), `n` too where
the answer is yes or no (a dialog with a `y` key), and elsewhere `n` is only a letter; a dialog
that asks says so on its last button, the same way in each: "Cancel (escape)", or
"Cancel (n / escape)" for a yes or no. The dialog classes are found by walking the console's
screens, so a new one is held to the rule: it needs a sample here."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button

from core.plans.review_rules import parse_rule
from nuggets_tui import screens
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.ask_file import AskFileScreen
from nuggets_tui.screens.base import ConsoleDialog, ConsoleModal
from nuggets_tui.screens.confirm import ChoiceScreen, ConfirmScreen
from nuggets_tui.screens.help import HelpScreen
from nuggets_tui.screens.rules import EditRuleScreen, SaveRuleScreen
from tests.support.console_support import make_app, settle

SIZE = (80, 24)  # the smallest terminal: every button in sight
BODY = Text("What would be written.\n\nGo on?")
RULE = parse_rule("no tags", "reject", kind="tag")
SAMPLES: dict[str, Callable[[], ConsoleModal[Any]]] = {
    "AskFileScreen": lambda: AskFileScreen("Restore into a file", BODY, answer="Show the diff"),
    "ChoiceScreen": lambda: ChoiceScreen(
        "Unhide this note", BODY, [("r", "Unhide and raise", "lift"), ("u", "Unhide", "plain")]
    ),
    "ConfirmScreen": lambda: ConfirmScreen("Archive this note", BODY, yes="Archive"),
    "EditRuleScreen": lambda: EditRuleScreen(RULE),
    "HelpScreen": lambda: HelpScreen(),
    "SaveRuleScreen": lambda: SaveRuleScreen(RULE),
}
ASKS_NOTHING = {"HelpScreen"}  # it only shows: escape closes it, and it has no Cancel button
CANCELLED: dict[str, object] = {"ConfirmScreen": False}  # a yes or no says no; the others None


def _subclasses(cls: type) -> Iterator[type]:
    sub: type
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def dialog_classes() -> set[type]:
    for module in pkgutil.iter_modules(screens.__path__):
        importlib.import_module(f"{screens.__name__}.{module.name}")
    return {
        cls
        for cls in _subclasses(ConsoleModal)
        if not cls.__name__.startswith("_") and cls is not ConsoleDialog  # the bases
    }


def yes_or_no(cls: type) -> bool:
    keys = {
        key.strip()
        for binding in getattr(cls, "BINDINGS", ())
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }
    return "y" in keys


def test_every_dialog_class_is_held_to_the_rule() -> None:
    found = dialog_classes()
    assert {cls.__name__ for cls in found} == set(SAMPLES), "give a new dialog a sample here"
    for cls in found:
        assert issubclass(cls, ConsoleDialog) or cls.__name__ in ASKS_NOTHING, cls.__name__


async def _pushed(
    pilot: Pilot[Any], app: NuggetsApp, name: str
) -> tuple[Screen[Any], list[object]]:
    """The sample dialog `name` opened over the main screen, and the answers it gives."""
    await settle(pilot, app)
    answers: list[object] = []
    dialog = SAMPLES[name]()
    app.push_screen(dialog, answers.append)
    await settle(pilot, app)
    assert app.screen is dialog
    return dialog, answers


@pytest.mark.parametrize("name", sorted(SAMPLES))
async def test_escape_cancels_every_dialog(home: Path, name: str) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        dialog, answers = await _pushed(pilot, app, name)
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is not dialog and answers == [CANCELLED.get(name)]


@pytest.mark.parametrize("name", sorted(SAMPLES))
async def test_n_cancels_a_yes_or_no_and_is_a_letter_elsewhere(home: Path, name: str) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        dialog, answers = await _pushed(pilot, app, name)
        await pilot.press("n")
        await settle(pilot, app)
        if yes_or_no(type(dialog)):
            assert app.screen is not dialog and answers == [CANCELLED.get(name)]
        else:
            assert app.screen is dialog and answers == []


@pytest.mark.parametrize("name", sorted(set(SAMPLES) - ASKS_NOTHING))
async def test_every_dialog_says_how_to_cancel_the_same_way(home: Path, name: str) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        dialog = SAMPLES[name]()
        app.push_screen(dialog)
        await settle(pilot, app)
        cancel = dialog.query_one("#cancel", Button)
        said = "Cancel (n / escape)" if yes_or_no(type(dialog)) else "Cancel (escape)"
        assert str(cancel.label) == said
        buttons = dialog.query_one("#dialog-buttons")
        assert list(buttons.query(Button))[-1] is cancel, "Cancel is the last button"
        box = dialog.query_one("#dialog").region
        assert box.y < cancel.region.y and cancel.region.bottom <= box.bottom, "in sight"
        await pilot.click(cancel)
        await settle(pilot, app)
        assert app.screen is not dialog
