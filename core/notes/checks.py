"""Checks that a parsed graph document can be worked on safely; the message names the note.

`note_problem` is the full check. Reading 100k notes with it alone takes about a second, so each
note first meets `PlainNotes.check`, a fast yes for the common well-formed note: True only when
the full check would find nothing; False means "look closer", and the full check decides (and
names the problem). Notes of one file share a few layouts, so the types of a note's top-level
fields are checked once per layout (its keys and the types of its values, in order).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Literal

from core.notes.json_numbers import LongInteger, SpelledFloat, SpelledInt

_STR_FIELDS = (
    "title",
    "content",
    "kind",
    "subject",
    "scope",
    "type",
    "source",
    "stability",
    "createdAt",
    "updatedAt",
    "lastAccessedAt",
)
_OPTIONAL_STR_FIELDS = ("lastRewrittenAt", "archivedAt", "sourceKey", "lastHitSession")
MAX_DEPTH = 64  # levels of nesting inside a note; deeper values can't be written back safely


_JSON_NAMES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    SpelledFloat: "a number",
    SpelledInt: "a number",
    LongInteger: "a number",
}


def _type_name(value: Any) -> str:
    """What a JSON value is, with its article: "an array", "null"."""
    return "null" if value is None else _JSON_NAMES.get(type(value), type(value).__name__)


def note_problem(note: Any) -> str | None:
    if not isinstance(note, dict):
        return f"is {_type_name(note)}, not an object"
    if not isinstance(note.get("id"), str) or not note["id"]:
        return "has no id (a non-empty string)"
    if not isinstance(note.get("nuggetName", note.get("donnaName")), str):
        return "has no nuggetName (a string)"
    for field in _STR_FIELDS:
        if field in note and not isinstance(note[field], str):
            return f"field {field!r} is {_type_name(note[field])}, not a string"
    for field in _OPTIONAL_STR_FIELDS:
        if note.get(field) is not None and not isinstance(note[field], str):
            return f"field {field!r} is {_type_name(note[field])}, not a string"
    return _collection_problem(note) or _number_problem(note) or _depth_problem(note)


def _depth_problem(note: dict[str, Any]) -> str | None:
    """Values nested deeper than MAX_DEPTH (which Python's JSON writer may refuse)."""
    stack = [(value, 2) for value in note.values() if type(value) in (list, dict)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"is nested more than {MAX_DEPTH} levels deep"
        children = value.values() if type(value) is dict else value
        stack.extend((child, depth + 1) for child in children if type(child) in (list, dict))
    return None


def _collection_problem(note: dict[str, Any]) -> str | None:
    tags = note.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return "field 'tags' is not an array of strings"
    links = note.get("links", [])
    if not isinstance(links, list):
        return "field 'links' is not an array"
    for position, link in enumerate(links):
        if not isinstance(link, dict) or not isinstance(link.get("to"), str):
            return f"link #{position} has no 'to' (a string)"
        for field in ("reason", "createdAt"):
            if field in link and not isinstance(link[field], str):
                return f"link #{position} field {field!r} is not a string"
    return None


def _number_problem(note: dict[str, Any]) -> str | None:
    if "hidden" in note and not isinstance(note["hidden"], bool):
        return "field 'hidden' is not true or false"
    for field in ("hits", "confidence"):
        if isinstance(note.get(field), LongInteger):
            return (
                f"field {field!r} is a number of {note[field].digits:,} digits, too long to "
                "read as a number"
            )
    hits = note.get("hits", 0)
    if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
        return "field 'hits' is not a whole number >= 0"
    confidence = note.get("confidence", 0.7)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        return "field 'confidence' is not a number"
    return None


_CONTAINERS = frozenset((list, dict))
_ONLY_STR = frozenset((str,))
_NONE = type(None)


def _layout_is_plain(keys: tuple[str, ...], types: tuple[type, ...]) -> bool:
    """The top-level field types the full check accepts, for one layout of note."""
    kinds = dict(zip(keys, types, strict=True))
    if kinds.get("id") is not str or kinds.get("nuggetName") is not str:
        return False
    if any(kinds.get(name, str) is not str for name in _STR_FIELDS):
        return False
    if any(kinds.get(name, str) not in (str, _NONE) for name in _OPTIONAL_STR_FIELDS):
        return False
    return (
        kinds.get("tags", list) is list
        and kinds.get("links", list) is list
        and kinds.get("hidden", bool) is bool
        and kinds.get("hits", int) is int
        and kinds.get("confidence", float) in (int, float)
    )


def _nesting_is_plain(value: list[Any] | dict[str, Any], depth: int) -> bool:
    """No container in `value` (itself at `depth`) sits deeper than MAX_DEPTH."""
    if depth > MAX_DEPTH:
        return False
    children: Collection[Any] = value.values() if type(value) is dict else value
    if _CONTAINERS.isdisjoint(map(type, children)):
        return True
    for child in children:
        if type(child) in _CONTAINERS and not _nesting_is_plain(child, depth + 1):
            return False
    return True


class PlainNotes:
    """Checks notes of one document; remembers the layouts it has seen."""

    def __init__(self) -> None:
        self._layouts: dict[tuple[tuple[str, ...], tuple[type, ...]], tuple[str, ...] | None] = {}

    def check(self, note: Any) -> bool:
        if type(note) is not dict:
            return False
        keys, types = tuple(note), tuple(map(type, note.values()))
        layout = (keys, types)
        nested: tuple[str, ...] | None | Literal[False] = self._layouts.get(layout, False)
        if nested is False:
            nested = self._layouts[layout] = self._nested_fields(keys, types)
        if nested is None or not note["id"] or note.get("hits", 0) < 0:
            return False
        tags = note.get("tags")
        if tags and not _ONLY_STR.issuperset(map(type, tags)):
            return False
        for link in note.get("links") or ():
            # A link of strings only (to, reason, createdAt); anything else is looked at closely.
            if (
                type(link) is not dict
                or type(link.get("to")) is not str
                or not (_ONLY_STR.issuperset(map(type, link.values())))
            ):
                return False
        for name in nested:  # noqa: SIM110 (a loop: all() and a generator cost more here)
            if not _nesting_is_plain(note[name], 2):
                return False
        return True

    @staticmethod
    def _nested_fields(keys: tuple[str, ...], types: tuple[type, ...]) -> tuple[str, ...] | None:
        """The fields whose nesting each note must show (tags and links are checked apart), or
        None when the layout itself is not plain."""
        if not _layout_is_plain(keys, types):
            return None
        return tuple(
            key
            for key, kind in zip(keys, types, strict=True)
            if kind in _CONTAINERS and key not in ("tags", "links")
        )


def document_problem(doc: Any) -> str | None:
    """None when the document is workable, else a one-line description of the first problem."""
    if not isinstance(doc, dict):
        return f"the top level is {_type_name(doc)}, not an object"
    notes = doc.get("notes")
    if not isinstance(notes, list):
        return "it has no 'notes' array"
    seen: dict[str, int] = {}
    plain = PlainNotes()
    for position, note in enumerate(notes):
        problem = None if plain.check(note) else note_problem(note)
        if problem:
            ident = note.get("id") if isinstance(note, dict) else None
            where = f"note #{position}" + (f" ({ident!r})" if isinstance(ident, str) else "")
            return f"{where} {problem}"
        first = seen.setdefault(note["id"], position)
        if first != position:
            return f"note #{position} repeats the id {note['id']!r} of note #{first}"
    return None
