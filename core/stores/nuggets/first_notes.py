"""The first notes of a graph file, read from its head before the whole file is, so that a front
end can show a page of notes at once. Nothing read here is written or acted on: the whole read
(store.read_graph) checks the file and decides. Whatever the head of the file holds, this never
raises; it gives the notes it could read plainly, or none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import NuggetsError
from core.models import RawNote
from core.notes import fields
from core.notes.checks import PlainNotes, note_problem
from core.notes.json_numbers import number_hooks
from core.safeio.json_read import raw_decode
from core.safeio.open_regular import GRAPH_BYTES, open_regular

HEAD_BYTES = 1 << 20  # a page of notes is a few kilobytes; a 20 MB first note shows nothing
_SPACE = re.compile(r"[ \t\n\r]*")


def first_notes(path: Path, count: int, head_bytes: int = HEAD_BYTES) -> list[RawNote]:
    """Up to `count` visible notes from the start of the file's notes array, in file order. It
    stops early at anything it cannot read plainly: the end of the head, a note the full check
    would refuse, an id seen twice."""
    text = _head(path, head_bytes)
    found: list[RawNote] = []
    if text is None or count <= 0:
        return found
    hooks = number_hooks()  # numbers shown as the file spells them
    try:
        for note in _notes(text, hooks):
            if not fields.hidden(note):
                found.append(note)
            if len(found) == count:
                break
    except (ValueError, IndexError, KeyError, TypeError):  # the head ends, or isn't plain
        pass
    return found


def _head(path: Path, size: int) -> str | None:
    """The file's first `size` bytes as text; None when it is not a readable regular file."""
    try:
        descriptor = open_regular(path, GRAPH_BYTES)
    except (OSError, NuggetsError):
        return None
    try:
        data = os.read(descriptor, size)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(data) - 3:  # bad bytes inside the head, not a character cut short
            return None
        text = data[: exc.start].decode("utf-8")
    return text.removeprefix("\ufeff")


def _skip_space(text: str, position: int) -> int:
    """The position after the blank space at `position`."""
    found = _SPACE.match(text, position)  # always matches (maybe nothing)
    return found.end() if found else position


def _at(text: str, position: int, expected: str) -> int:
    """The position after `expected` (and the blank space before it); ValueError otherwise."""
    position = _skip_space(text, position)
    if text[position] != expected:
        raise ValueError(f"expected {expected!r}")
    return position + 1


def _notes(text: str, hooks: dict[str, Any]) -> Iterator[RawNote]:
    """The notes of the top-level "notes" array, one by one, each as the full check would take
    it; other top-level values are read past."""
    position = _at(text, 0, "{")
    while True:
        position = _skip_space(text, position)
        key, position = raw_decode(text, position, **hooks)
        position = _at(text, position, ":")
        position = _skip_space(text, position)
        if key == "notes":
            yield from _array(text, _at(text, position, "["), hooks)
            return
        _, position = raw_decode(text, position, **hooks)
        position = _at(text, position, ",")


def _array(text: str, position: int, hooks: dict[str, Any]) -> Iterator[RawNote]:
    plain, seen = PlainNotes(), set()
    while True:
        position = _skip_space(text, position)
        if text[position] == "]":
            return
        note, position = raw_decode(text, position, **hooks)
        if not (plain.check(note) or note_problem(note) is None) or note["id"] in seen:
            return
        seen.add(note["id"])
        yield note
        position = _skip_space(text, position)
        if text[position] != ",":
            return  # "]", or not JSON: either way there is nothing more to show
        position += 1
