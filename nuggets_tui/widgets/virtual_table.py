"""A table that renders only the rows on screen, so 100,000 notes cost nothing up front.

Rows are any objects; a `RowRenderer` turns the visible ones into cells when they are painted.
Group header rows (not selectable) can sit between ordinary rows; the cursor skips them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..safe import line

Row = TypeVar("Row")


@dataclass(frozen=True)
class Column:
    label: str
    width: int  # preferred width in cells; the flexible column takes what is left
    flexible: bool = False
    min_width: int = 8
    priority: int = 0  # when the table is narrow, the lowest priority goes first
    right: bool = False
    cut_middle: bool = False  # a cut keeps both ends (an id whose end tells it from others)


class RowRenderer(Generic[Row]):
    """How rows look. Subclass per table; every method is called only for visible rows."""

    def key(self, row: Row) -> str:
        raise NotImplementedError

    def cells(self, row: Row) -> Sequence[Text]:
        raise NotImplementedError

    def style(self, row: Row) -> str | None:
        """A component class of the table for the whole row (e.g. dimmed), or None."""
        return None

    def is_header(self, row: Row) -> bool:
        return False

    def header_text(self, row: Row) -> Text:
        return Text("")


def _within(chars: str, cells: int) -> int:
    """How many of `chars`, taken in order, fit in `cells` cells."""
    used = 0
    for count, char in enumerate(chars):
        used += cell_len(char)
        if used > cells:
            return count
    return len(chars)


def _head(text: Text, cells: int) -> Text:
    """The longest start of the text within `cells` cells."""
    return text[: _within(text.plain, cells)]


def _tail(text: Text, cells: int) -> Text:
    """The longest end of the text within `cells` cells."""
    return text[len(text.plain) - _within(text.plain[::-1], cells) :]


def cut_in_middle(text: Text, width: int) -> Text:
    """The text within `width` cells, its start and its end kept around an ellipsis (the
    end gets the odd cell: it is what tells ids such as `run-0001` and `run-0002` apart)."""
    if cell_len(text.plain) <= width:
        return text
    if width <= 2:
        return _head(text, width - 1) + Text("…") if width > 0 else Text("")
    kept = width - 1
    return Text.assemble(_head(text, kept // 2), "…", _tail(text, kept - kept // 2))


def fit(text: Text, width: int, right: bool = False, middle: bool = False) -> Text:
    """The text cut or padded to exactly `width` cells (an ellipsis marks a cut: at the end,
    or in the middle with `middle`)."""
    if width <= 0:
        return Text("")
    plain = text.plain
    if middle and cell_len(plain) > width:
        text = cut_in_middle(text, width)
    elif cell_len(plain) > width:
        text = text.copy()
        text.truncate(width - 1)
        while cell_len(text.plain) > width - 1:  # wide characters
            text.right_crop(1)
        text.append("…")
    pad = width - cell_len(text.plain)
    if pad > 0:
        text = Text.assemble(" " * pad, text) if right else Text.assemble(text, " " * pad)
    return text


class VirtualTable(ScrollView, Generic[Row], can_focus=True):
    """A fixed header line, then the rows, painted on demand."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "virtual-table--header",
        "virtual-table--cursor",
        "virtual-table--cursor-blurred",
        "virtual-table--dim",
        "virtual-table--group",
        "virtual-table--rejected",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="list.up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="list.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="list.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="list.page_down"),
        Binding("home", "edge(-1)", "First", show=False, id="list.first"),
        Binding("end", "edge(1)", "Last", show=False, id="list.last"),
        Binding("enter", "select", "Open", show=False, id="list.open"),
    ]
    DEFAULT_CSS = """
    VirtualTable { height: 1fr; overflow-x: hidden; }
    VirtualTable > .virtual-table--header { text-style: bold; background: $panel; }
    VirtualTable > .virtual-table--cursor { background: $accent; color: $text; }
    VirtualTable > .virtual-table--cursor-blurred { background: $accent 40%; }
    VirtualTable > .virtual-table--dim { color: $text-muted; }
    VirtualTable > .virtual-table--group { text-style: bold; color: $secondary; }
    VirtualTable > .virtual-table--rejected { color: $text-disabled; text-style: strike; }
    """

    cursor: reactive[int] = reactive(0, always_update=True)

    class Highlighted(Message):
        def __init__(self, table: VirtualTable[Any], row: Any | None) -> None:
            super().__init__()
            self.table = table
            self.row = row

        @property
        def control(self) -> VirtualTable[Any]:
            return self.table

    class Selected(Highlighted):
        """Enter (or a double click) on a row."""

        row: Any  # always a row: only a row is selected

    def __init__(
        self,
        columns: Sequence[Column],
        renderer: RowRenderer[Row],
        *,
        empty_text: str = "Nothing to show.",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.columns = list(columns)
        self.renderer = renderer
        self.rows: Sequence[Row] = []
        self.empty_text = empty_text
        self._widths: list[int] = []
        self._layout_width = -1

    # -- data ---------------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[Row], keep_key: str | None = None) -> None:
        """Show `rows`; the cursor stays on the row with `keep_key` (or its position)."""
        self.rows = rows
        target = self._index_of(keep_key) if keep_key is not None else None
        self.virtual_size = Size(0, len(rows) + 1)
        self._move_to(target if target is not None else min(self.cursor, len(rows) - 1), +1)
        # The scroll range grows with the new rows only at the next layout: scroll then too.
        self.call_after_refresh(self._scroll_cursor_into_view)
        self.refresh()

    def _index_of(self, key: str) -> int | None:
        renderer = self.renderer
        for index, row in enumerate(self.rows):
            if not renderer.is_header(row) and renderer.key(row) == key:
                return index
        return None

    def select_key(self, key: str) -> bool:
        index = self._index_of(key)
        if index is not None:
            self._move_to(index, +1)
        return index is not None

    @property
    def current(self) -> Row | None:
        if not 0 <= self.cursor < len(self.rows):
            return None
        row = self.rows[self.cursor]
        return None if self.renderer.is_header(row) else row

    def refresh_row(self, index: int) -> None:
        self.refresh_line(index + 1)

    # -- cursor -------------------------------------------------------------------------------

    def _move_to(self, index: int, step: int) -> None:
        if not self.rows:
            self.cursor = 0
            self.post_message(self.Highlighted(self, None))
            return
        index = max(0, min(index, len(self.rows) - 1))
        probe = index
        while 0 <= probe < len(self.rows) and self.renderer.is_header(self.rows[probe]):
            probe += step
        if not 0 <= probe < len(self.rows):
            probe = index
            while 0 <= probe < len(self.rows) and self.renderer.is_header(self.rows[probe]):
                probe -= step
        self.cursor = max(0, min(probe, len(self.rows) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self._scroll_cursor_into_view()
        self.refresh()
        self.post_message(self.Highlighted(self, self.current))

    def _page_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_cursor_into_view(self) -> None:
        top, page = round(self.scroll_y), self._page_height()
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + page:
            self.scroll_to(y=self.cursor - page + 1, animate=False, immediate=True)

    def action_cursor(self, step: int) -> None:
        self._move_to(self.cursor + step, step)

    def action_page(self, direction: int) -> None:
        self._move_to(self.cursor + direction * self._page_height(), direction)

    def action_edge(self, direction: int) -> None:
        self._move_to(0 if direction < 0 else len(self.rows) - 1, -direction or 1)

    def action_select(self) -> None:
        if self.current is not None:
            self.post_message(self.Selected(self, self.current))

    async def _on_click(self, event: events.Click) -> None:
        index = round(self.scroll_y) + event.y - 1
        if event.y >= 1 and 0 <= index < len(self.rows):
            self._move_to(index, +1)
            if event.chain >= 2:
                self.action_select()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # -- painting -----------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._layout_width = -1
        self.virtual_size = Size(0, len(self.rows) + 1)
        self._scroll_cursor_into_view()

    def _layout(self, width: int) -> list[int]:
        """Column widths for this width; 0 for a column dropped because the table is narrow."""
        widths = [c.width for c in self.columns]
        flexible = next((i for i, c in enumerate(self.columns) if c.flexible), len(widths) - 1)
        by_priority = sorted((c.priority, i) for i, c in enumerate(self.columns) if i != flexible)

        def spare() -> int:
            used = sum(w + 1 for i, w in enumerate(widths) if w and i != flexible)
            return width - used

        while spare() < self.columns[flexible].min_width and by_priority:
            widths[by_priority.pop(0)[1]] = 0
        widths[flexible] = max(1, spare())
        return widths

    def _widths_for(self, width: int) -> list[int]:
        if self._layout_width != width:
            self._widths, self._layout_width = self._layout(width), width
        return self._widths

    def _cells_line(self, cells: Sequence[Text], width: int) -> Text:
        widths = self._widths_for(width)
        parts: list[Text | str] = []
        for column, cell_width, cell in zip(self.columns, widths, cells, strict=False):
            if cell_width:
                parts += [fit(cell, cell_width, column.right, column.cut_middle), " "]
        joined = Text.assemble(*parts[:-1]) if parts else Text("")
        return fit(joined, width)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            header = self._cells_line([line(c.label) for c in self.columns], width)
            header_style = self.get_component_rich_style("virtual-table--header")
            return self._strip(header, base + header_style)
        index = round(self.scroll_y) + y - 1
        if index >= len(self.rows):
            if not self.rows:  # the empty sentence, wrapped: a narrow table says it whole
                said = line(self.empty_text).wrap(self.app.console, max(1, width))
                if y <= len(said):
                    return self._strip(
                        fit(said[y - 1], width),
                        base + self.get_component_rich_style("virtual-table--dim"),
                    )
            return Strip.blank(width, base)
        row = self.rows[index]
        renderer = self.renderer
        if renderer.is_header(row):
            text = fit(renderer.header_text(row), width)
            style = base + self.get_component_rich_style("virtual-table--group")
        else:
            text = self._cells_line(renderer.cells(row), width)
            row_class = renderer.style(row)
            style = base + self.get_component_rich_style(row_class) if row_class else base
        if index == self.cursor and not renderer.is_header(row):
            cursor = "virtual-table--cursor" if self.has_focus else "virtual-table--cursor-blurred"
            style = style + self.get_component_rich_style(cursor)
        return self._strip(text, style)

    def _strip(self, text: Text, style: Style) -> Strip:
        segments = [
            Segment(s.text, style + s.style if s.style else style)
            for s in text.render(self.app.console)
            if s.text != "\n"
        ]
        return Strip(segments, cell_len(text.plain))
