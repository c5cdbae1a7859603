"""What a note is about: the topic key two notes must share to contradict each other
(docs/VERDICTS.md, "Finding contradictions").

A store supplies its own key (a `TopicKey`): MicroClaw rows use the bot's key (`microclaw_key`,
the bot's rule 5), Nuggets notes their nugget, subject and title with a trailing date left out
(`nuggets_topic`); docs/VERDICTS.md words both. None means the note has no topic and is never in
a group.
"""

from __future__ import annotations

import re

from core.contract.topics import TopicKey as TopicKey
from core.models import RawNote
from core.notes import fields

# A trailing date such as ", noted 2026-09-18", " (as of 2026-09-18)" or " - 2026-09-18T10:00Z".
_TRAILING_DATE = re.compile(
    r"[\s,;:(\[\-\u2013\u2014]*(?:(?:noted|as of|updated|since|on|checked)\s+)?"
    r"\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+Z?)?[)\]]?\s*$",
    re.IGNORECASE,
)


# Titles that name no topic: two notes so titled are not about one thing.
PLACEHOLDER_TITLES = frozenset(
    {"untitled", "untitled note", "no title", "new note", "note", "quick note"}
)


def without_date(title: str) -> str:
    """The title with a trailing date left out, one line (as a person reads the topic)."""
    stripped = title.rstrip()
    if stripped[-1:].isdigit() or stripped.endswith((")", "]", "Z")):  # may end in a date
        stripped = _TRAILING_DATE.sub("", stripped)
    return " ".join(stripped.split())


def title_topic(title: str) -> str:
    """The title as a topic: a trailing date left out, case and inner whitespace ignored."""
    return without_date(title).casefold()


def nuggets_topic(note: RawNote) -> tuple[str, str, str] | None:
    """Same nugget, same subject, same title apart from a trailing date; a note without a
    title, or with a placeholder one ("untitled", "quick note"), has no topic."""
    title = title_topic(fields.text(note, "title"))
    if not title or title in PLACEHOLDER_TITLES:
        return None
    return (fields.nugget(note), fields.meta(note, "subject"), title)
