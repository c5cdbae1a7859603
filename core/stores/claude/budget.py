"""A proposal that brings MEMORY.md back under its load budget (docs/CLAUDE_CODE.md, "The
budget"): every line that is not an index entry or a heading of a section with entries (the
detail the agent wrote into the index) moves to a new topic file, which one new entry names;
no entry is ever dropped. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.stores.claude import index

DETAIL_NAME = "index_detail"
_HEADING = re.compile(r"^#{1,6}\s")


@dataclass(frozen=True)
class Proposal:
    index_text: str  # MEMORY.md as proposed
    detail_name: str  # the new topic file
    detail_text: str
    moved: int  # lines moved out
    fits: bool  # whether the proposed index is within the budget


def _sections(lines: list[str]) -> list[list[tuple[int, str]]]:
    """The lines with their 1-based numbers, split before each heading."""
    found: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(lines, start=1):
        if _HEADING.match(line) and found[-1]:
            found.append([])
        found[-1].append((number, line))
    return found


def _free_name(taken: set[str]) -> str:
    name, number = f"{DETAIL_NAME}.md", 2
    while name in taken:
        name, number = f"{DETAIL_NAME}-{number}.md", number + 1
    return name


def propose(text: str, taken: set[str], at: str) -> Proposal | None:
    """None when the index is within its budget or holds nothing but entries and headings."""
    if not index.budget(text.encode()).over:
        return None
    entry_lines = {e.line for e in index.entries(text)}
    kept: list[str] = []
    moved: list[str] = []
    for section in _sections(index.split_lines(text)):
        heading = section[0][1] if _HEADING.match(section[0][1]) else None
        body = section[1:] if heading else section
        entries = [line for number, line in body if number in entry_lines]
        detail = [line for number, line in body if number not in entry_lines and line.strip()]
        if heading and (entries or not detail):
            kept += ["", heading, ""] if kept else [heading, ""]
        kept += entries
        if detail:
            moved += ([heading, ""] if heading else []) + detail + [""]
    if not moved:
        return None
    name = _free_name(taken)
    count = sum(1 for line in moved if line.strip())
    kept.append(
        f"- [Detail moved from the index]({name}) — {count} lines the index held "
        "besides its entries"
    )
    proposed = "\n".join(kept) + "\n"
    detail_text = (
        "---\nname: Detail moved from the index\ndescription: lines MEMORY.md held "
        f"besides its entries, moved out {at[:10]} to keep the index in its "
        "load budget\ntype: project\n---\n\n" + "\n".join(moved).rstrip("\n") + "\n"
    )
    return Proposal(proposed, name, detail_text, count, not index.budget(proposed.encode()).over)
