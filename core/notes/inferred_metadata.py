"""The metadata the agent infers for a note that lacks it (its `inferMetadata`).

A note missing scope, subject, type, source, confidence or stability is read with what the agent
would fill in when it next loads the file, so both tools put it in the same section, give it
the same system tags and merge it with the same notes. Only reading uses this: a note we don't
change keeps its file form.
"""

from __future__ import annotations

from typing import Any

from core.notes.js_strings import js_trim

_SELF_HINTS = ("assistant", "astra", "self", "identity", "persona")
_USER_HINTS = (
    "user",
    "esteban",
    "friend",
    "denis",
    "business",
    "preference",
    "likes",
    "avoid",
    "products",
)
_SHARED_HINTS = (
    "shared",
    "server",
    "project",
    "workspace",
    "repo",
    "memory_system",
    "system",
    "status",
    "reaction",
    "tool",
    "command",
    "cmd",
    "path",
    "file",
    "edited",
    "task",
)
_PREFIX_SCOPES = ("self", "user", "shared", "project", "session")
_SUBJECTS = {"self": "assistant:self", "user": "user:primary", "session": "session:current"}
METADATA_FIELDS = ("subject", "scope", "type", "source", "confidence", "stability")


def _has(text: str, hints: tuple[str, ...]) -> bool:
    return any(hint in text for hint in hints)


def scope_from_text(key: str, content: str = "", tags: list[str] | None = None) -> str:
    """The agent's `inferScopeFromLegacyText`."""
    lower_key = js_trim(key).lower()
    for scope in _PREFIX_SCOPES:
        if lower_key.startswith(f"{scope}:"):
            return scope
    if lower_key.startswith("_"):
        return "shared"
    text = f"{lower_key} {content.lower()} {' '.join(tags or []).lower()}"
    if _has(lower_key, ("assistant_name", "assistant_style", "assistant_tone", "assistant_voice")):
        return "self"
    if _has(lower_key, ("user_name", "user_tone", "user_style", "user_voice")):
        return "user"
    if _has(text, _SHARED_HINTS):
        return "project" if "project" in lower_key else "shared"
    if _has(text, _SELF_HINTS):
        return "self"
    return "user"


def _str(note: dict[str, Any], name: str) -> str:
    value = note.get(name)
    return value if isinstance(value, str) else ""


def inferred_metadata(note: dict[str, Any]) -> dict[str, Any]:
    """What the agent infers from kind, title, content, tags and sourceKey."""
    source_key = _str(note, "sourceKey")
    named = source_key or _str(note, "title")
    key = js_trim(named).lower()
    tags = [t for t in note.get("tags") or [] if isinstance(t, str)]
    scope = scope_from_text(named, _str(note, "content"), tags)
    subject = _SUBJECTS.get(scope, "shared:project")

    note_type = "fact" if note.get("kind") == "fact" else "note"
    if ":pref:" in key or key.startswith("pref:") or "preferences" in tags:
        note_type = "preference"
    elif "reflect:" in key or "reflection" in tags:
        note_type = "reflection"
    elif scope == "self":
        note_type = "style" if "style" in key else "self_model"
    elif scope == "project" or key.startswith("project:"):
        note_type = "project"

    source = "explicit_user"
    if "file:" in key or "edited:" in key:
        source = "tool_observation"
    elif note_type in ("reflection", "self_model", "style"):
        source = "agent_reflection" if scope == "self" else "inferred"

    stability = "durable"
    if scope == "session" or key.startswith("_") or "tmp" in key or "scratch" in key:
        stability = "temporary"

    confidence = {"tool_observation": 0.98, "agent_reflection": 0.75, "inferred": 0.6}.get(
        source, 0.9
    )
    return {
        "subject": subject,
        "scope": scope,
        "type": note_type,
        "source": source,
        "confidence": confidence,
        "stability": stability,
    }


def metadata(note: dict[str, Any]) -> dict[str, Any]:
    """The note's metadata as the agent reads it: each field as stored (JavaScript's `??`: a
    null or missing field is filled), else inferred."""
    if all(note.get(name) is not None for name in METADATA_FIELDS):
        return {name: note[name] for name in METADATA_FIELDS}
    inferred = inferred_metadata(note)
    return {
        name: note[name] if note.get(name) is not None else inferred[name]
        for name in METADATA_FIELDS
    }
