"""The notes table: one row per note, painted only when on screen."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from core import fields
from core.models import RawNote

from ..safe import line
from .virtual_table import Column, RowRenderer, VirtualTable

ARCHIVED_MARK = "A"

COLUMNS = (
    Column("", 1, priority=9),
    Column("Title", 0, flexible=True, min_width=24),
    Column("Scope", 7, priority=2),
    Column("Type", 10, priority=3),
    Column("Hits", 4, priority=6, right=True),
    Column("Tags", 18, priority=1),
    Column("Links", 5, priority=4, right=True),
    Column("Updated", 10, priority=5),
)


class NoteRows(RowRenderer[RawNote]):
    def key(self, row: RawNote) -> str:
        return row["id"]

    def cells(self, row: RawNote) -> Sequence[Text]:
        title = fields.text(row, "title")
        return [
            Text(ARCHIVED_MARK if fields.hidden(row) else " ", style="bold"),
            line(title) if title.strip() else Text("(untitled)", style="italic"),
            line(fields.text(row, "scope")),
            line(fields.text(row, "type")),
            line(fields.hits(row)),
            line(", ".join(fields.tags(row))),
            Text(str(len(fields.links(row)))),
            line(fields.updated_at(row)[:10]),
        ]

    def style(self, row: RawNote) -> str | None:
        return "virtual-table--dim" if fields.hidden(row) else None


class NoteTable(VirtualTable[RawNote]):
    def __init__(self, *, id: str | None = None, empty_text: str = "No notes match.") -> None:
        super().__init__(COLUMNS, NoteRows(), empty_text=empty_text, id=id)
