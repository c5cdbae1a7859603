"""The notes table: one row per note, painted only when on screen."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from core.contract.profile import NoteColumn
from core.models import RawNote
from core.notes import fields
from core.review.verdicts import Verdict

from ..safe import line
from .secret_mark import SECRET_MARK, SecretMarks
from .verdict_text import verdict_cell
from .virtual_table import Column, RowRenderer, VirtualTable

ARCHIVED_MARK = "A"

HEAD = (Column("", 1, priority=9), Column("Title", 0, flexible=True, min_width=24))
VERDICT = Column("Verdict", 8, priority=7)
SCORING, UNSCORED = "…", "–"  # a verdict on its way; none (scoring stopped: `v` scores)


def table_columns(columns: Sequence[NoteColumn]) -> tuple[Column, ...]:
    """The mark and the title, the store's own columns, the verdict."""
    return (
        *HEAD,
        *(
            Column(c.label, c.width, priority=c.priority, right=c.right, cut_middle=c.cut_middle)
            for c in columns
        ),
        VERDICT,
    )


class NoteRows(RowRenderer[RawNote]):
    def __init__(self, columns: Sequence[NoteColumn], secrets: SecretMarks | None = None) -> None:
        self.columns = columns  # the store's
        self.secrets = secrets  # marks the notes holding a secret (S) when given
        self.verdicts: dict[str, Verdict] = {}  # by note id; empty until scored
        self.unscored = SCORING  # the sign in the Verdict column of a note not scored yet

    def key(self, row: RawNote) -> str:
        note_id: str = row["id"]
        return note_id

    def cells(self, row: RawNote) -> Sequence[Text]:
        title = fields.text(row, "title")
        return [
            self._mark(row),
            line(title) if title.strip() else Text("(untitled)", style="italic"),
            *(line(column.cell(row)) for column in self.columns),
            self._verdict(row),
        ]

    def _verdict(self, row: RawNote) -> Text:
        verdict = self.verdicts.get(row["id"])
        if verdict is None and not fields.hidden(row):  # archived notes are never scored
            return Text(self.unscored, style="dim")
        return verdict_cell(verdict)

    def _mark(self, row: RawNote) -> Text:
        """A: archived; S: holds a secret (archiving it is the remedy, so A comes first)."""
        if fields.hidden(row):
            return Text(ARCHIVED_MARK, style="bold")
        if self.secrets is not None and self.secrets.reason(row):
            return Text(SECRET_MARK, style="bold red")
        return Text(" ", style="bold")

    def style(self, row: RawNote) -> str | None:
        return "virtual-table--dim" if fields.hidden(row) else None


class NoteTable(VirtualTable[RawNote]):
    def __init__(
        self,
        columns: Sequence[NoteColumn],
        *,
        id: str | None = None,
        empty_text: str = "No notes match.",
        secrets: SecretMarks | None = None,
    ) -> None:
        """`columns`: the store's columns of its notes; `secrets`: mark the notes that hold
        one."""
        self.notes = NoteRows(columns, secrets)
        super().__init__(table_columns(columns), self.notes, empty_text=empty_text, id=id)

    def show_verdicts(self, verdicts: dict[str, Verdict], unscored: str = SCORING) -> None:
        self.notes.verdicts, self.notes.unscored = verdicts, unscored
        self.refresh()
