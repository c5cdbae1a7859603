"""Phase 1 of the pass, and the limit rules (docs/PASS.md, "How many notes" and "Phase 1")."""

from __future__ import annotations

from core.clock import epoch_ms_of
from core.models import RawNote
from core.notes import fields
from core.settings import MAX_NOTES

DEFAULT_LIMIT = MAX_NOTES  # unless the settings say fewer (max_notes)
MAX_LIMIT = MAX_NOTES
HOUR_MS = 3_600_000
DAY_MS = 86_400_000


def resolve_limit(limit: int | None, configured: int = DEFAULT_LIMIT) -> int:
    """The capped limit: the given one, else the configured one (the settings' max_notes,
    $MEMORY_REFLECTION_MAX_NOTES); at most 10."""
    return max(0, min(configured if limit is None else limit, MAX_LIMIT))


def quality(note: RawNote, now_ms: int, stamp: str | None = None) -> int:
    """`stamp`: the note's fields.updated_at, when the caller has it already."""
    moment = epoch_ms_of(fields.updated_at(note) if stamp is None else stamp)
    age = 0 if moment is None else max(0, now_ms - moment)
    # fields.tags / links / hidden, inlined: this runs once per note of the graph.
    if not note.get("tags"):
        age += HOUR_MS
    if not note.get("links"):
        age += HOUR_MS
    if note.get("hidden") is True:
        age -= DAY_MS
    return age


def select(notes: list[RawNote], positions: list[int], now_ms: int, limit: int | None) -> list[int]:
    """Positions of the notes to inspect: by quality descending, ties in file order."""
    ranked = sorted(positions, key=lambda p: (-quality(notes[p], now_ms), p))
    return ranked if limit is None else ranked[:limit]
