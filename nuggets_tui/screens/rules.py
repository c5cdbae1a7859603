"""Review rules in the console (docs/REVIEW.md): save a group's or a search's decision as a named
rule (`s` in the review), and list, edit (action, name, conditions) and remove the rules (`R`).
Every save and removal is a journaled run of the store, which ctrl+z on the main screen undoes."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from core.contract.store import Store
from core.errors import ArgumentError, NuggetsError
from core.plans.review_rules import (
    ACTIONS,
    KINDS,
    Rule,
    add_rule,
    parse_rule,
    remove_rule,
    replace_rule,
    store_rules,
)
from core.safeio.inert_text import one_line

from ..safe import block, join, line, notify
from ..widgets.footer import Footer
from .base import ConsoleDialog, ConsoleScreen
from .confirm import ConfirmScreen, if_yes


def save_rule(screen: Widget, memory: Store, rule: Rule) -> bool:
    """Write the rule as a journaled run; a refusal is one line on the screen."""
    try:
        entry = add_rule(memory, rule)
    except NuggetsError as exc:
        notify(screen, line(str(exc)), title="Rule not saved", severity="error", timeout=8)
        return False
    _tell_saved(screen, rule, entry.run_id)
    return True


def _tell_saved(screen: Widget, rule: Rule, run_id: str) -> None:
    notify(
        screen,
        line(
            f"Saved rule {rule.name}: {rule.describe()} (run {run_id}; "
            "ctrl+z on the main screen undoes it)."
        ),
        title="Rule saved",
        timeout=5,
    )


class SaveRuleScreen(ConsoleDialog[str | None]):
    """Names a rule made from the review's decision; dismissed with the name (None: cancel)."""

    DEFAULT_CSS = """
    SaveRuleScreen { align: center middle; background: $background 60%; }
    SaveRuleScreen #rule-name { width: 1fr; margin: 0; }
    """

    CANCEL = "save_rule.cancel"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id=CANCEL),
    ]

    def __init__(self, rule: Rule) -> None:
        super().__init__()
        self.rule = rule

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(line("Save as a review rule", "bold"), id="dialog-title")
            yield Static(
                join(
                    line(self.rule.describe(), "bold"),
                    "\n\n",
                    block(
                        "Every new plan applies it, and daily too; R lists the "
                        "rules and edits them. Name it:"
                    ),
                ),
                id="dialog-body",
            )
            yield Input(value=self.rule.name, id="rule-name")
            with Horizontal(id="dialog-buttons"):
                yield Button(line("Save (enter)"), variant="primary", id="save")
                yield self.cancel_button()

    def on_mount(self) -> None:
        self.query_one("#rule-name", Input).focus()

    @on(Input.Submitted, "#rule-name")
    @on(Button.Pressed, "#save")
    def _named(self) -> None:
        self.dismiss(self.query_one("#rule-name", Input).value.strip() or None)

    @on(Button.Pressed, "#cancel")
    def _cancelled(self) -> None:
        self.action_cancel()


# The form's fields: the rule's name, then each condition (its action has its own key, `a`).
FORM_FIELDS = ("name", *(f.name for f in fields(Rule)[2:]))
FORM_HINTS = {
    "name": "",
    "kind": " | ".join(KINDS),
    "step": "text in the change's reason",
    "text": "in the note, its reason, nugget or id",
    "nugget": "the nugget's name",
}


def rule_from_form(values: dict[str, str], action: str) -> Rule:
    """The rule a filled form stands for; ArgumentError (one line) on what cannot be one."""
    conditions: dict[str, str | int | None] = {}
    for key in FORM_FIELDS[1:]:
        value = values.get(key, "").strip()
        if key.startswith(("min_", "max_")) and value:
            if not value.isdigit():
                raise ArgumentError(f"a rule's {key.replace('_', '-')} is a whole number ≥ 0")
            conditions[key] = int(value)
        else:
            conditions[key] = value or None
    return parse_rule(values.get("name", ""), action, **conditions)


class EditRuleScreen(ConsoleDialog[Rule | None]):
    """A rule's name and conditions as a small form; dismissed with the edited rule once it
    is one (None: cancel). Nothing is written here."""

    DEFAULT_CSS = """
    EditRuleScreen { align: center middle; background: $background 60%; }
    EditRuleScreen .form-row { height: 1; }
    EditRuleScreen .form-label { width: 14; }
    EditRuleScreen Input { width: 1fr; }
    EditRuleScreen #form-error { color: $error; height: auto; }
    """

    CANCEL = "edit_rule.cancel"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id=CANCEL),
    ]

    def __init__(self, rule: Rule) -> None:
        super().__init__()
        self.rule = rule

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                line(f"Edit the rule {self.rule.name} ({self.rule.action})", "bold"),
                id="dialog-title",
            )
            for key in FORM_FIELDS:
                value = getattr(self.rule, key)
                with Horizontal(classes="form-row"):
                    yield Static(line(key.replace("_", " ")), classes="form-label")
                    yield Input(
                        "" if value is None else str(value),
                        compact=True,
                        placeholder=FORM_HINTS.get(
                            key, "a whole number of days" if "age" in key else "a whole number"
                        ),
                        id=f"form-{key}",
                    )
            yield Static("", id="form-error")
            yield Static(
                line("Empty: no condition. Saving is journaled: ctrl+z undoes it."),
                id="dialog-body",
            )
            with Horizontal(id="dialog-buttons"):
                yield Button(line("Save (enter)"), variant="primary", id="save")
                yield self.cancel_button()

    def on_mount(self) -> None:
        self.query_one("#form-name", Input).focus()

    @on(Button.Pressed, "#cancel")
    def _cancelled(self) -> None:
        self.action_cancel()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def _submitted(self) -> None:
        values = {key: self.query_one(f"#form-{key}", Input).value for key in FORM_FIELDS}
        try:
            rule = rule_from_form(values, self.rule.action)
        except ArgumentError as exc:
            self.query_one("#form-error", Static).update(line(str(exc)))
            return
        self.dismiss(rule)


class RulesScreen(ConsoleScreen[None]):
    """The rules kept for this memory, in the order they apply (the first that matches wins)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "a",
            "cycle_action",
            "Action",
            id="rules.action",
            tooltip="Change the highlighted rule's action: keep, reject, review",
        ),
        Binding(
            "e",
            "edit",
            "Edit",
            id="rules.edit",
            tooltip="Rename the highlighted rule or edit its conditions, in a small form "
            "(journaled; ctrl+z undoes it)",
        ),
        Binding(
            "d",
            "remove",
            "Remove",
            id="rules.remove",
            tooltip="Remove the highlighted rule (journaled; ctrl+z undoes it)",
        ),
        Binding("escape", "back", "Back", id="rules.back", tooltip="Back to the review"),
    ]

    def __init__(self, memory: Store) -> None:
        super().__init__()
        self.memory = memory
        self.rules: list[Rule] = []

    def compose(self) -> ComposeResult:
        yield Static(
            line(
                "Review rules: the first that matches a change decides it; your own "
                "decision on a change comes first.",
                "bold",
            ),
            id="rules-title",
        )
        yield OptionList(id="rules-list")
        yield Footer()

    def on_mount(self) -> None:
        self._load()
        self.query_one(OptionList).focus()

    def _load(self, keep: int = 0) -> None:
        listing = self.query_one(OptionList)
        listing.clear_options()
        try:
            self.rules = store_rules(self.memory)
        except NuggetsError as exc:
            self.rules = []
            listing.add_option(Option(line(str(exc), "red"), disabled=True))
            return
        for rule in self.rules:
            listing.add_option(Option(self._row(rule)))
        if not self.rules:
            listing.add_option(
                Option(
                    Text(
                        "No rules yet: s in the review saves a group's or a "
                        "search's decision as one.",
                        style="dim",
                    ),
                    disabled=True,
                )
            )
        elif listing.option_count:
            listing.highlighted = min(keep, listing.option_count - 1)

    @staticmethod
    def _row(rule: Rule) -> Text:
        colour = {"keep": "green", "reject": "red", "review": "yellow"}[rule.action]
        return join(
            line(f"{rule.action:<7}", f"bold {colour}"),
            " ",
            line(rule.name, "bold"),
            "  ",
            line(rule.when(), "dim"),
        )

    def _current(self) -> tuple[int, Rule] | None:
        index = self.query_one(OptionList).highlighted
        if index is None or index >= len(self.rules):
            return None
        return index, self.rules[index]

    def action_cycle_action(self) -> None:
        found = self._current()
        if found is None:
            return
        index, rule = found
        action = ACTIONS[(ACTIONS.index(rule.action) + 1) % len(ACTIONS)]
        changed = replace(rule, action=action)
        if save_rule(self, self.memory, changed):
            self._load(index)

    def action_edit(self) -> None:
        found = self._current()
        if found is None:
            return
        index, rule = found

        def edited(changed: Rule | None) -> None:
            if changed is not None and changed != rule:
                self._replace(index, rule, changed)

        self.app.push_screen(EditRuleScreen(rule), edited)

    def _replace(self, index: int, rule: Rule, changed: Rule) -> None:
        try:
            entry = replace_rule(self.memory, rule.name, changed)
        except NuggetsError as exc:
            notify(self, line(str(exc)), title="Rule not saved", severity="error", timeout=8)
            return
        _tell_saved(self, changed, entry.run_id)
        self._load(index)

    def action_remove(self) -> None:
        found = self._current()
        if found is None:
            return
        index, rule = found
        body = block(
            f"Remove the rule {one_line(rule.name)} ({rule.describe()})? Plans made "
            "after no longer apply it. Journaled: ctrl+z on the main screen undoes it."
        )
        self.app.push_screen(
            ConfirmScreen("Remove a review rule", body, yes="Remove"),
            if_yes(lambda: self._remove(index, rule)),
        )

    def _remove(self, index: int, rule: Rule) -> None:
        try:
            entry = remove_rule(self.memory, rule.name)
        except NuggetsError as exc:
            notify(self, line(str(exc)), title="Rule not removed", severity="error", timeout=8)
            return
        notify(self, line(f"Removed rule {rule.name} (run {entry.run_id})."), timeout=4)
        self._load(index)

    def action_back(self) -> None:
        self.dismiss(None)
