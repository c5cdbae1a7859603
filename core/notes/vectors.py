"""The `vector` the agent stores on a note: `{"seed", "basis"}`, recomputed for every note the
engine changes, exactly as the agent does for its own edits, so its search ranks our edits like
its own (it weighs the vector at 42%). The basis names the note's kind, metadata and id, then its
first title, content, tag and link tokens; the seed is the length of the joined basis in UTF-16
code units (JavaScript's `.length`). The numbers themselves are built by the agent at search time.
"""

from __future__ import annotations

from typing import Any, cast

from core.models import RawNote
from core.notes import fields
from core.notes.js_strings import agent_tokens, normalize_tag, utf16_length

_BASIS_SIZE = 20
_META = ("subject", "scope", "type", "source", "stability")
_META_PREFIXES = tuple(f"{name}:" for name in _META)
_ALL_STR = (str,) * len(_META)


def vector_spec(note: RawNote) -> dict[str, Any]:
    kind = "fact" if note.get("kind") == "fact" else "note"
    stored = tuple(map(note.get, _META))
    if tuple(map(type, stored)) == _ALL_STR:
        meta = list(map(str.__add__, _META_PREFIXES, cast(tuple[str, ...], stored)))
    else:  # what the agent infers for a note without them
        meta = [f"{name}:{fields.meta(note, name)}" for name in _META]
    parts = [
        f"kind:{kind}",
        *meta,
        f"note:{note['id']}",
        *map("title:".__add__, agent_tokens(fields.text(note, "title"), 4)),
        *map("content:".__add__, agent_tokens(fields.text(note, "content"), 6)),
        *map("tag:".__add__, map(normalize_tag, fields.tags(note)[:6])),
        *[f"link:{link['to']}" for link in fields.links(note)[:4]],
    ]
    basis = list(dict.fromkeys(parts))[:_BASIS_SIZE]
    return {"seed": utf16_length("|".join(basis)), "basis": basis}


def refresh(note: RawNote) -> None:
    """Give a note the engine changed the vector the agent would give it (in place)."""
    note["vector"] = vector_spec(note)
