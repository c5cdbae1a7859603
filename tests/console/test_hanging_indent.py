"""A wrapped line stays indented under its text: in the contradiction queue's pane, the run
history's and the verdict's breakdown of the detail pane, at 140×42 and 80×24, a line too long
for the pane goes on further in than it started, never back at column 0."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static

from core.contract.topics import Group
from nuggets_tui.screens.conflicts import HEAD, ConflictsScreen, position_head
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.widgets.hanging import breaks, hang_here, hanging_lines
from tests.support.console_support import make_app, on_top, settle

SIZES = [(140, 42), (80, 24)]


def drawn(body: Static) -> list[str]:
    """Every row the widget draws, scrolled or not."""
    region = Region(0, 0, body.size.width, body.virtual_size.height)
    return [strip.text.rstrip() for strip in body.render_lines(region)]


def lead(row: str) -> int:
    return len(row) - len(row.lstrip(" "))


@pytest.mark.parametrize("size", SIZES)
async def test_the_queues_wrapped_lines_stay_under_their_text(home: Path, size: tuple) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        queue = on_top(app, ConflictsScreen)
        body = queue.query_one("#conflict-pane #diff-body", Static)
        rows, source = drawn(body), body.content
        assert isinstance(source, Text)
    flush = [text for text in source.plain.splitlines() if text and not text.startswith(" ")]
    for row in rows:  # a row at column 0 is part of a paragraph written at column 0
        assert not row or row.startswith(" ") or any(row in text for text in flush), row
    # the verdict names the notes the queue decides with: a list that wraps at both sizes
    verdict = next(i for i, row in enumerate(rows) if "the queue has it to decide with" in row)
    assert lead(rows[verdict]) == 3 and rows[verdict + 1].lstrip().startswith("note-")
    assert lead(rows[verdict + 1]) == 5


@pytest.mark.parametrize("size", SIZES)
async def test_the_verdict_breakdown_wraps_under_its_rows(home: Path, size: tuple) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        rows = drawn(app.screen.query_one("#detail-body", Static))
    start = next(i for i, row in enumerate(rows) if row.startswith("Verdict  "))
    end = next(i for i, row in enumerate(rows) if "strength = the first five" in row)
    assert end - start > 7  # six scores and the verdict; some of them wrapped at 80 columns
    assert all(row.startswith(" ") for row in rows[start + 1 : end]), rows[start:end]
    first_score = next(i for i in range(start, end) if rows[i].startswith("  durability"))
    assert all(lead(row) == len("Verdict  ") for row in rows[start + 1 : first_score])


def test_breaks_keep_every_character_and_each_row_in_its_width() -> None:
    words = "ports 8080 and 5432 on the 日本語 host, note-project-7b0266ac, " * 6
    for width, hang in ((80, 5), (33, 9), (12, 4), (3, 1)):
        cut = "   " + words.strip()
        rows = breaks(cut, width, hang)
        kept = "".join(cut[s:e] for s, e in rows)
        assert kept.replace(" ", "") == cut.replace(" ", "")  # only spaces at a cut are dropped
        assert all(rows[i][1] <= rows[i + 1][0] for i in range(len(rows) - 1))
        shown = [Text(cut[s:e]).cell_len + (hang if n else 0) for n, (s, e) in enumerate(rows)]
        assert all(cells <= width for cells in shown) or width < 4


def test_a_mark_sets_where_the_continuation_starts() -> None:
    text = Text.assemble(
        "  name   0.50  ", hang_here(Text("a reason long enough to wrap twice here"))
    )
    rows = [row.plain for row in hanging_lines(text, 40)]
    assert rows[0].startswith("  name   0.50  a reason")
    assert all(row.startswith(" " * 15) and row[15] != " " for row in rows[1:])
    narrow = [row.plain for row in hanging_lines(text, 24)]  # the mark is past half: a step in
    assert all(lead(row) == 4 for row in narrow[1:])
    flush = [row.plain for row in hanging_lines(Text("a paragraph " * 8), 30)]
    assert all(not row.startswith(" ") for row in flush)


async def test_the_run_historys_wrapped_lines_stay_under_their_text(home: Path) -> None:
    """A change's title and id too long for the pane at 80 columns go on under the title."""
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for key in ("r", "a", "y", "l"):
            await pilot.press(key)
            await settle(pilot, app)
        history = on_top(app, HistoryScreen)
        body = history.query_one("#run-diff #diff-body", Static)
        rows, source = drawn(body), body.content
        assert isinstance(source, Text)
    flush = [text for text in source.plain.splitlines() if text and not text.startswith(" ")]
    changes = rows.index("Changes")
    wrapped = 0
    for row in rows[changes + 1 :]:
        assert not row or row.startswith(" ") or any(row in text for text in flush), row
        wrapped += lead(row) >= 4 and row.lstrip().startswith("note-")
    assert wrapped  # some change's id went on to a row of its own, under its line


def test_a_positions_heading_is_cut_at_a_word() -> None:
    """The heading gives the start of what the position's first note says: cut at a word, so a
    wrapped heading never ends on a lone letter ("Seen in s…")."""
    said = "Wants review comments grouped by file, blocking issues first. Seen in session 12."
    group = Group("c-1", "topic", "user", "pref", ("a", "b"), (("a", "b"),))
    head = position_head(group, {"a": {"id": "a", "content": said}}, 0).plain
    shown = head.split(": ", 1)[1].rstrip("\n")
    assert len(shown) <= HEAD and shown.endswith("…")
    assert said.startswith(shown[:-1]) and said[len(shown) - 1] == " "  # a whole word before
