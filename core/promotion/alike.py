"""Entries of one promotion file that say almost the same thing under different titles: each
entry the promotion adds or updates is compared with the others it writes and with the entries
the file holds already. They are written all the same; the plan says so, and the operator may
drop one. Pure.

What an entry says is its first line without the bullet and the title: the lines after it are
often only where and when it was noted ("Seen in session …"), which would make two copies of
one statement look apart. Two entries say almost the same thing when their words (core/notes/
text.py's tokens) overlap at least `ALIKE` (Jaccard) and each has at least `MIN_WORDS` of them,
so that two short lines sharing a word or two are not taken for one."""

from __future__ import annotations

from dataclasses import dataclass

from core.models import Alike, PromotionEntry
from core.notes.similar import similar_pairs
from core.notes.text import unique_tokens
from core.promotion.memory_md import bare, titles_of

ALIKE = 0.8
MIN_WORDS = 4
_WRITTEN = ("add", "update")


@dataclass(frozen=True)
class _Said:
    title: str
    note_id: str  # "" for a line the file holds already
    words: frozenset[str]


def statement(first_line: str) -> tuple[str, str]:
    """(title, what it says) of an entry's first line: `- **title**: text`, else `- text`
    (its text is then its title too)."""
    line = bare(first_line).rstrip()
    titles = titles_of(line)
    if titles:
        title = titles[0]
        return title, line[len(f"- **{title}**:") :].strip()
    text = line[2:].strip() if line.startswith("- ") else line.strip()
    return text, text


def _said(title: str, note_id: str, text: str) -> _Said | None:
    words = frozenset(unique_tokens(text))
    return _Said(title, note_id, words) if len(words) >= MIN_WORDS else None


def _in_file(before_text: str, taken: set[str]) -> list[_Said]:
    """The entries the file holds that no entry written replaces (its title is not one of
    theirs)."""
    found = []
    for line in before_text.split("\n"):
        if line.startswith("- "):
            title, text = statement(line)
            said = None if title in taken else _said(title, "", text)
            if said is not None:
                found.append(said)
    return found


def mark_alike(entries: list[PromotionEntry], before_text: str) -> None:
    """Fill `alike` of each entry added or updated: the others written with it, and the
    entries already in the file, that say almost the same thing."""
    written = [e for e in entries if e.action in _WRITTEN]
    if not written:
        return
    new = [
        (entry, _said(entry.title, entry.note_id, statement(entry.text.split("\n")[0])[1]))
        for entry in written
    ]
    mine = [(entry, said) for entry, said in new if said is not None]
    others = _in_file(before_text, {e.title for e in written})
    everyone = [said for _, said in mine] + others
    for i, j, _ in similar_pairs([s.words for s in everyone], ALIKE):
        for one, other in ((i, j), (j, i)):
            if one < len(mine):
                mine[one][0].alike.append(
                    Alike(title=everyone[other].title, note_id=everyone[other].note_id)
                )
