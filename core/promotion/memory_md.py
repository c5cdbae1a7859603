"""MEMORY.md as its sections and entries, edited in place (docs/PROMOTION.md, "Entries";
docs/FORMATS.md, "MEMORY.md").

Read line by line, an entry of section S titled T is the first line of S that starts with
`- **T**:`, with the lines directly under it up to the next blank line, entry or heading (the
agent writes them flush left, and so do we; earlier versions of ours indented them by two
spaces, which reads the same). A note whose content has a blank line in it goes on after that
blank line: such a paragraph is the entry's when it spells the rest of the note (`absorb`).
An entry our newest run on the file wrote (`known`, from the journal) is read as a whole too
where the file still spells it exactly, blank lines and later paragraphs included, so that an
update replaces it whole. In a file laid out exactly as the agent's promotion writes one
(`laid_out_by_agent`), an entry is read as the agent writes it: every line under it up to the
next entry or heading is its value (the blank line that ends the section aside), so an update
replaces an old second paragraph the agent wrote too (`take_old_value`). In any other file a
paragraph after a blank line under an entry reads like a line written by hand, and stays.
A note's line that reads as an entry or a section of its own (`- **…**: …`, `## …`) is written
flush left as the agent writes it; the entries we are about to write (`expected`) are read
first as a whole wherever the file spells them, so that such a line stays in its entry.

Promotion of a large memory adds thousands of entries, and looking each one up by reading the
file again made that quadratic (seconds at 100k notes). Here the document is kept as sections of
chunks (an entry's lines, or one other line) with an index from title to entry, and every edit
gives the same text as the line-by-line reading would.

Lines are split on "\\n" only and kept with their "\\r": a CRLF file stays CRLF, and a U+2028 or
form feed inside a hand-written line stays inside it. Lines we write take the file's dominant
ending.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import NuggetsError
from core.models import PromotionAction
from core.notes.snapshot import EMPTY_FINGERPRINT, fingerprint
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular

_SECTION = re.compile(r"^##\s+(.*?)\s*$")
_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_HEAD = "- **"
_TITLE_END = "**:"

# The line under the title of a MEMORY.md begun by promotion, as the agent writes it; earlier
# versions of ours wrote "nuggets" for "nugget", and that line reads as the same.
HEADER_LINE = "Auto-promoted from nugget graph notes (3+ recalls across sessions)."
OUR_OLD_HEADER_LINE = "Auto-promoted from nuggets graph notes (3+ recalls across sessions)."

# The entries about to be written, by section and title: their lines, without endings.
Expected = Mapping[tuple[str, str], list[str]]


def section_rank(name: str) -> tuple[int, str]:
    """Where a new section goes: learnings, then preferences, then the rest by name."""
    return {"learnings": (0, ""), "preferences": (1, "")}.get(name, (2, name))


def bare(line: str) -> str:
    """A line without the "\\r" of its CRLF ending."""
    return line[:-1] if line.endswith("\r") else line


def split_lines(text: str) -> list[str]:
    """The lines of `text` with their endings, split on "\\n" only (not str.splitlines)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _titles(head: str) -> list[str]:
    """Every title T for which `head` starts with `- **T**:` (a title may hold `**:` itself)."""
    found, at = [], head.find(_TITLE_END, len(_HEAD))
    while at != -1:
        found.append(head[len(_HEAD) : at])
        at = head.find(_TITLE_END, at + 1)
    return found


def titles_of(head: str) -> list[str]:
    """The titles an entry's first line may be read with (shortest first); [] for any other
    line."""
    return _titles(head) if head.startswith(_HEAD) else []


def section_name(line: str) -> str | None:
    """The section a `## name` line opens (its line ending taken off first), else None."""
    found = _SECTION.match(bare(line))
    return found.group(1) if found else None


def _is_entry(line: str) -> bool:
    return line.startswith(_HEAD)


def _ends_value(line: str) -> bool:
    return _is_entry(line) or bool(_HEADING.match(line))


def reads_as_entry_or_heading(line: str) -> bool:
    """Whether a line, written flush left, would read as an entry or a heading of its own."""
    return _is_entry(line) or bool(_HEADING.match(line))


@dataclass
class _Section:
    name: str
    heading: str
    chunks: list[list[str]] = field(default_factory=list)
    # title -> the numbers of the entries it finds; the lowest comes first in the section
    _by_title: dict[str, set[int]] = field(default_factory=dict)
    _entries: dict[int, list[str]] = field(default_factory=dict)
    _numbers: itertools.count[int] = field(default_factory=itertools.count)

    def add_line(self, line: str) -> None:
        last = self.chunks[-1] if self.chunks else None
        text = bare(line)
        if _is_entry(text):
            self._add_entry(len(self.chunks), [line])
        elif (
            last is not None
            and _is_entry(bare(last[0]))
            and text.strip()
            and not _HEADING.match(text)
        ):
            last.append(line)
        else:
            self.chunks.append([line])

    def add_whole_entry(self, lines: list[str]) -> None:
        """An entry read as a whole, whatever its lines look like (`MemoryDocument`'s
        `expected`)."""
        self._add_entry(len(self.chunks), lines)

    def _add_entry(self, at: int, lines: list[str]) -> None:
        self.chunks.insert(at, lines)
        number = next(self._numbers)  # entries are only ever added after the others
        self._entries[number] = lines
        self._index(number, lines[0])

    def _index(self, number: int, head: str, drop: bool = False) -> None:
        for title in _titles(bare(head)):
            numbers = self._by_title.setdefault(title, set())
            if drop:
                numbers.discard(number)
            else:
                numbers.add(number)

    def numbers(self, title: str) -> list[int]:
        found = self._by_title.get(title)
        return sorted(found) if found else []

    def lines_of(self, number: int) -> list[str]:
        return self._entries[number]

    def replace(self, number: int, lines: list[str]) -> None:
        chunk = self._entries[number]
        self._index(number, chunk[0], drop=True)
        chunk[:] = lines
        self._index(number, chunk[0])

    def _position(self, number: int) -> int:
        chunk = self._entries[number]
        return next(i for i, c in enumerate(self.chunks) if c is chunk)

    def remove(self, number: int) -> None:
        del self.chunks[self._position(number)]
        self._index(number, self._entries.pop(number)[0], drop=True)

    def absorb(self, number: int, lines: list[str]) -> None:
        """Take in the lines after the entry when, with its own, they spell the entry's `lines`
        exactly (line endings aside): the paragraphs after a blank line of a note's content."""
        own = [bare(line) for line in self._entries[number]]
        wanted = [bare(line) for line in lines]
        if wanted[: len(own)] != own or len(wanted) == len(own):
            return
        rest, at = wanted[len(own) :], self._position(number) + 1
        end, taken = at, list[str]()
        while rest and end < len(self.chunks) and not _is_entry(bare(self.chunks[end][0])):
            chunk = self.chunks[end]
            if rest[: len(chunk)] != [bare(line) for line in chunk]:
                return
            rest, end, taken = rest[len(chunk) :], end + 1, taken + chunk
        if rest:
            return
        del self.chunks[at:end]
        self._entries[number].extend(taken)

    def take_old_value(self, number: int) -> None:
        """Take in what stands under the entry as its old value, read as the agent writes an
        entry: every line up to the next entry or heading, the blank lines that end the
        section (or come before the next entry) left out. Only for an entry about to be
        updated: its old paragraphs go with it."""
        at = self._position(number) + 1
        end = at
        while end < len(self.chunks) and not _ends_value(bare(self.chunks[end][0])):
            end += 1
        while end > at and not any(line.strip() for line in self.chunks[end - 1]):
            end -= 1
        taken = [line for chunk in self.chunks[at:end] for line in chunk]
        del self.chunks[at:end]
        self._entries[number].extend(taken)

    def blank(self) -> bool:
        return all(not line.strip() for chunk in self.chunks for line in chunk)

    def trim_end(self) -> None:
        while self.chunks and not self.chunks[-1][-1].strip():
            self.chunks.pop()

    def append(self, lines: list[str], last_section: bool, eol: str) -> None:
        """After the last non-blank line; into an empty section between blank lines."""
        filled = next(
            (i for i in range(len(self.chunks) - 1, -1, -1) if self.chunks[i][-1].strip()), None
        )
        if filled is not None:
            self._add_entry(filled + 1, lines)
            return
        self.chunks = [[eol]]
        self._add_entry(1, lines)
        if not last_section:
            self.chunks.append([eol])

    def text_lines(self) -> list[str]:
        return [self.heading, *(line for chunk in self.chunks for line in chunk)]


def spelled(lines: list[str], at: int, section: str, expected: Expected) -> int:
    """How many lines from `at` on spell an expected entry of `section` whole (0: none)."""
    for title in titles_of(bare(lines[at])):
        wanted = expected.get((section, title))
        if (
            wanted
            and len(wanted) > 1
            and [bare(line) for line in lines[at : at + len(wanted)]] == wanted
        ):
            return len(wanted)
    return 0


def laid_out_by_agent(text: str) -> bool:
    """Whether the file is laid out exactly as the agent's promotion writes it whole: its
    title and header line, then sections of a heading, a blank line and entries, a blank line
    before the next heading, every line trimmed and never two blank lines in a row. In such a
    file, all that stands under an entry up to the next entry or heading is its value."""
    if "\r" in text or not text.endswith("\n"):
        return False
    lines = text[:-1].split("\n")
    if lines[:4] != ["# Memory", "", HEADER_LINE, ""]:
        return False
    rest, at = lines[4:], 0
    while at < len(rest):
        end = next((i for i in range(at + 1, len(rest)) if _SECTION.match(rest[i])), len(rest))
        body = rest[at + 2 : end - 1] if end < len(rest) else rest[at + 2 : end]
        if (
            not _SECTION.match(rest[at])
            or rest[at + 1 : at + 2] != [""]
            or not body
            or not _is_entry(body[0])
            or (end < len(rest) and rest[end - 1] != "")
            or any(line != line.strip() for line in body)
            or any(not a and not b for a, b in itertools.pairwise(body))
        ):
            return False
        at = end
    return True


class MemoryDocument:
    """MEMORY.md's text, or `header` when there is none yet, ready for `upsert`; `expected`:
    the entries about to be written, and `known`: those our newest run on the file wrote, read
    as a whole wherever the file spells them."""

    def __init__(
        self,
        text: str,
        header: list[str],
        expected: Expected | None = None,
        known: Expected | None = None,
    ) -> None:
        self.trailing_newline = text.endswith("\n") or not text
        self.agents_layout = laid_out_by_agent(text)
        lines = text.split("\n") if text else list(header)
        if self.trailing_newline and text:
            lines.pop()
        crlf = sum(line.endswith("\r") for line in lines)
        self.eol = "\r" if crlf * 2 > len(lines) else ""
        self._unterminated = False
        if lines and not self.trailing_newline and self.eol and not lines[-1].endswith("\r"):
            lines[-1] += "\r"  # lines added after it need its ending; taken off again at the end
            self._unterminated = True
        self.preamble: list[str] = []
        self.sections: list[_Section] = []
        at = 0
        while at < len(lines):
            line = lines[at]
            heading = _SECTION.match(bare(line))
            whole = (
                self._spelled(lines, at, expected, known) if self.sections and not heading else 0
            )
            if whole:
                self.sections[-1].add_whole_entry(lines[at : at + whole])
                at += whole
                continue
            if heading:
                self.sections.append(_Section(heading.group(1), line))
            elif self.sections:
                self.sections[-1].add_line(line)
            else:
                self.preamble.append(line)
            at += 1

    def _spelled(self, lines: list[str], at: int, *entries: Expected | None) -> int:
        section = self.sections[-1].name
        return next(
            (n for given in entries if given if (n := spelled(lines, at, section, given))), 0
        )

    def _section(self, name: str) -> _Section | None:
        return next((s for s in self.sections if s.name == name), None)

    def upsert(self, section: str, title: str, entry: list[str]) -> PromotionAction:
        """Add the entry to its section (made when missing) or update it in place: "add",
        "update", or "same" when it reads the same already (its paragraphs after a blank line
        included, see `_Section.absorb`). Further entries of that title in the section are
        removed."""
        entry = [line + self.eol for line in entry]
        place = self._section(section) or self._add_section(section)
        numbers = place.numbers(title)
        if not numbers:
            place.append(entry, last_section=place is self.sections[-1], eol=self.eol)
            return "add"
        first, *others = numbers
        for number in others:
            place.remove(number)
        place.absorb(first, entry)
        if place.lines_of(first) == entry and not others:
            return "same"
        if self.agents_layout:
            place.take_old_value(first)
        place.replace(first, entry)
        return "update"

    def only_entry(self, section: str, title: str) -> list[str] | None:
        """The lines (without endings) of the one entry of `title` in `section`; None when
        there is none or more than one."""
        place = self._section(section)
        numbers = place.numbers(title) if place else []
        if place is None or len(numbers) != 1:
            return None
        return [bare(line) for line in place.lines_of(numbers[0])]

    def add_line(self, section: str, line: str, before: str | None = None) -> PromotionAction:
        """Add a plain line (`- text`, no title) at the end of the section (made when
        missing; before the first section whose name starts with `before`, when given) unless
        the section holds it already: "add" or "same"."""
        place = self._section(section) or self._add_section(section, before)
        if any(bare(held) == line for chunk in place.chunks for held in chunk):
            return "same"
        place.append([line + self.eol], last_section=place is self.sections[-1], eol=self.eol)
        return "add"

    def remove(self, section: str, title: str) -> bool:
        """Take every entry of `title` out of `section`; a section left with nothing but blank
        lines goes too. True when something was removed."""
        place = self._section(section)
        if place is None:
            return False
        numbers = place.numbers(title)
        for number in numbers:
            place.remove(number)
        if numbers and place.blank():
            at = self.sections.index(place)
            del self.sections[at]
            if at == len(self.sections):  # it was the last: the file ends at the one before
                if self.sections:
                    self.sections[-1].trim_end()
                else:
                    while self.preamble and not self.preamble[-1].strip():
                        self.preamble.pop()
        return bool(numbers)

    def sections_holding(self, title: str) -> list[str]:
        """The sections with an entry of `title`."""
        return [s.name for s in self.sections if s.numbers(title)]

    def move_before(self, name: str, before: str) -> bool:
        """Move section `name` up to just before the first section whose name starts with
        `before`, when it comes after it; True when it moved."""
        place = self._section(name)
        first = self._first_starting(before)
        if place is None or first is None or first > self.sections.index(place):
            return False
        at = self.sections.index(place)
        del self.sections[at]
        if at == len(self.sections):  # it ended the file: the section before it does now
            self.sections[-1].trim_end()
        place.trim_end()
        place.chunks.append([self.eol])
        self.sections.insert(first, place)
        return True

    def _first_starting(self, prefix: str) -> int | None:
        return next((i for i, s in enumerate(self.sections) if s.name.startswith(prefix)), None)

    def _add_section(self, name: str, ahead_of: str | None = None) -> _Section:
        """Before the first section that ranks after it (or whose name starts with `ahead_of`),
        or at the end; a blank line before the heading unless there is one (or nothing)
        already."""
        rank = section_rank(name)
        at = next(
            (i for i, s in enumerate(self.sections) if section_rank(s.name) > rank),
            len(self.sections),
        )
        first = self._first_starting(ahead_of) if ahead_of is not None else None
        at = at if first is None else min(at, first)
        before = self.sections[at - 1] if at > 0 else None
        above = before.text_lines()[-1] if before else (self.preamble or [""])[-1]
        if above.strip():
            if before is not None:
                before.chunks.append([self.eol])
            else:
                self.preamble.append(self.eol)
        added = _Section(
            name, f"## {name}{self.eol}", [[self.eol]] if at < len(self.sections) else []
        )
        self.sections.insert(at, added)
        return added

    def text(self) -> str:
        lines = [*self.preamble, *(line for s in self.sections for line in s.text_lines())]
        text = "\n".join(lines)
        if self.trailing_newline:
            return text + "\n"
        return text[:-1] if self._unterminated and text.endswith("\r") else text


def read_memory_md(path: Path) -> tuple[str, str]:
    """MEMORY.md's text and the fingerprint of its bytes; absent reads as empty."""
    try:
        data = read_regular(path, MEMORY_MD_BYTES)
    except FileNotFoundError:
        return "", EMPTY_FINGERPRINT
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8"), fingerprint(data)
    except UnicodeDecodeError as exc:
        raise NuggetsError(f"{path}: not valid UTF-8 at byte {exc.start}") from None
