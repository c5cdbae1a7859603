"""The notes table: one row per note, painted only when on screen."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from core import fields
from core.models import RawNote
from core.verdicts import Verdict

from ..safe import line
from .secret_mark import SECRET_MARK, SecretMarks
from .verdict_text import verdict_cell
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
    Column("Verdict", 8, priority=7),
)
# A MicroClaw row: what the bot's rules go by instead of hits and tags.
ROW_COLUMNS = (
    Column("", 1, priority=9),
    Column("Title", 0, flexible=True, min_width=24),
    Column("Category", 9, priority=3),
    Column("Conf.", 5, priority=6, right=True),
    Column("Source", 12, priority=1),
    Column("Last seen", 10, priority=5),
    Column("Expires", 10, priority=2),
    Column("Links", 5, priority=4, right=True),
    Column("Verdict", 8, priority=7),
)


class NoteRows(RowRenderer[RawNote]):
    def __init__(self, rows: bool = False, secrets: SecretMarks | None = None) -> None:
        self.rows = rows  # MicroClaw rows: ROW_COLUMNS
        self.verdicts: dict[str, Verdict] = {}  # by note id; empty until scored
        self.secrets = secrets  # marks the notes holding a secret (S) when given

    def key(self, row: RawNote) -> str:
        return row["id"]

    def cells(self, row: RawNote) -> Sequence[Text]:
        title = fields.text(row, "title")
        head = [
            self._mark(row),
            line(title) if title.strip() else Text("(untitled)", style="italic"),
        ]
        if self.rows:
            return [*head, *self._row_cells(row)]
        return [
            *head,
            line(fields.text(row, "scope")),
            line(fields.text(row, "type")),
            line(fields.hits(row)),
            line(", ".join(fields.tags(row))),
            Text(str(len(fields.links(row)))),
            line(fields.updated_at(row)[:10]),
            verdict_cell(self.verdicts.get(row["id"])),
        ]

    def _mark(self, row: RawNote) -> Text:
        """A: archived; S: holds a secret (archiving it is the remedy, so A comes first)."""
        if fields.hidden(row):
            return Text(ARCHIVED_MARK, style="bold")
        if self.secrets is not None and self.secrets.reason(row):
            return Text(SECRET_MARK, style="bold red")
        return Text(" ", style="bold")

    def _row_cells(self, row: RawNote) -> list[Text]:
        extra = row.get("microclaw")
        extra = extra if isinstance(extra, dict) else {}
        confidence = row.get("confidence")
        return [
            line(fields.text(row, "type")),
            line(f"{confidence:.2f}" if isinstance(confidence, float) else confidence or ""),
            line(fields.text(row, "source")),
            line(str(extra.get("lastSeenAt") or "")[:10]),
            line(str(extra.get("expiresAt") or "")[:10]),
            Text(str(len(fields.links(row)))),
            verdict_cell(self.verdicts.get(row["id"])),
        ]

    def style(self, row: RawNote) -> str | None:
        return "virtual-table--dim" if fields.hidden(row) else None


class NoteTable(VirtualTable[RawNote]):
    def __init__(self, *, id: str | None = None, empty_text: str = "No notes match.",
                 rows: bool = False, secrets: SecretMarks | None = None) -> None:
        """`rows`: the notes are MicroClaw rows (their own columns); `secrets`: mark the
        notes that hold one."""
        self.notes = NoteRows(rows, secrets)
        super().__init__(ROW_COLUMNS if rows else COLUMNS, self.notes, empty_text=empty_text,
                         id=id)

    def show_verdicts(self, verdicts: dict[str, Verdict]) -> None:
        self.notes.verdicts = verdicts
        self.refresh()
