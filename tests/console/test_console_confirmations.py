"""What a confirmation says before a write: the review's apply counts the kept changes per kind;
dialogs name notes by title (the id after it); the command palette lists each action once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.conflicts import ConflictsScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from nuggets_tui.widgets.note_table import NoteTable
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.conflict_builders import answers_memory
from tests.support.console_support import make_app, settle
from tests.support.note_builders import make_home

SIZE = (140, 40)
# What a kept change of each kind does, as a person reads it in the dialog
DONE = {
    "hide": "archived",
    "rewrite": "rewritten",
    "tag": "tagged",
    "merge": "merged",
    "link": "linked",
    "keep": "rescued",
}


def dialog_text(app) -> str:  # type: ignore[no-untyped-def]
    assert isinstance(app.screen, ConfirmScreen)
    return str(app.screen.query_one("#dialog-body").render())


async def test_the_apply_confirmation_counts_the_kept_changes_per_kind(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        rejected = review.query_one("#changes", VirtualTable).current
        assert isinstance(rejected, ChangeRow)
        await pilot.press("space")  # one change left out: the counts are of the kept ones
        kept = Counter(review.plan.change_for(op_id).type for op_id in review.kept)
        assert len(kept) >= 2  # the demo's plan keeps changes of several kinds
        await pilot.press("a")
        await settle(pilot, app)
        body = dialog_text(app)
        for kind, count in kept.items():
            assert f"{count:,} {DONE[kind]}" in body
        assert f"{kept[rejected.change.type] + 1:,} {DONE[rejected.change.type]}" not in body


async def test_the_queue_names_the_note_that_stands_by_title(tmp_path: Path) -> None:
    home = make_home(tmp_path, answers_memory())
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, ConflictsScreen)
        await pilot.press("space")  # the second note, a-bullets, stands
        await pilot.press("o")
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
        assert "“pref: answers, noted 2026-09-18” (a-bullets) stands" in dialog_text(app)


async def test_the_undo_confirmation_names_the_notes_by_title(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        note = app.screen.query_one(NoteTable).current
        await pilot.press("x", "y")  # archive it: a run whose summary holds only its id
        await settle(pilot, app)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        assert f"“{note['title']}” ({note['id']})" in dialog_text(app)


async def test_the_palette_lists_each_action_once(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        seen = []
        for key in ("", "r"):
            if key:
                await pilot.press(key)
                await settle(pilot, app)
            names = [c.title.split(" (")[0].lower() for c in app.get_system_commands(app.screen)]
            assert [n for n, count in Counter(names).items() if count > 1] == []
            assert "quit" in names and "help" in names
            assert "keys" not in names  # Textual's key panel: a second help beside ?
            seen.append(type(app.screen))
        assert seen == [MainScreen, ReviewScreen]
