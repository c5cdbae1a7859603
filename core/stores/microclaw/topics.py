"""What a MicroClaw row is about, as the bot decides it: the topic key two rows must share to
contradict each other, the tokens of its Jaccard, and whether two texts agree (MicroClaw at
commit ab19255: crates/microclaw-storage/src/memory_quality.rs `memory_topic_key`,
src/memory_service.rs `jaccard_similar` and the reflector's conflict test)."""

from __future__ import annotations

import re

from core.models import RawNote
from core.notes import fields
from core.stores.microclaw.alphabetic import rust_alphanumeric

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Rust's char::is_whitespace (Unicode White_Space), which str.split_whitespace splits on;
# Python's str.split() also splits on U+001C-U+001F, which Rust keeps inside a word.
_RUST_WHITESPACE = re.compile(
    "[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+"
)


def ascii_lower(text: str) -> str:
    """Rust's `to_ascii_lowercase`: A-Z lowered, every other character as it is."""
    return text.translate(_ASCII_LOWER)


def _splits_differ(text: str) -> bool:
    """Whether the text holds U+001C-U+001F, where Python's split and Rust's disagree."""
    return "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text


def split_whitespace(text: str) -> list[str]:
    """Rust's `str::split_whitespace` (Python's own split where the two agree)."""
    if _splits_differ(text):
        return [word for word in _RUST_WHITESPACE.split(text) if word]
    return text.split()


def microclaw_key(content: str) -> str:
    """The MicroClaw bot's topic key of a memory's text: fixed keys for a database port, a
    deadline, a timezone and a server IP, else its first four words, ASCII-lower-cased, each
    kept to its letters and digits (Rust's `is_alphanumeric`: Indic vowel signs stay, a
    nukta or a combining accent goes), joined by `_`."""
    lower = ascii_lower(content)
    if "port" in lower and ("db" in lower or "database" in lower):
        return "db_port"
    if "deadline" in lower or "due date" in lower:
        return "deadline"
    if "timezone" in lower or "time zone" in lower:
        return "timezone"
    if "server ip" in lower or "ip address" in lower:
        return "server_ip"
    words = ("".join(c for c in word if rust_alphanumeric(c)) for word in split_whitespace(lower))
    return "_".join([w for w in words if w][:4])


def microclaw_topic(note: RawNote) -> tuple[str, str] | None:
    """A MicroClaw note's topic: its nugget (the chat, or `global`) and the bot's key."""
    key = microclaw_key(fields.text(note, "content"))
    return (fields.nugget(note), key) if key else None


def microclaw_tokens(text: str) -> frozenset[str]:
    """The bot's tokens for its Jaccard: split on whitespace, case-sensitive, punctuation kept."""
    return frozenset(split_whitespace(text))


def microclaw_token_sets(texts: list[str]) -> list[frozenset[str]]:
    """microclaw_tokens of each text; Python's own split for all of them when none holds a
    character the two splits disagree on (checked once, on the texts joined)."""
    if _splits_differ("".join(texts)):
        return [microclaw_tokens(text) for text in texts]
    return [frozenset(text.split()) for text in texts]


def bot_jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """The bot's word Jaccard: two empty texts are identical (1.0)."""
    union = len(a | b)
    return 1.0 if union == 0 else len(a & b) / union
