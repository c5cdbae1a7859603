"""How the front ends show a MicroClaw memory: its profile (words, the columns of its rows: what
the bot's rules go by instead of hits and tags, capabilities), and a row on one line."""

from __future__ import annotations

from typing import Any

from core.contract.capabilities import Capabilities
from core.contract.profile import NoteColumn, Profile
from core.models import RawNote
from core.notes import fields
from core.safeio.inert_text import one_line


def _bot_columns(row: RawNote) -> dict[str, Any]:
    extra = row.get("microclaw")
    return extra if isinstance(extra, dict) else {}


def _confidence(row: RawNote) -> str:
    confidence = row.get("confidence")
    return f"{confidence:.2f}" if isinstance(confidence, float) else str(confidence or "")


COLUMNS: tuple[NoteColumn, ...] = (
    NoteColumn("Category", 9, 3, lambda row: fields.text(row, "type")),
    NoteColumn("Conf.", 5, 6, _confidence, right=True),
    NoteColumn("Source", 12, 1, lambda row: fields.text(row, "source")),
    NoteColumn("Last seen", 10, 5, lambda row: str(_bot_columns(row).get("lastSeenAt") or "")[:10]),
    NoteColumn("Expires", 10, 2, lambda row: str(_bot_columns(row).get("expiresAt") or "")[:10]),
    NoteColumn("Links", 5, 4, lambda row: str(len(fields.links(row))), right=True),
)


def note_summary(row: RawNote) -> str:
    return (
        f"{one_line(fields.text(row, 'type'))} "
        f"confidence={one_line(str(row.get('confidence')))} "
        f"source={one_line(fields.text(row, 'source'))}"
    )


PROFILE = Profile(
    system="MicroClaw",
    source_label="MicroClaw database",
    pass_label="bot's maintenance (its reflector's rules)",
    promotion_label="AGENTS.md",
    promotion_rule="with confidence {threshold}% or more",
    archive_effect="the bot leaves archived rows out of its prompt",
    capabilities=Capabilities(rules=True),  # rows cannot be merged
    columns=COLUMNS,
    summary=note_summary,
    plan_scope="Every active memory under the bot's rules: {notes} inspected.",
    archived_text="its text, kept in the file",
    group="scope",
    groups="scopes",
)
