"""The purifier's contradictions as topics: a claim and the claims it contests share the
contradiction cluster the purifier gave them (joined at read: notes.join_contradictions)."""

from __future__ import annotations

from core.models import RawNote
from core.review.contradictions import token_set


def purifier_topic(note: RawNote) -> tuple[str, str] | None:
    info = note.get("purifier")
    clusters = info.get("contradictionClusters") if isinstance(info, dict) else None
    return ("contradiction", clusters[0]) if clusters else None


def purifier_tokens(text: str) -> frozenset[str]:
    return token_set(text)
