"""A note as the agent's next load and save would leave it (its `normalizeGraph`), so that a
note which differs from what the engine wrote only by that normalization counts as unchanged.

The agent normalizes every note each time it loads and saves: titles trimmed; content lines
trimmed with inner whitespace collapsed and 3+ line breaks cut to one blank line; tags
lower-cased, spaces to `-`, repeats dropped; links repeating a target with a reason equal
ignoring case dropped; missing fields filled (metadata by inference,
core/notes/inferred_metadata.py);
confidence clamped to [0, 1]; `1.0` written as `1` (equal as numbers here). Undo, unhide and the
journal's landing checks compare notes in this form; the one thing more forgiven is the stamp
each agent start puts on every visible fact note it re-creates from its fact.
"""

from __future__ import annotations

import math
from typing import Any

from core.models import RawNote
from core.notes.inferred_metadata import METADATA_FIELDS, inferred_metadata
from core.notes.js_strings import collapse_spaces, js_trim, normalize_tag, normalize_whitespace

_STAMPS = ("createdAt", "updatedAt", "lastAccessedAt")


def _clamped(confidence: Any) -> Any:
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return 0.7
    if not math.isfinite(confidence):
        return 0.7
    return max(0, min(1, confidence))


def _dedupe_links(links: list[Any]) -> list[Any]:
    seen: set[tuple[Any, str]] = set()
    kept = []
    for link in links:
        reason = link.get("reason") if isinstance(link, dict) else None
        key = (
            link.get("to") if isinstance(link, dict) else None,
            reason.lower() if isinstance(reason, str) else "",
        )
        if key not in seen:
            seen.add(key)
            kept.append(link)
    return kept


def js_truthy(value: Any) -> bool:
    """JavaScript's `!!value` for JSON values."""
    if isinstance(value, float) and math.isnan(value):
        return False
    return value not in (None, False, 0, "") or isinstance(value, list | dict)


def agent_form(note: RawNote) -> dict[str, Any]:
    """The note as the agent would write it back, timestamps it would invent left as None."""
    form = dict(note)
    name = note.get("nuggetName")
    form["nuggetName"] = name if name is not None else note.get("donnaName", "")
    title = note.get("title")
    form["title"] = js_trim(title) if isinstance(title, str) else ""
    content = note.get("content")
    form["content"] = normalize_whitespace(content) if isinstance(content, str) else ""
    tags = [normalize_tag(t) for t in note.get("tags") or [] if isinstance(t, str)]
    form["tags"] = [t for t in dict.fromkeys(tags) if t]
    form["links"] = _dedupe_links(note.get("links") or [])
    form["vector"] = note.get("vector") or {"seed": 0, "basis": []}
    form["hidden"] = js_truthy(note.get("hidden"))
    form["kind"] = "fact" if note.get("kind") == "fact" else "note"
    form["hits"] = note.get("hits") if note.get("hits") is not None else 0
    session = note.get("lastHitSession")
    form["lastHitSession"] = session if session is not None else ""
    created = note.get("createdAt")
    updated = note.get("updatedAt") if note.get("updatedAt") is not None else created
    accessed = note.get("lastAccessedAt") if note.get("lastAccessedAt") is not None else updated
    form.update(createdAt=created, updatedAt=updated, lastAccessedAt=accessed)
    inferred = None
    for field in METADATA_FIELDS:
        if note.get(field) is None:
            inferred = inferred or inferred_metadata(note)
            form[field] = inferred[field]
    form["confidence"] = _clamped(form["confidence"])
    return form


def unchanged_since(left: RawNote | None, now: RawNote | None) -> bool:
    """True when `now` is the note the engine `left`, give or take the agent's normalization.
    A timestamp missing from `left` is one the agent fills with its own clock: any will do."""
    if left is None or now is None:
        return left is now
    if left == now:
        return True
    ours, theirs = agent_form(left), agent_form(now)
    for stamp in _STAMPS:
        if ours[stamp] is None:
            ours.pop(stamp)
            theirs.pop(stamp, None)
    if ours["kind"] == "fact" and not ours["hidden"] and ours.get("sourceKey"):
        # Each start re-creates every fact note from its fact and stamps it, changing nothing
        # else when the fact says what the note says.
        ours.pop("updatedAt", None)
        theirs.pop("updatedAt", None)
    return ours == theirs


def pass_content(content: str) -> str:
    """The content as the agent's morning pass rewrites it (its `normalizeContent`): lines
    trimmed with inner whitespace runs collapsed, blank and repeated lines dropped."""
    lines = (collapse_spaces(js_trim(line)) for line in content.replace("\r\n", "\n").split("\n"))
    return js_trim("\n".join(dict.fromkeys(line for line in lines if line)))


def settled_form(content: str) -> str:
    """The one form a content keeps through every rewrite the agent makes without changing what
    it says: its save (`normaliseWhitespace`) and its pass (`normalizeContent`), either first."""
    return pass_content(normalize_whitespace(content))
