"""MEMORY.md as its sections and entries, edited in place (SPEC §6).

Read line by line, an entry of section S titled T is the first line of S that starts with
`- **T**:`, with the lines after it that start with two spaces and are not blank. Promotion of a
large memory adds thousands of entries, and looking each one up by reading the file again made
that quadratic (seconds at 100k notes). Here the document is kept as sections of chunks (an
entry's lines, or one other line) with an index from title to entry, and every edit gives the
same text as the line-by-line reading would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SECTION = re.compile(r"^##\s+(.*?)\s*$")
_HEAD = "- **"
_TITLE_END = "**:"


def section_rank(name: str) -> tuple[int, str]:
    """Where a new section goes: learnings, then preferences, then the rest by name."""
    return {"learnings": (0, ""), "preferences": (1, "")}.get(name, (2, name))


def _titles(head: str) -> list[str]:
    """Every title T for which `head` starts with `- **T**:` (a title may hold `**:` itself)."""
    found, at = [], head.find(_TITLE_END, len(_HEAD))
    while at != -1:
        found.append(head[len(_HEAD):at])
        at = head.find(_TITLE_END, at + 1)
    return found


@dataclass
class _Section:
    name: str
    heading: str
    chunks: list[list[str]] = field(default_factory=list)
    # title -> the numbers of the entries it finds; the lowest comes first in the section
    _by_title: dict[str, set[int]] = field(default_factory=dict)
    _entries: dict[int, list[str]] = field(default_factory=dict)

    def add_line(self, line: str) -> None:
        last = self.chunks[-1] if self.chunks else None
        if line.startswith(_HEAD):
            self._add_entry(len(self.chunks), [line])
        elif last is not None and last[0].startswith(_HEAD) and line.startswith("  ") \
                and line.strip():
            last.append(line)
        else:
            self.chunks.append([line])

    def _add_entry(self, at: int, lines: list[str]) -> None:
        self.chunks.insert(at, lines)
        number = len(self._entries)  # entries are only ever added after the others
        self._entries[number] = lines
        self._index(number, lines[0])

    def _index(self, number: int, head: str, drop: bool = False) -> None:
        for title in _titles(head):
            numbers = self._by_title.setdefault(title, set())
            if drop:
                numbers.discard(number)
            else:
                numbers.add(number)

    def entry(self, title: str) -> tuple[int, list[str]] | None:
        numbers = self._by_title.get(title)
        if not numbers:
            return None
        number = min(numbers)
        return number, self._entries[number]

    def replace(self, number: int, lines: list[str]) -> None:
        chunk = self._entries[number]
        self._index(number, chunk[0], drop=True)
        chunk[:] = lines
        self._index(number, chunk[0])

    def append(self, lines: list[str], last_section: bool) -> None:
        """After the last non-blank line; into an empty section between blank lines."""
        filled = next((i for i in range(len(self.chunks) - 1, -1, -1)
                       if self.chunks[i][-1].strip()), None)
        if filled is not None:
            self._add_entry(filled + 1, lines)
            return
        self.chunks = [[""]]
        self._add_entry(1, lines)
        if not last_section:
            self.chunks.append([""])

    def text_lines(self) -> list[str]:
        return [self.heading, *(line for chunk in self.chunks for line in chunk)]


class MemoryDocument:
    """MEMORY.md's text, or `header` when there is none yet, ready for `upsert`."""

    def __init__(self, text: str, header: list[str]) -> None:
        self.trailing_newline = text.endswith("\n") or not text
        self.preamble: list[str] = []
        self.sections: list[_Section] = []
        for line in text.splitlines() if text else header:
            heading = _SECTION.match(line)
            if heading:
                self.sections.append(_Section(heading.group(1), line))
            elif self.sections:
                self.sections[-1].add_line(line)
            else:
                self.preamble.append(line)

    def upsert(self, section: str, title: str, entry: list[str]) -> str:
        """Add the entry to its section (made when missing) or update it in place: "add",
        "update", or "same" when it reads the same already."""
        place = next((s for s in self.sections if s.name == section), None)
        if place is None:
            place = self._add_section(section)
        found = place.entry(title)
        if found is None:
            place.append(entry, last_section=place is self.sections[-1])
            return "add"
        number, lines = found
        if lines == entry:
            return "same"
        place.replace(number, entry)
        return "update"

    def _add_section(self, name: str) -> _Section:
        """Before the first section that ranks after it, or at the end; a blank line before
        the heading unless there is one (or nothing) already."""
        rank = section_rank(name)
        at = next((i for i, s in enumerate(self.sections) if section_rank(s.name) > rank),
                  len(self.sections))
        before = self.sections[at - 1] if at > 0 else None
        above = before.text_lines()[-1] if before else (self.preamble or [""])[-1]
        if above.strip():
            if before is not None:
                before.chunks.append([""])
            else:
                self.preamble.append("")
        added = _Section(name, f"## {name}", [[""]] if at < len(self.sections) else [])
        self.sections.insert(at, added)
        return added

    def text(self) -> str:
        lines = [*self.preamble, *(line for s in self.sections for line in s.text_lines())]
        return "\n".join(lines) + ("\n" if self.trailing_newline else "")
