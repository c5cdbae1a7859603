"""Text wrapped with a hanging indent: a line too long for its pane goes on under its own text,
never back at column 0.

A wrapped line's continuation starts under the point its builder marked with `hang_here` (a
verdict's reason under the reason, a note's heading under its title) while that leaves half
the width, else two cells further in than the line's own text when the line is indented; a
line at column 0 is a paragraph and wraps flush. Rich's own wrap starts every continuation at
column 0.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text
from textual.app import RenderResult as WidgetRender
from textual.widgets import Static

HANG = "hang"  # the meta key of the mark a continuation lines up under
_MARK = Style(meta={HANG: True})
MIN_ROOM = 12  # cells a continuation keeps at least, however deep its indent
STEP = 2  # how much further in than its line an unmarked continuation starts


def hang_here(text: Text) -> Text:
    """The text, marked: a continuation of its line lines up under its first character."""
    marked = Text.assemble(text)
    marked.stylize(_MARK)
    return marked


def _hang(line: Text, width: int) -> int:
    """Where the line's continuations start: under its mark, else a step in from its first
    character when it is indented (a line at column 0 is a paragraph: it wraps flush)."""
    plain = line.plain
    marks = [span.start for span in line.spans if _is_mark(span.style)]
    lead = len(plain) - len(plain.lstrip(" "))
    under = cell_len(plain[: min(marks)]) if marks else width
    if under > width // 2:  # the mark is too far in: the continuation would be a column
        under = lead + STEP if lead else 0
    return min(under, max(0, width - MIN_ROOM))


def _is_mark(style: str | Style) -> bool:
    return isinstance(style, Style) and bool(style.meta.get(HANG))


def _fit(plain: str, start: int, room: int, narrow: bool) -> int:
    """The end of the longest run of `plain` from `start` within `room` cells (at least one
    character, so a line always moves on). `narrow`: every character is one cell."""
    if narrow:
        return min(len(plain), start + max(1, room))
    cells, end = 0, start
    while end < len(plain):
        cells += cell_len(plain[end])
        if cells > room:
            break
        end += 1
    return max(end, start + 1)


def breaks(plain: str, width: int, hang: int) -> list[tuple[int, int]]:
    """Where one line is cut: (start, end) of each row, the first `width` cells wide, the
    others `width - hang`; a cut falls on a space when one is in reach (the spaces at a cut
    are dropped), else inside the word."""
    rows: list[tuple[int, int]] = []
    start, text_from = 0, len(plain) - len(plain.lstrip(" "))
    narrow = plain.isascii() and plain.isprintable()
    while True:
        end = _fit(plain, start, width if not rows else width - hang, narrow)
        if end >= len(plain):
            return [*rows, (start, len(plain))]
        if plain[end] != " ":
            space = plain.rfind(" ", max(start, text_from) + 1, end)
            end = space if space > 0 else end
        rows.append((start, end))
        start = end
        while start < len(plain) and plain[start] == " ":
            start += 1
        if start >= len(plain):
            return rows


def hanging_lines(text: Text, width: int) -> Iterator[Text]:
    """Every row of the text as drawn `width` cells wide."""
    width = max(1, width)
    for line in text.split("\n", allow_blank=True):
        hang = _hang(line, width)
        for number, (start, end) in enumerate(breaks(line.plain, width, hang)):
            row = line[start:end]
            if number:
                row.pad_left(hang)
            yield row


class Hanging:
    """A Rich renderable: the text, each long line wrapped under its own text."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for row in hanging_lines(self.text, options.max_width):
            row.end = "\n"
            row.no_wrap = True
            row.overflow = "crop"
            yield row

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((cell_len(line) for line in self.text.plain.split("\n")), default=0)
        return Measurement(1, min(options.max_width, longest))


class HangingStatic(Static):
    """A Static whose Text is drawn by `Hanging`; what it holds is the Text as given."""

    def render(self) -> WidgetRender:
        content = self.content
        return Hanging(content) if isinstance(content, Text) else super().render()
