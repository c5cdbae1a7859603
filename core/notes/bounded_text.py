"""How much of a note's text the judging work reads (docs/VERDICTS.md, "Long notes").

Finding contradictions and scoring verdicts tokenize every note, key it to a topic and compare
it with its siblings (the reflection merge). On a note of 100 MB that is minutes and gigabytes
for a decision its first pages already make. So that work reads a note's title and content up
to `TEXT_BOUND` characters each: what lies beyond decides no token, topic, score or sibling. The
notes themselves are never cut; only the copies the judging reads are.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.models import RawNote

TEXT_BOUND = 64 * 1024  # characters of a note's title and of its content the judging reads
BOUNDED_FIELDS = ("title", "content")


def bounded(note: RawNote) -> RawNote:
    """The note as the judging reads it: itself when short, else a copy with its title and
    content cut to their first TEXT_BOUND characters."""
    long = [
        name
        for name in BOUNDED_FIELDS
        if isinstance(note.get(name), str) and len(note[name]) > TEXT_BOUND
    ]
    if not long:
        return note
    copy = dict(note)
    for name in long:
        copy[name] = note[name][:TEXT_BOUND]
    return copy


def bounded_notes(notes: Iterable[RawNote]) -> list[RawNote]:
    return [bounded(note) for note in notes]
