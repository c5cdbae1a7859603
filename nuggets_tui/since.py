"""The console's "since your last visit" header (docs/REVIEW.md): what the runs written while
it was closed applied and promoted, with their undo ids, what waits, and what each review rule
decided, read once when the console opens a memory (core/plans/since_visit.py). It shows on
the screen the console opens on, until `d` hides it; closing the console (or `d`) remembers
the visit, so the next opening tells only what happened after."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual.app import App

from core.clock import shown_time
from core.contract.store import Store
from core.errors import NuggetsError
from core.plans.since_visit import RunsSince, SinceVisit, read_visit, since_visit, write_visit

from .safe import counted, join, line

RULE_WORDS = {"keep": "kept", "reject": "rejected", "review": "left for you"}


class News:
    """What happened since the last visit to one memory, and whether it is still shown."""

    def __init__(self, memory: Store, since: SinceVisit, seen: datetime | None) -> None:
        self.memory, self.since, self.seen = memory, since, seen
        self.shown = not since.empty

    @classmethod
    def read(cls, memory: Store) -> News:
        seen = read_visit(memory.journal.home)
        try:
            since = since_visit(memory, seen)
        except NuggetsError:  # a journal that cannot be read: the main screen says why
            since = SinceVisit()
        return cls(memory, since, seen)

    def dismiss(self) -> None:
        """Hidden, and the visit remembered: what it told is not told again."""
        self.shown = False
        self.remember()

    def remember(self) -> None:
        try:
            self.memory.journal.may_write()
        except NuggetsError:
            return  # a home nothing may be written to (one the agent left): no visit either
        write_visit(self.memory.journal.home, self.memory.clock())


def news_of(app: App[Any]) -> News | None:
    """The console's news while it is shown (None: nothing to tell, or hidden)."""
    news = getattr(app, "news", None)
    return news if isinstance(news, News) and news.shown else None


def since_text(since: SinceVisit, waiting_key: str) -> Text:
    """The header: what happened, one kind after another, with the keys that act on it
    (`waiting_key`: what shows the waiting changes on this screen)."""
    told: list[Text] = []
    if since.applied.undo:
        told.append(join("applied ", _runs(since.applied, "change")))
    if since.promoted.undo:
        told.append(join("promoted ", _runs(since.promoted, "entry", "entries")))
    if since.waiting:
        waits = f"{counted(since.waiting, 'change')} waiting since "
        told.append(
            join(
                line(waits + shown_time(since.waiting_since or ""), "bold yellow"),
                line(f" ({waiting_key})"),
            )
        )
    if since.rules:
        said = ", ".join(
            f"“{r.rule}” {RULE_WORDS.get(r.action, r.action)} {r.changes:,}" for r in since.rules
        )
        told.append(join("rules: ", line(said)))
    told.append(line("d hides", "dim"))
    return join(("Since your last visit: ", "bold"), Text(" · ").join(told))


def _runs(runs: RunsSince, noun: str, plural: str = "") -> Text:
    more = f"; {len(runs.undo) - 1:,} more runs in l" if len(runs.undo) > 1 else ""
    written = [
        counted(runs.changes, noun, plural) if runs.changes or not runs.files else "",
        counted(runs.files, "file") if runs.files else "",
    ]
    return join(
        " and ".join(w for w in written if w),
        " (",
        line(f"nuggets undo {runs.undo[0]}", "bold"),
        line(more),
        ")",
    )
