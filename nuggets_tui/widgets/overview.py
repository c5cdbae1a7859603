"""A small picture of the memory: notes per nugget, archived share, and how often notes are
recalled (in the store's words; not drawn for a store that keeps no such count)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, ProgressBar, Sparkline, Static

from core.browse.overview_stats import HITS_BUCKETS, Overview
from core.contract.profile import Profile
from core.promotion.candidates import DEFAULT_THRESHOLD

from ..safe import join, line

BAR = "█"


NAME = 8  # columns of a nugget's name
WIDEST_BAR = 9


def nugget_bars(overview: Overview, room: int = NAME + WIDEST_BAR + 8) -> Text:
    """A line per nugget that fits in `room` columns: the bars narrow to leave its count whole
    (a count of 100,000 needs seven columns)."""
    largest = max((n.notes for n in overview.nuggets), default=0) or 1
    digits = len(f"{largest:,}")
    width = max(1, min(WIDEST_BAR, room - NAME - 2 - digits))
    parts: list[Text | str | tuple[str, str]] = []
    for summary in overview.nuggets:
        filled = round(width * summary.notes / largest)
        parts += [fit_name(summary.name), " ", (BAR * filled, "bold"), f" {summary.notes:,}", "\n"]
    if not parts:
        return Text("no notes yet", style="dim")
    text = join(*parts)
    text.rstrip()
    return text


def fit_name(name: str, width: int = NAME) -> Text:
    text = line(name)
    text.truncate(width, overflow="ellipsis", pad=True)
    return text


class OverviewPanel(Vertical):
    DEFAULT_CSS = """
    OverviewPanel { height: auto; padding: 0 1; }
    OverviewPanel Label { color: $text-muted; margin-top: 1; }
    OverviewPanel Sparkline { height: 2; }
    OverviewPanel ProgressBar Bar { width: 1fr; }
    """
    shown: Overview | None = None

    def __init__(self, words: Profile, *, id: str | None = None) -> None:
        """`words`: the store's (what its groups are called, its notes' hits: drawn only with
        `recall_counts`)."""
        super().__init__(id=id)
        self.recalls = words.capabilities.recall_counts
        self.hits_label = words.hits_label
        self.hits_line = words.hits_line
        self.group = words.group

    def compose(self) -> ComposeResult:
        yield Label(line(f"Notes per {self.group}"))
        yield Static("", id="overview-bars")
        yield Label("Archived", id="overview-archived-label")
        yield ProgressBar(total=1, show_eta=False, id="overview-archived")
        if self.recalls:
            yield Label(
                line(f"{self.hits_label} 0 → {HITS_BUCKETS - 1}+"), id="overview-hits-label"
            )
            yield Sparkline([0] * HITS_BUCKETS, id="overview-hits")
            yield Static("", id="overview-promotable")

    def show(self, overview: Overview) -> None:
        self.shown = overview
        self._show_bars()
        self.query_one("#overview-archived-label", Label).update(
            f"Archived: {overview.hidden:,} of {overview.notes:,}"
        )
        self.query_one("#overview-archived", ProgressBar).update(
            total=max(1, overview.notes), progress=overview.hidden
        )
        if self.recalls:
            self.query_one("#overview-hits", Sparkline).data = list(overview.hits)
            self.query_one("#overview-promotable", Static).update(
                line(
                    self.hits_line.format(
                        count=f"{overview.promotable:,}", threshold=DEFAULT_THRESHOLD
                    )
                )
            )

    def on_resize(self) -> None:
        self._show_bars()

    def _show_bars(self) -> None:
        if self.shown is not None:
            room = self.content_size.width or NAME + WIDEST_BAR + 8
            self.query_one("#overview-bars", Static).update(nugget_bars(self.shown, room))
