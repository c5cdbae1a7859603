"""A snapshot of the notes a plan is made on, the fingerprint that tells it changed since, and
the JSON bytes every file of ours is written in (numbers as read, surrogates as escapes)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import GraphError
from core.models import RawNote
from core.notes.json_numbers import any_spelled
from core.notes.json_writer import dumps_compact, dumps_indented
from core.safeio.open_regular import GRAPH_BYTES, read_regular

EMPTY_FINGERPRINT = "absent"
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(repr=False)
class Graph:
    """One snapshot of the graph file: the document as read and the fingerprint of its bytes."""

    path: Path
    doc: dict[str, Any]
    fingerprint: str
    warnings: list[str] = field(default_factory=list)  # what the read tolerated, one line each
    # groups the system keeps files for, with notes or not (Nuggets: a fact file's nugget)
    groups: list[str] = field(default_factory=list)
    index: dict[str, int] = field(init=False)

    def __repr__(self) -> str:  # not the whole document: workers and logs print this
        return f"Graph({str(self.path)!r}, {len(self.notes)} notes, {self.fingerprint[:12]})"

    def __post_init__(self) -> None:
        self.index = {note["id"]: i for i, note in enumerate(self.notes)}

    @property
    def notes(self) -> list[RawNote]:
        notes: list[RawNote] = self.doc["notes"]  # a checked document's notes are objects
        return notes

    def get(self, note_id: str) -> RawNote | None:
        position = self.index.get(note_id)
        return None if position is None else self.notes[position]

    def with_notes(self, notes: list[RawNote]) -> dict[str, Any]:
        """The document with its notes replaced; every other top-level key kept."""
        return {**self.doc, "notes": notes}


def current_fingerprint(path: Path, limit: int = GRAPH_BYTES) -> str:
    try:
        return fingerprint(read_regular(path, limit))
    except FileNotFoundError:
        return EMPTY_FINGERPRINT
    except OSError as exc:
        raise GraphError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def json_bytes(value: Any, indent: bool = True) -> bytes:
    """JSON in UTF-8, indented as json.dumps(indent=2) writes it (by a faster encoder), or
    compact. A lone surrogate (legal in JSON text as an escape, not in UTF-8) is written as
    its escape again, and a number as its file spelled it, so what was read is written back.
    A NaN or infinity computed here is a NotFiniteError: strict JSON has no such number."""
    if indent:
        text = dumps_indented(value)
    elif any_spelled():  # the json module would write a spelled number its own way
        text = dumps_compact(value)
    else:  # the json module's C encoder: fast, for journal entries of a whole graph
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:
            text = dumps_compact(value)  # raises the NotFiniteError that names the number
    return utf8_json(text + "\n")


def utf8_json(text: str) -> bytes:
    """JSON text in UTF-8; a lone surrogate (legal in JSON as an escape, not in UTF-8) is written
    as its escape again, as it was read."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")
