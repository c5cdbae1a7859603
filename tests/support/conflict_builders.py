"""Hand-built memories with contradictions, shared by the conflict and verdict tests."""

from __future__ import annotations

from typing import Any

from tests.support.note_builders import note


def pref(note_id: str, content: str, title: str = "pref: answers", **extra: Any) -> dict[str, Any]:
    """A user preference note of nugget `user` (subject user:primary)."""
    fields: dict[str, Any] = {
        "nuggetName": "user",
        "subject": "user:primary",
        "scope": "user",
        "type": "preference",
        "kind": "note",
        "tags": [],
        "title": title,
    }
    fields.update(extra)
    return note(note_id, content, **fields)


def answers_memory() -> list[dict[str, Any]]:
    """Three contradicting answer styles (each a minimal pair with the first: one word of
    `User prefers … answers with small examples` differs), a paraphrase of one, and a lone
    note."""
    return [
        pref("a-direct", "User prefers direct answers with small examples"),
        pref(
            "a-bullets",
            "User prefers bullet-point answers with small examples, with tables when explaining "
            "code",
            title="pref: answers, noted 2026-09-18",
        ),
        pref("a-direct-2", "user prefers direct answers with small examples"),
        pref(
            "a-short",
            "User prefers short answers with small examples.\n"
            "Short answers; never more than three sentences",
        ),
        pref("lone", "User likes tea", title="pref: drinks"),
    ]
