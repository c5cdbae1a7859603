"""A one-line progress strip for work running in the background."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class Busy(Horizontal):
    DEFAULT_CSS = """
    Busy { height: 1; display: none; padding: 0 1; background: $boost; }
    Busy.-active { display: block; }
    Busy Label { width: auto; margin-right: 2; }
    Busy ProgressBar { width: 30; }
    """

    def compose(self) -> ComposeResult:
        yield Label("", id="busy-label")
        yield ProgressBar(total=None, show_eta=False, show_percentage=False)

    def start(self, what: str) -> None:
        self.query_one(Label).update(what)
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.add_class("-active")

    def stop(self) -> None:
        self.remove_class("-active")
