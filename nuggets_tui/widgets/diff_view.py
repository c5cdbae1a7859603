"""Before → after of the notes a change touches: content as a coloured line diff, tags and links
as added/removed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.models import RawNote
from core.notes import fields
from core.notes.diff import compare, shown_value

from ..safe import join, line, more_lines
from .hanging import HangingStatic, hanging_lines

MAX_DIFF_LINES = 1_000  # of one note's content diff, or of MEMORY.md's
_LINE_STYLES = {"-": "red", "+": "green", " ": "", "@": "dim cyan"}


def note_diff_text(before: RawNote, after: RawNote, heading: Text) -> Text:
    change = compare(before, after)
    parts: list[Text | str | tuple[str, str]] = [heading, "\n"]
    for name, old, new in change.fields:
        parts += [
            line(f"  {name}: ", "bold"),
            line(shown_value(old)),
            " → ",
            line(shown_value(new)),
            "\n",
        ]
    if change.content:
        parts += [("  content\n", "bold")]
        parts += diff_lines(change.content, " (nuggets reflect prints them all)")
    if change.tags_removed or change.tags_added:
        parts += [("  tags ", "bold")]
        parts += [part for t in change.tags_removed for part in (line("-" + t, "red"), " ")]
        parts += [part for t in change.tags_added for part in (line("+" + t, "green"), " ")]
        parts.append("\n")
    for sign, pairs, style in (
        ("-", change.links_removed, "red"),
        ("+", change.links_added, "green"),
    ):
        for to, reason in pairs:
            parts += [
                Text.assemble(f"  link {sign} → ", line(to), "  ", line(reason), style=style),
                "\n",
            ]
    if len(parts) == 2:
        parts.append(Text("  (no change)\n", style="dim"))
    return join(*parts)


def diff_lines(changes: Sequence[tuple[str, str]], where: str = "") -> list[Text | str]:
    """A content diff's first MAX_DIFF_LINES lines, each with its line end, then how many more
    were left out (`where`: what prints them all)."""
    parts: list[Text | str] = [
        part for tag, text in changes[:MAX_DIFF_LINES] for part in (diff_line(tag, text), "\n")
    ]
    if len(changes) > MAX_DIFF_LINES:
        parts.append(more_lines(len(changes) - MAX_DIFF_LINES, where))
    return parts


def diff_line(tag: str, text: str) -> Text:
    """One line of a content diff; whitespace a rewrite removes is made visible."""
    if tag == "@":
        return line("  " + text, _LINE_STYLES[tag])
    body = line(text)
    if not text.strip():
        body = Text(
            "(blank line)" if not text else f"({len(text)} blank characters)", style="italic"
        )
    else:
        trailing = len(text) - len(text.rstrip())
        if trailing:
            body.stylize("reverse", len(body) - trailing)
    return Text.assemble("  ", line(tag), " ", body, style=_LINE_STYLES[tag])


@dataclass(frozen=True)
class Marked:
    """Lines that wrap under their own text: every row of a wrapped line starts with the line's
    marker (a diff's + or -), its further rows `indent` cells in, so a continuation reads as
    part of the line and never as a line of its own at column 0."""

    lines: Sequence[tuple[Text, Text]]  # (marker, the rest of the line)
    indent: int = 2


def hang(parts: Sequence[Text | Marked], width: int, console: Console) -> Text:
    """The parts as one text for a pane `width` cells wide: marked lines wrapped here, each
    row ending in a line break; other text as it is (the pane wraps it). Only rearranges text
    made inert already (every part is a Text, or a Marked of Texts)."""
    out = Text("", end="")
    for part in parts:
        if isinstance(part, Text):
            out.append_text(part)
            continue
        for marker, body in part.lines:
            room = width - marker.cell_len - part.indent
            fits = room <= 0 or body.cell_len <= room + part.indent
            rows = [body] if fits else list(body.wrap(console, room))
            for number, row in enumerate(rows):
                if number < len(rows) - 1:
                    row.rstrip()  # the space it was broken at (a copy: wrap made it)
                out.append_text(marker)
                if number:
                    out.pad_right(part.indent)
                out.append_text(row)
                out.append("\n")
    return out


def heading(note: RawNote) -> Text:
    title = fields.text(note, "title") or "(untitled)"
    return join(line(title, "bold"), "  ", line(note["id"], "dim"))


class DiffView(VerticalScroll):
    """`hanging`: a long line wraps under its own text (widgets/hanging.py), not at column 0."""

    DEFAULT_CSS = "DiffView > Static { width: 1fr; }"

    def __init__(self, *, hanging: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hanging = hanging

    def compose(self) -> ComposeResult:
        yield (HangingStatic if self.hanging else Static)("", id="diff-body")

    _text = Text("")
    _parts: Sequence[Text | Marked] | None = None  # what show_marked was given, to wrap again

    def show(self, text: Text) -> None:
        self._parts = None
        self._update(text)
        self.scroll_home(animate=False)

    def show_marked(self, parts: Sequence[Text | Marked]) -> None:
        """Text and marked lines, the marked ones wrapped under their text at the pane's
        width (and again when it changes)."""
        self._parts = parts
        self._update(hang(parts, self._room(), self.app.console))
        self.scroll_home(animate=False)

    def on_resize(self) -> None:
        if self._parts is not None and self.query("#diff-body"):  # not while being removed
            self._update(hang(self._parts, self._room(), self.app.console))

    def _room(self) -> int:
        """The width text has, as if the scroll bar were shown (0 before the first layout)."""
        width = self.scrollable_content_region.width
        bar = 0 if self.show_vertical_scrollbar else self.styles.scrollbar_size_vertical
        return max(0, width - bar)

    def _update(self, text: Text) -> None:
        self._text = text
        self.query_one("#diff-body", Static).update(text)

    def scroll_to_text(self, needle: str) -> None:
        """Scroll the first line holding `needle` (as shown) to the top, once laid out."""
        found = self._text.plain.find(needle) if needle else -1
        if found > 0:
            self.call_after_refresh(self._scroll_to_offset, self._text, found)

    def _scroll_to_offset(self, text: Text, offset: int) -> None:
        bodies = self.query("#diff-body")
        if text is not self._text or not bodies:
            return  # something else is shown by now, or the pane left with its screen
        width = max(1, bodies.first(Static).content_region.width)
        before = text[:offset]
        if self.hanging:
            rows = sum(1 for _ in hanging_lines(before, width)) - 1
        else:
            rows = len(before.wrap(self.app.console, width)) - 1
        self.scroll_to(y=rows, animate=False, immediate=True)
