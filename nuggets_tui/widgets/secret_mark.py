"""Which notes hold a secret (core/promotion/secret_screen.py), remembered per note while its text
is the
same: the notes table marks them and the detail pane says why, so the operator can archive
them before anything copies them into an always-loaded file."""

from __future__ import annotations

from core.models import RawNote
from core.notes import fields
from core.promotion.secret_screen import note_secret

SECRET_MARK = "S"
_KEPT = 20_000  # notes remembered; a table paints only the rows on screen


class SecretMarks:
    def __init__(self, allow_contact: bool = False) -> None:
        """`allow_contact`: contact details are no secret (the store's, from the settings)."""
        self.allow_contact = allow_contact
        self._seen: dict[str, tuple[str, str, str | None]] = {}

    def reason(self, note: RawNote) -> str | None:
        """Why the note holds a secret (masked), or None."""
        title, content = fields.text(note, "title"), fields.text(note, "content")
        seen = self._seen.get(note["id"])
        if seen is not None and seen[0] == title and seen[1] == content:
            return seen[2]
        if len(self._seen) >= _KEPT:
            self._seen.clear()
        found = note_secret(title, content, self.allow_contact)
        self._seen[note["id"]] = (title, content, found)
        return found
