"""How a merged note names the note that absorbed it: by title, with its id."""

from __future__ import annotations

from rich.text import Text

from core.models import RawNote
from core.notes import fields

from ..safe import join, line


def absorbed_by(winner: RawNote | None, winner_id: str) -> Text:
    """The note a merged note went into, by title and id (its id alone when it is gone)."""
    if winner is None:
        return join(line(winner_id), (" (missing)", "italic"))
    return join(
        "“", line(fields.text(winner, "title") or "(untitled)"), "” (", line(winner_id), ")"
    )
