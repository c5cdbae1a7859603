"""The orders the notes table can be sorted in: file order, most hits, most recently updated,
title. Pure: a sort is done once per change of the rows, never per painted frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from . import fields
from .models import RawNote

NoteOrder = Literal["file", "hits", "updated", "title"]
ORDERS: tuple[NoteOrder, ...] = ("file", "hits", "updated", "title")
LABELS: dict[NoteOrder, str] = {
    "file": "file order", "hits": "hits ↓", "updated": "updated ↓", "title": "title"}


def next_order(order: NoteOrder) -> NoteOrder:
    return ORDERS[(ORDERS.index(order) + 1) % len(ORDERS)]


def _hits(note: RawNote) -> float:
    value = fields.hits(note)
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


_KEYS: dict[NoteOrder, tuple[Callable[[RawNote], object], bool]] = {
    "hits": (_hits, True),
    "updated": (fields.updated_at, True),
    "title": (lambda note: fields.text(note, "title").casefold(), False),
}


def ordered(notes: list[RawNote], order: NoteOrder) -> list[RawNote]:
    """The notes in `order`; ties keep file order (the sort is stable, also reversed)."""
    if order == "file":
        return notes
    key, descending = _KEYS[order]
    return sorted(notes, key=key, reverse=descending)  # type: ignore[arg-type]
