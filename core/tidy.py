"""Phase 2 decisions for one note: low value, normalized content, derived tags (SPEC §3)."""

from __future__ import annotations

import functools
import re

from . import fields
from .models import RawNote
from .text import note_tokens

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
    content = fields.text(note, "content").strip()
    no_hits = fields.hits(note) == 0
    if not content:
        return True
    if len(content) <= 2 and no_hits:
        return True
    return no_hits and is_scratch_title(fields.text(note, "title"))


@functools.lru_cache(maxsize=4096)
def normalize_tag(tag: str) -> str:
    return _WHITESPACE.sub("-", tag.strip().lower())


def derived_tags(note: RawNote, tokens: list[str]) -> list[str]:
    title = fields.text(note, "title").lower()
    content = fields.text(note, "content")
    scope, kind = fields.text(note, "scope"), fields.text(note, "type")
    # A note without a scope or type gets no empty `scope:` / `type:` tag.
    derived = [f"{name}:{value}" for name, value in (("scope", scope), ("type", kind)) if value]
    flags = [
        (note.get("kind") == "fact", "fact"),
        (title.startswith("pref:"), "preferences"),
        (title.startswith("learn"), "learnings"),
        ("/" in content or "." in content, "files"),
    ]
    derived += [tag for condition, tag in flags if condition]
    if scope in _SCOPE_TAGS:
        derived.append(_SCOPE_TAGS[scope])
    for token in tokens:
        if len(derived) >= 4:
            break
        if len(token) >= 4 and token not in derived:
            derived.append(token)
    return derived


def new_tags(note: RawNote, tokens: list[str] | None = None) -> list[str]:
    """Existing tags (normalized, deduplicated) then the derived ones, bounded at six."""
    if tokens is None:
        tokens = note_tokens(fields.text(note, "title"), fields.text(note, "content"))
    existing = list(dict.fromkeys(t for t in map(normalize_tag, fields.tags(note)) if t))
    kept = set(existing)
    result = existing + [t for t in derived_tags(note, tokens) if t not in kept]
    while len(result) > MAX_TAGS:
        droppable = [
            i for i, t in enumerate(result) if t not in kept and not fields.is_system_tag(t)
        ]
        if not droppable:
            break
        del result[droppable[-1]]
    return result
