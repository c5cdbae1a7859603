"""Phase 2 decisions for one note: low value, normalized content, derived tags (docs/PASS.md,
"Phase 2 — archive, normalize, retag")."""

from __future__ import annotations

import functools
import re

from core.models import RawNote
from core.notes import fields
from core.notes.text import note_tokens

MAX_TAGS = 6
_SCRATCH = re.compile(r"(?:tmp|temp|scratch)(?![^\W\d_])", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")
_SCOPE_TAGS = {
    "self": "assistant-self",
    "user": "user-memory",
    "shared": "shared-context",
    "project": "shared-context",
}


def is_scratch_title(title: str) -> bool:
    return _SCRATCH.match(title.lstrip()) is not None


def is_low_value(note: RawNote) -> bool:
    return low_value(fields.text(note, "title"), fields.text(note, "content"), fields.hits(note))


def low_value(title: str, content: str, hits: int) -> bool:
    stripped = content.strip()
    if not stripped:
        return True
    return hits == 0 and (len(stripped) <= 2 or is_scratch_title(title))


@functools.lru_cache(maxsize=4096)
def normalize_tag(tag: str) -> str:
    return _WHITESPACE.sub("-", tag.strip().lower())


def derived_tags(note: RawNote, tokens: list[str]) -> list[str]:
    title = fields.text(note, "title").lower()
    content = fields.text(note, "content")
    scope, kind = fields.meta(note, "scope"), fields.meta(note, "type")
    derived = []
    # A note without a scope or type gets no empty `scope:` / `type:` tag.
    if scope:
        derived.append("scope:" + scope)
    if kind:
        derived.append("type:" + kind)
    if note.get("kind") == "fact":
        derived.append("fact")
    if title.startswith("pref:"):
        derived.append("preferences")
    if title.startswith("learn"):
        derived.append("learnings")
    if "/" in content or "." in content:
        derived.append("files")
    if scope in _SCOPE_TAGS:
        derived.append(_SCOPE_TAGS[scope])
    if len(derived) < 4:
        for token in tokens:
            if len(token) >= 4 and token not in derived:
                derived.append(token)
                if len(derived) >= 4:
                    break
    return derived


def new_tags(note: RawNote, tokens: list[str] | None = None) -> list[str]:
    """Existing tags (normalized, deduplicated) then the derived ones, bounded at six."""
    if tokens is None:
        tokens = note_tokens(fields.text(note, "title"), fields.text(note, "content"))
    existing = list(dict.fromkeys(map(normalize_tag, fields.tags(note))))
    if "" in existing:
        existing.remove("")
    kept = set(existing)
    result = existing + [t for t in derived_tags(note, tokens) if t not in kept]
    # Bound: drop the last tag that is neither existing nor a system tag, while too many.
    place = len(result) - 1
    while len(result) > MAX_TAGS and place >= 0:
        tag = result[place]
        if tag not in kept and not fields.is_system_tag(tag):
            del result[place]
        place -= 1
    return result
