"""The sidebar's list of nuggets with their counts; the first entry is every nugget."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core.browse.shelf import NuggetSummary
from core.contract.profile import Profile

from ..safe import counted, line

ALL = None


def _prompt(name: Text, notes: int, hidden: int, facts: int, fact_label: str | None) -> Text:
    """Two lines: the name with its visible notes, then archived and facts (`fact_label`: the
    store's word for them, None: not counted)."""
    second = counted(hidden, "archived", "archived")
    if fact_label is not None:
        second += " · " + counted(facts, fact_label)
    return Text.assemble(
        name, ("  " + counted(notes - hidden, "note"), "bold"), "\n", line(second, "dim")
    )


class NuggetList(OptionList):
    """Options: "all" then each nugget; `names[i]` is the nugget of option i (None for all)."""

    def __init__(self, words: Profile, *, id: str | None = None) -> None:
        """`words`: the store's (what its groups are called, and its facts)."""
        super().__init__(id=id)
        self.names: list[str | None] = []
        self.fact_label = words.fact_label if words.capabilities.fact_notes else None
        self.every = words.scope(None)  # the first option: every note

    def show(self, nuggets: list[NuggetSummary], selected: str | None) -> None:
        names: list[str | None] = [ALL, *(n.name for n in nuggets)]
        notes, hidden, facts = (
            sum(getattr(n, f) for n in nuggets) for f in ("notes", "hidden", "facts")
        )
        options = [
            Option(_prompt(line(self.every, style="bold"), notes, hidden, facts, self.fact_label))
        ]
        options += [
            Option(_prompt(line(n.name, style="bold"), n.notes, n.hidden, n.facts, self.fact_label))
            for n in nuggets
        ]
        if names == self.names and self.option_count == len(options):
            for index, option in enumerate(options):
                self.replace_option_prompt_at_index(index, option.prompt)
        else:
            self.names = names
            self.set_options(options)
        index = names.index(selected) if selected in names else 0
        self.highlighted = index

    @property
    def selected_name(self) -> str | None:
        index = self.highlighted
        return self.names[index] if index is not None and index < len(self.names) else None
