"""How the front ends show a Claude Code memory directory: its words, the columns of its topic
files (type, the index line's hook, size, flags) and a note on one line."""

from __future__ import annotations

from typing import Any

from core.models import RawNote
from core.safeio.inert_text import one_line
from core.stores.base import NoteColumn, StoreWords

WORDS = StoreWords(
    system="Claude Code",
    source_label="memory directory",
    pass_label="agent's changes since the last review",
    promotion_label="nothing (the agent writes MEMORY.md itself)",
    promotion_rule="(the agent's own memory: nothing is promoted) {threshold}",
    archive_effect="nothing yet: topic files are never deleted here",
    change_kinds=("rewrite", "hide"),
    plan_scope="The directory against its last review: {notes} read; what the agent changed "
               "since, file by file.",
    archived_text="kept in our record of what was seen (u brings the file back)",
    archive_refused="Topic files are deleted only by the agent: nothing is archived by hand "
                    "here (u puts back a file it deleted).",
)


def _info(note: RawNote) -> dict[str, Any]:
    info = note.get("claude")
    return info if isinstance(info, dict) else {}


def flags(note: RawNote) -> str:
    return "; ".join(str(f) for f in _info(note).get("flags") or [])


def size(note: RawNote) -> str:
    value = _info(note).get("size")
    return f"{value:,}" if isinstance(value, int) else ""


def hook(note: RawNote) -> str:
    return str(_info(note).get("hook") or _info(note).get("description") or "")


COLUMNS: tuple[NoteColumn, ...] = (
    NoteColumn("Type", 10, 5, lambda note: str(note.get("type") or "")),
    NoteColumn("Hook", 28, 2, hook, in_detail=True),
    NoteColumn("Size", 7, 3, size, right=True),
    NoteColumn("Flags", 24, 4, flags, in_detail=True),
)


def note_summary(note: RawNote) -> str:
    line = _info(note).get("indexLine")
    return (f"{one_line(str(note.get('type') or '-'))} size={size(note)} "
            f"index={'line ' + str(line) if line else 'none'} hook={one_line(hook(note))}"
            + (f" flags={one_line(flags(note))}" if flags(note) else ""))
