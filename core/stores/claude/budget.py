"""A proposal that brings MEMORY.md back under its load budget (docs/CLAUDE_CODE.md, "The
budget"), as Claude Code's own guidance has it ("move detail into topic files"): every line that
is not an index entry or a heading of a section with entries leaves the index. The indented
lines under an entry move to the end of the topic file that entry names; the rest of a section
moves to new topic files named after the section, each within what recall shows (4,096 bytes),
each named by one new entry. No entry is ever dropped. Pure."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from core.stores.claude import index
from core.stores.claude.paths import INDEX

LOOSE_NAME = "index_notes"  # the new file for detail under no heading
_HEADING = re.compile(r"^#{1,6}\s")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Moved:
    """A topic file the proposal writes: one an entry names, or a new one."""

    name: str
    before: str | None  # its text now (None: a new file)
    after: str
    lines: int  # lines of MEMORY.md moved into it


@dataclass(frozen=True)
class Proposal:
    index_text: str  # MEMORY.md as proposed
    files: tuple[Moved, ...]  # written first, in this order
    moved: int  # lines moved out
    fits: bool  # whether the proposed index is within the budget

    def cut(self) -> list[str]:
        """The files written that recall would show only in part."""
        return [m.name for m in self.files if index.recalled(m.after)[1]]


def _sections(lines: list[str]) -> list[list[tuple[int, str]]]:
    """The lines with their 1-based numbers, split before each heading."""
    found: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(lines, start=1):
        if _HEADING.match(line) and found[-1]:
            found.append([])
        found[-1].append((number, line))
    return found


def _owners(text: str, files: Mapping[str, bytes], skip: Collection[str]) -> dict[int, str | None]:
    """Each entry line's number, and the topic file its detail may go to (None: none we may
    write — missing, not UTF-8, or with a change of the agent's pending)."""
    known = index.Names(name for name in files if name != INDEX)
    found: dict[int, str | None] = {}
    for entry in index.entries(text):
        name = known.of(entry.target)
        usable = name in known and name not in skip and _decoded(files.get(name or "")) is not None
        if found.get(entry.line) is None:
            found[entry.line] = name if usable else None
    return found


def _decoded(data: bytes | None) -> str | None:
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _free_name(stem: str, taken: set[str]) -> str:
    name, number = f"{stem}.md", 2
    while index.key(name) in taken:
        name, number = f"{stem}-{number}.md", number + 1
    taken.add(index.key(name))
    return name


def _new_files(
    heading: str | None, lines: list[str], at: str, taken: set[str]
) -> tuple[str, list[Moved]]:
    """A section's detail as new topic files, each within what recall shows, and their
    description."""
    title = heading.lstrip("#").strip() if heading else INDEX
    stem = (_NOT_WORD.sub("_", title.lower()).strip("_") if heading else "") or LOOSE_NAME
    description = f"{title}: lines of {INDEX} moved out {at[:10]} to keep it in its budget"
    found: list[Moved] = []
    chunk: list[str] = []
    for line in [*lines, None]:
        if line is not None and (
            not chunk or not index.recalled(_topic(stem, description, heading, [*chunk, line]))[1]
        ):
            chunk.append(line)
            continue
        name = _free_name(stem, taken)
        found.append(Moved(name, None, _topic(stem, description, heading, chunk), len(chunk)))
        chunk = [line] if line is not None else []
    return description, found


def _topic(stem: str, description: str, heading: str | None, lines: list[str]) -> str:
    """A new topic file in the format Claude Code's template gives the model."""
    head = [heading, ""] if heading else []
    return (
        f"---\nname: {stem.replace('_', '-')}\n"
        f"description: {json.dumps(description, ensure_ascii=False)}\n"
        "metadata:\n  type: project\n---\n\n" + "\n".join([*head, *lines]) + "\n"
    )


def _appended(text: str, lines: list[str]) -> str:
    head = text if text.endswith("\n") or not text else text + "\n"
    return head + f"\n## From {INDEX}\n\n" + "\n".join(lines) + "\n"


def propose(
    text: str, files: Mapping[str, bytes], at: str, skip: Collection[str] = ()
) -> Proposal | None:
    """None when the index is within its budget or holds nothing but entries and headings.
    `files`: the directory's files by path; `skip`: files no proposal writes."""
    if not index.budget(text.encode()).over:
        return None
    owners = _owners(text, files, skip)
    kept: list[str] = []
    owned: dict[str, list[str]] = {}
    loose: list[tuple[str | None, list[str]]] = []
    for section in _sections(index.split_lines(text)):
        heading = section[0][1] if _HEADING.match(section[0][1]) else None
        body = section[1:] if heading else section
        entries = [line for number, line in body if number in owners]
        rest: list[str] = []
        owner = None
        for number, line in body:
            if number in owners:
                owner = owners[number]
            elif line.strip():
                owner = owner if line[:1] in (" ", "\t") else None
                (owned.setdefault(owner, []) if owner else rest).append(line)
        if heading and (entries or not rest):
            kept += ["", heading, ""] if kept else [heading, ""]
        kept += entries
        if rest:
            loose.append((heading, rest))
    if not owned and not loose:
        return None
    moved = [
        Moved(name, before, _appended(before, lines), len(lines))
        for name, lines in owned.items()
        if (before := _decoded(files[name])) is not None
    ]
    taken = {index.key(name) for name in files}
    for heading, lines in loose:
        description, new = _new_files(heading, lines, at, taken)
        moved += new
        kept += [index.entry_line(m.name, description) for m in new]
    proposed = "\n".join(kept) + "\n"
    count = sum(m.lines for m in moved)
    return Proposal(proposed, tuple(moved), count, not index.budget(proposed.encode()).over)
