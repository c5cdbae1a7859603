"""Phase 1 of the pass, and the limit rules (docs/PASS.md, "How many notes" and "Phase 1")."""

from __future__ import annotations

import os
from collections.abc import Mapping

from core.clock import epoch_ms_of
from core.models import RawNote
from core.notes import fields
from core.settings import whole_number

DEFAULT_LIMIT = 10
MAX_LIMIT = 10
LIMIT_ENV = "MEMORY_REFLECTION_MAX_NOTES"
HOUR_MS = 3_600_000
DAY_MS = 86_400_000


def resolve_limit(limit: int | None, environ: Mapping[str, str] | None = None) -> int:
    """The capped limit: the given one, else $MEMORY_REFLECTION_MAX_NOTES, else 10; at most 10.
    A set variable that is not a whole number is a SettingError saying so."""
    if limit is None:
        env = os.environ if environ is None else environ
        limit = whole_number(env, LIMIT_ENV, DEFAULT_LIMIT, MAX_LIMIT, capped=True)
    return max(0, min(limit, MAX_LIMIT))


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
