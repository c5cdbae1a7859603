"""Reading raw note dicts with the defaults of docs/FORMATS.md ("The graph file": missing fields),
without rewriting what was read."""

from __future__ import annotations

from typing import Any

from core.models import RawNote
from core.notes.inferred_metadata import inferred_metadata

SYSTEM_TAG_PREFIXES = ("scope:", "type:")
SHARED_SCOPES = ("shared", "project")


def text(note: RawNote, name: str) -> str:
    value = note.get(name)
    return value if isinstance(value, str) else ""


def nugget(note: RawNote) -> str:
    """The note's nugget: `nuggetName`, else the legacy `donnaName` the agent still reads."""
    name = note.get("nuggetName")
    if isinstance(name, str):
        return name
    legacy = note.get("donnaName")
    return legacy if isinstance(legacy, str) else ""


def meta(note: RawNote, name: str) -> str:
    """subject, scope, type, source or stability: as stored, else what the agent infers for a
    note without it (core/notes/inferred_metadata.py)."""
    value = note.get(name)
    if value is None:
        inferred: str = inferred_metadata(note)[name]  # the five named here are texts
        return inferred
    return value if isinstance(value, str) else ""


def tags(note: RawNote) -> list[str]:
    return note.get("tags") or []


def links(note: RawNote) -> list[dict[str, Any]]:
    return note.get("links") or []


def link_targets(note: RawNote) -> set[str]:
    return {link["to"] for link in links(note)}


def hidden(note: RawNote) -> bool:
    return note.get("hidden") is True


def hits(note: RawNote) -> int:
    return note.get("hits") or 0


def updated_at(note: RawNote) -> str:
    return text(note, "updatedAt") or text(note, "createdAt")


# The agent's own reflection marks a merged-away note with this reason; ours names the winner.
AGENT_MERGE_REASON = "merged during daily memory reflection"


def merged_into(note: RawNote) -> str | None:
    """The id of the note that absorbed this one, when it was merged away (by us or by the
    agent's own reflection)."""
    for link in links(note):
        reason = link.get("reason", "")
        if reason.startswith("merged into ") or reason == AGENT_MERGE_REASON:
            target: str = link["to"]  # a checked document's links name notes by id
            return target
    return None


def is_system_tag(tag: str) -> bool:
    return tag.startswith(SYSTEM_TAG_PREFIXES)
