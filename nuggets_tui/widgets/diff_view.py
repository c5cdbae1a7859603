"""Before → after of the notes a change touches: content as a coloured line diff, tags and links
as added/removed."""

from __future__ import annotations

from collections.abc import Sequence

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

    def show(self, text: Text) -> None:
        self._text = text
        self.query_one("#diff-body", Static).update(text)
        self.scroll_home(animate=False)

    def scroll_to_text(self, needle: str) -> None:
        """Scroll the first line holding `needle` (as shown) to the top, once laid out."""
        found = self._text.plain.find(needle) if needle else -1
        if found > 0:
            self.call_after_refresh(self._scroll_to_offset, self._text, found)

    def _scroll_to_offset(self, text: Text, offset: int) -> None:
        if text is not self._text:
            return  # something else is shown by now
        width = max(1, self.query_one("#diff-body", Static).content_region.width)
        before = text[:offset]
        if self.hanging:
            rows = sum(1 for _ in hanging_lines(before, width)) - 1
        else:
            rows = len(before.wrap(self.app.console, width)) - 1
        self.scroll_to(y=rows, animate=False, immediate=True)
