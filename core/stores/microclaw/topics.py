"""What a MicroClaw row is about, as the bot decides it (its rule 5): the topic key two rows
must share to contradict each other, and the tokens of its Jaccard."""

from __future__ import annotations

from core.models import RawNote
from core.notes import fields


def microclaw_key(content: str) -> str:
    """The MicroClaw bot's topic key of a memory's text: fixed keys for a database port, a
    deadline, a timezone and a server IP, else its first four words, lower-cased, each kept
    to its letters and digits, joined by `_`."""
    lower = content.lower()
    if "port" in lower and ("db" in lower or "database" in lower):
        return "db_port"
    if "deadline" in lower or "due date" in lower:
        return "deadline"
    if "timezone" in lower or "time zone" in lower:
        return "timezone"
    if "server ip" in lower or "ip address" in lower:
        return "server_ip"
    words = ("".join(c for c in word if c.isalnum()) for word in lower.split())
    return "_".join([w for w in words if w][:4])


def microclaw_topic(note: RawNote) -> tuple[str, str] | None:
    """A MicroClaw note's topic: its nugget (the chat, or `global`) and the bot's key."""
    key = microclaw_key(fields.text(note, "content"))
    return (fields.nugget(note), key) if key else None


def microclaw_tokens(text: str) -> frozenset[str]:
    """The bot's tokens for its Jaccard: split on whitespace, case-sensitive, punctuation kept."""
    return frozenset(text.split())
