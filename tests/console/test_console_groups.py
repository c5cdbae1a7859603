"""The graph screen's Groups tab lays out at most a page of notes per group (issue: linear at
every shape): a group of 90k notes once took seconds to draw."""

from __future__ import annotations

from pathlib import Path

from nuggets_tui.screens.graph import EDGES_SHOWN, GraphScreen, LinkTree
from tests.support.console_support import make_app, settle
from tests.support.note_builders import link, make_home, note


async def test_a_large_group_shows_a_page_of_notes_and_how_many_more(tmp_path: Path) -> None:
    count = EDGES_SHOWN + 30
    notes = [
        note(f"n{i}", f"chain note {i}", links=[link(f"n{i + 1}")] if i + 1 < count else [])
        for i in range(count)
    ]
    app = make_app(make_home(tmp_path, notes))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("g")
        await settle(pilot, app)
        assert isinstance(app.screen, GraphScreen)
        tree = app.screen.query_one("#group-tree", LinkTree)
        (group,) = tree.root.children
        assert f"{count:,} notes" in str(group.label)
        assert len(group.children) == EDGES_SHOWN + 1
        assert "30 more notes not shown" in str(group.children[-1].label)
