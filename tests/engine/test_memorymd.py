"""MEMORY.md edited through its index gives the same text as reading it line by line for every edit:
`LineByLine` below is that plain reading (docs/FORMATS.md), kept as the reference. An entry's lines
are its head and the lines directly under it up to a blank line, entry or heading."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from core.promotion.memory_md import MemoryDocument, section_rank

HEADER = ["# Memory", "", "Auto-promoted from nuggets graph notes (3+ recalls across sessions)."]
_SECTION = re.compile(r"^##\s+(.*?)\s*$")
_HEADING = re.compile(r"^#{1,6}(\s|$)")


class LineByLine:
    """Every lookup reads the lines again: simple, and quadratic in the number of entries."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines() if text else list(HEADER)
        self.trailing_newline = text.endswith("\n") or not text

    def sections(self) -> list[tuple[str, int, int]]:
        heads = [
            (m.group(1), i) for i, line in enumerate(self.lines) if (m := _SECTION.match(line))
        ]
        return [
            (name, start, heads[k + 1][1] if k + 1 < len(heads) else len(self.lines))
            for k, (name, start) in enumerate(heads)
        ]

    def find(self, section: str) -> tuple[int, int] | None:
        return next(((s, e) for name, s, e in self.sections() if name == section), None)

    def entry_span(
        self, start: int, end: int, title: str, after: int = 0
    ) -> tuple[int, int] | None:
        head = f"- **{title}**:"
        for i in range(max(start + 1, after), end):
            if self.lines[i].startswith(head):
                stop = i + 1
                while (
                    stop < end
                    and self.lines[stop].strip()
                    and not (
                        self.lines[stop].startswith("- **") or _HEADING.match(self.lines[stop])
                    )
                ):
                    stop += 1
                return i, stop
        return None

    def add_section(self, section: str) -> tuple[int, int]:
        later = [s for s in self.sections() if section_rank(s[0]) > section_rank(section)]
        at = later[0][1] if later else len(self.lines)
        gap = [""] if at > 0 and self.lines[at - 1].strip() else []
        self.lines[at:at] = [*gap, f"## {section}", *([""] if later else [])]
        heading = at + len(gap)
        return heading, heading + (2 if later else 1)

    def append(self, start: int, end: int, entry: list[str]) -> None:
        filled = [i for i in range(start + 1, end) if self.lines[i].strip()]
        if filled:
            self.lines[filled[-1] + 1 : filled[-1] + 1] = entry
            return
        self.lines[start + 1 : end] = ["", *entry, *([""] if end < len(self.lines) else [])]

    def upsert(self, section: str, title: str, entry: list[str]) -> str:
        start, end = self.find(section) or self.add_section(section)
        found = self.entry_span(start, end, title)
        if found is None:
            self.append(start, end, entry)
            return "add"
        removed = False  # later entries of the title in the section go
        while (again := self.entry_span(start, end, title, found[1])) is not None:
            del self.lines[again[0] : again[1]]
            end -= again[1] - again[0]
            removed = True
        if self.lines[found[0] : found[1]] == entry and not removed:
            return "same"
        self.lines[found[0] : found[1]] = entry
        return "update"

    def text(self) -> str:
        return "\n".join(self.lines) + ("\n" if self.trailing_newline else "")


SECTIONS = ["learnings", "preferences", "user", "agent", "a"]
TITLES = ["t", "a", "a**: b", "", "Deploy", "a**:"]
LINES = st.sampled_from(
    [
        "",
        "   ",
        "## learnings",
        "## user",
        "##  a ",
        "## preferences",
        "##x",
        "# Memory",
        "- **t**: old",
        "- **t**:",
        "- **a**: b**: c",
        "- **a**: x",
        "- **Deploy**: make",
        "- plain bullet",
        "  continued",
        "  ",
        "hand-written line",
        "- **bold** text",
        "flush-left continued",
        "### sub heading",
    ]
)


@st.composite
def entries(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    title = draw(st.sampled_from(TITLES))
    first = draw(st.sampled_from(["", "x", "new", "b**: c", "old"]))
    more = draw(st.lists(st.sampled_from(["more", "**: odd", "x"]), max_size=2))
    head = f"- **{title}**: {first}".rstrip()
    return draw(st.sampled_from(SECTIONS)), title, [head] + [f"  {line}" for line in more]


@settings(max_examples=600, deadline=None)
@given(st.lists(LINES, max_size=14), st.booleans(), st.lists(entries(), max_size=8))
def test_the_index_edits_exactly_as_the_line_by_line_reading(
    lines: list[str], newline: bool, edits: list[tuple[str, str, list[str]]]
) -> None:
    text = "\n".join(lines) + ("\n" if newline and lines else "")
    fast, plain = MemoryDocument(text, HEADER), LineByLine(text)
    for section, title, entry in edits:
        assert fast.upsert(section, title, entry) == plain.upsert(section, title, entry)
        assert fast.text() == plain.text()


def test_thousands_of_entries_are_each_found_again() -> None:
    doc = MemoryDocument("", HEADER)
    for n in range(3000):
        assert doc.upsert(SECTIONS[n % 3], f"title {n}", [f"- **title {n}**: v1"]) == "add"
    again = MemoryDocument(doc.text(), HEADER)
    assert again.upsert("user", "title 2", ["- **title 2**: v1"]) == "same"
    assert again.upsert("user", "title 5", ["- **title 5**: v2"]) == "update"
    assert again.text().count("- **title ") == 3000
    assert "- **title 5**: v2" in again.text()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("a-*# :\r\n\u2028\x0c\x85")), max_size=40))
def test_a_document_reads_back_byte_for_byte(text: str) -> None:
    assert MemoryDocument(text, HEADER).text() == (text or "\n".join(HEADER) + "\n")
