"""A pane asked to scroll to a line, then taken away before the next refresh (its screen popped
by the next key of a burst), stands down instead of crashing the console."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from nuggets_tui.widgets.diff_view import DiffView


class _OnePane(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(id="pane")


def _sixty_lines(app: _OnePane) -> DiffView:
    view = app.query_one(DiffView)
    view.show(Text("\n".join(f"line {i}" for i in range(60))))
    return view


async def test_a_scroll_asked_for_just_before_the_pane_leaves_never_crashes() -> None:
    app = _OnePane()
    async with app.run_test(size=(40, 10)) as pilot:
        view = _sixty_lines(app)
        view.scroll_to_text("line 50")
        view.remove()
        await pilot.pause()
        await pilot.pause()
    assert app._exception is None, repr(app._exception)


async def test_the_scroll_still_reaches_its_line_while_the_pane_stays() -> None:
    app = _OnePane()
    async with app.run_test(size=(40, 10)) as pilot:
        view = _sixty_lines(app)
        view.scroll_to_text("line 30")
        await pilot.pause()
        await pilot.pause()
        assert round(view.scroll_y) == 30
