"""What changed in one note, as data a front end can show: fields, content lines, tags, links."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Literal, cast

from core.models import RawNote
from core.notes import fields

LineTag = Literal[" ", "-", "+", "@"]
_FIELDS = ("title", "hidden", "hits", "archivedAt")


@dataclass
class NoteChange:
    fields: list[tuple[str, object, object]] = field(default_factory=list)
    content: list[tuple[LineTag, str]] = field(default_factory=list)
    tags_removed: list[str] = field(default_factory=list)
    tags_added: list[str] = field(default_factory=list)
    links_removed: list[tuple[str, str]] = field(default_factory=list)
    links_added: list[tuple[str, str]] = field(default_factory=list)


def shown_value(value: object) -> str:
    """A field's value as a person reads it in the file: `false`, not `False`; `(not set)`,
    not `None`."""
    if value is None:
        return "(not set)"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _lines(text: str) -> list[str]:
    """Empty text has no lines (an added or removed text is all additions or all removals);
    any other text splits on every line break, so a real blank line is still a line. The
    break that ends a file's last line starts no line of its own."""
    lines = text.split("\n") if text else []
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def _shifted(header: str, first: tuple[int, int]) -> str:
    """A hunk header of a text that starts at line `first` (before, after) of its file."""
    found = _HUNK.match(header)
    if found is None or first == (1, 1):
        return header
    old, old_count, new, new_count = found.groups()
    return (
        f"@@ -{int(old) + first[0] - 1}{old_count or ''} "
        f"+{int(new) + first[1] - 1}{new_count or ''} @@{header[found.end() :]}"
    )


def content_lines(
    before: str, after: str, context: int = 1, first: tuple[int, int] = (1, 1)
) -> list[tuple[LineTag, str]]:
    """A unified line diff without its file headers; hunks start with an '@' line. `first`:
    the line of its file each text starts at, when it is a run of lines cut from one."""
    if before == after:
        return []
    old, new = _lines(before), _lines(after)
    if old == new:  # only the break after the last line differs: show it as a blank line
        old, new = before.split("\n"), after.split("\n")
    out: list[tuple[LineTag, str]] = []
    for line in difflib.unified_diff(old, new, lineterm="", n=context):
        if line.startswith(("---", "+++")):
            continue
        # A unified diff's lines start with ' ', '-', '+' or '@@'.
        tag = cast(LineTag, "@" if line.startswith("@@") else line[:1])
        out.append((tag, _shifted(line, first) if tag == "@" else line[1:]))
    return out


def first_line(note: RawNote | None) -> int:
    """Where a note cut from a file starts in it (`firstLine`; 1: the note is the whole text)."""
    if note is None:
        return 1
    value = note.get("firstLine")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _link_pairs(note: RawNote) -> list[tuple[str, str]]:
    return [(link["to"], link.get("reason", "")) for link in fields.links(note)]


def compare(before: RawNote, after: RawNote) -> NoteChange:
    change = NoteChange()
    for name in _FIELDS:
        if before.get(name) != after.get(name):
            change.fields.append((name, before.get(name), after.get(name)))
    change.content = content_lines(
        fields.text(before, "content"),
        fields.text(after, "content"),
        first=(first_line(before), first_line(after)),
    )
    old_tags, new_tags = fields.tags(before), fields.tags(after)
    change.tags_removed = [t for t in old_tags if t not in new_tags]
    change.tags_added = [t for t in new_tags if t not in old_tags]
    old_links, new_links = _link_pairs(before), _link_pairs(after)
    change.links_removed = [pair for pair in old_links if pair not in new_links]
    change.links_added = [pair for pair in new_links if pair not in old_links]
    return change
