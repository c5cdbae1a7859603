"""The console's "since your last visit" header (docs/REVIEW.md): what the runs written while
it was closed (or by another program while it is open) applied and promoted, with their undo
ids, what waits, and what each review rule decided (core/plans/since_visit.py). It shows on the
screen the console opens on, until `d` hides it; closing the console (or `d`) remembers the
visit, so the next opening tells only what happened after."""

from __future__ import annotations

from datetime import datetime
from threading import Lock
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
    """What happened since the last visit to one memory, and whether it is still shown.

    `known`: the runs the journal held when last looked at. A run that appears while the
    console is open is the console's own when it appears with one of its writes (`ours`, never
    news), else another program's (a cron `daily`): told at once, as since the last visit."""

    def __init__(
        self,
        memory: Store,
        since: SinceVisit,
        seen: datetime | None,
        known: frozenset[str] = frozenset(),
    ) -> None:
        self.memory, self.since, self.seen = memory, since, seen
        self.shown = not since.empty
        self.known, self.ours = set(known), set[str]()
        self.mark = _journal_mark(memory)
        self._looking = Lock()  # the main screen's load and its look at the journal

    @classmethod
    def read(cls, memory: Store) -> News:
        seen = read_visit(memory.journal.home)
        try:
            headers = memory.journal.log()
            known = frozenset(header.run_id for header in headers)
            since = since_visit(memory, seen, headers=headers)
        except NuggetsError:  # a journal that cannot be read: the main screen says why
            known, since = frozenset(), SinceVisit()
        return cls(memory, since, seen, known)

    def stirred(self) -> bool:
        """Whether the journal's folder changed since the last look: a run written beside a
        file the console does not watch (a promotion's MEMORY.md). One stat, for every tick."""
        return _journal_mark(self.memory) != self.mark

    def catch_up(self, ours: bool) -> bool:
        """The runs written since the last look: this console's own (`ours`: it has just
        written, never news), or another program's, told. True when what the header says
        changed."""
        with self._looking:
            self.mark = _journal_mark(self.memory)
            try:
                headers = self.memory.journal.log(quiet=True)
                new = {header.run_id for header in headers} - self.known
                self.known |= new
                if ours and not new:
                    return False  # the first load, right after `read`: nothing to tell again
                if ours:
                    self.ours |= new
                # told again whole: an undo (ours too) may have taken back a run it told
                since = since_visit(self.memory, self.seen, frozenset(self.ours), headers)
            except NuggetsError:
                return False  # the history and ctrl+z say what is wrong with the journal
            if since == self.since:
                return False
            self.since, self.shown = since, not since.empty
            return True

    def dismiss(self) -> None:
        """Hidden, and the visit remembered: what it told is not told again."""
        self.shown, self.since = False, SinceVisit()
        self.seen = self.memory.clock()
        self.remember()

    def remember(self) -> None:
        try:
            self.memory.journal.may_write()
        except NuggetsError:
            return  # a home nothing may be written to (one the agent left): no visit either
        write_visit(self.memory.journal.home, self.memory.clock())


def _journal_mark(memory: Store) -> int | None:
    try:
        return memory.journal.folder.stat().st_mtime_ns
    except OSError:
        return None


def news_kept(app: App[Any]) -> News | None:
    """The console's news, shown or not (None before a memory is open)."""
    news = getattr(app, "news", None)
    return news if isinstance(news, News) else None


def news_of(app: App[Any]) -> News | None:
    """The console's news while it is shown (None: nothing to tell, or hidden)."""
    news = news_kept(app)
    return news if news is not None and news.shown else None


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
