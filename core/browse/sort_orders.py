"""The orders the notes table can be sorted in: file order, most hits, most recently updated,
title. Pure: a sort is done once per change of the rows, never per painted frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from core.models import RawNote
from core.notes import fields

NoteOrder = Literal["file", "hits", "updated", "title"]
ORDERS: tuple[NoteOrder, ...] = ("file", "hits", "updated", "title")
LABELS: dict[NoteOrder, str] = {
    "file": "file order",
    "hits": "hits ↓",
    "updated": "updated ↓",
    "title": "title",
}


def next_order(order: NoteOrder) -> NoteOrder:
    return ORDERS[(ORDERS.index(order) + 1) % len(ORDERS)]


def _hits(note: RawNote) -> float:
    value = fields.hits(note)
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


_KEYS: dict[NoteOrder, tuple[Callable[[RawNote], float | str], bool]] = {
    "hits": (_hits, True),
    "updated": (fields.updated_at, True),
    "title": (lambda note: fields.text(note, "title").casefold(), False),
}


def ordered(notes: list[RawNote], order: NoteOrder) -> list[RawNote]:
    """The notes in `order`; ties keep file order (the sort is stable, also reversed)."""
    if order == "file":
        return notes
    key, descending = _KEYS[order]
    return sorted(notes, key=key, reverse=descending)


class OrderedNotes:
    """Sorts a graph's notes once per order; every view after that (a nugget, a filter) only
    picks its rows from that list, keeping a 100k-note table quick to filter while sorted."""

    def __init__(self) -> None:
        self._sorted: tuple[list[RawNote], NoteOrder, list[RawNote], dict[int, int]] | None = None

    def view(self, every: list[RawNote], rows: list[RawNote], order: NoteOrder) -> list[RawNote]:
        """`rows` (some of `every`, the graph's notes) in `order`."""
        if order == "file":
            return rows
        cached = self._sorted  # read once: a worker thread may replace it meanwhile
        if cached is None or cached[0] is not every or cached[1] != order:
            notes = ordered(every, order)
            cached = (every, order, notes, {id(note): rank for rank, note in enumerate(notes)})
            self._sorted = cached
        notes, rank = cached[2], cached[3]
        if len(rows) == len(every):
            return list(notes)
        if len(rows) < len(every) // 8:  # a few rows: sort them by rank
            return sorted(rows, key=lambda note: rank[id(note)])
        keep = {id(note) for note in rows}  # many: pick them from the sorted notes
        return [note for note in notes if id(note) in keep]
