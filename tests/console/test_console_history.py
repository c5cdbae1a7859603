"""The run history names a run's changes by the notes' titles (their ids beside), and an undo
started from it is asked, refused or done over it: the history stays where the person was."""

from __future__ import annotations

import json
from pathlib import Path

from core.models import kind_word
from core.notes import fields
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import make_app, on_top, settle

SIZE = (140, 42)


async def _applied_then_history(pilot, app) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    for key in ("r", "a", "y", "l"):
        await pilot.press(key)
        await settle(pilot, app)
    on_top(app, HistoryScreen)


async def test_a_runs_changes_are_listed_by_the_notes_titles(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await _applied_then_history(pilot, app)
        entry = app.memory.journal.run(app.screen.query_one("#runs", VirtualTable).current.run_id)
        assert entry.result is not None
        pane = str(app.screen.query_one("#diff-body").render())
        named = 0
        for change in entry.result.changes[:10]:
            note = entry.after.get(change.note_id) or entry.before.get(change.note_id)
            title = fields.text(note, "title") if note else ""
            if title:
                assert f"[{kind_word(change.type)}] {title}  {change.note_id}\n" in pane, title
                named += 1
        assert named


async def test_an_undo_asked_from_the_history_is_asked_over_it_and_comes_back_to_it(
    home: Path,
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await _applied_then_history(pilot, app)
        history = app.screen
        await pilot.press("u")
        await settle(pilot, app)
        on_top(app, ConfirmScreen)
        assert app.screen_stack[-2] is history
        await pilot.press("escape")  # not undone: back to the same history
        await settle(pilot, app)
        assert app.screen is history


async def test_an_undo_refused_from_the_history_says_so_over_it_and_shows_the_note(
    home: Path,
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await _applied_then_history(pilot, app)
        history = app.screen
        entry = app.memory.journal.run(history.query_one("#runs", VirtualTable).current.run_id)
        touched = sorted(entry.after)[0]
        doc = json.loads(graph_path(home).read_bytes())
        for note in doc["notes"]:
            if note["id"] == touched:
                note["content"] += "\nedited by the agent"
        graph_path(home).write_text(json.dumps(doc))
        await pilot.press("u")
        await settle(pilot, app)
        dialog = on_top(app, ConfirmScreen)
        assert "cannot be undone" in str(dialog.query_one("#dialog-title").render())
        assert app.screen_stack[-2] is history
        await pilot.press("y")  # show the first note that blocks it: on the notes
        await settle(pilot, app)
        main = on_top(app, MainScreen)
        current = main.query_one(NoteTable).current
        assert current is not None and current["id"] == touched


async def test_the_history_and_the_undo_tell_when_a_run_ran_as_the_command_line_does(
    home: Path,
) -> None:
    """The history and the undo's confirmation said 2026-11-23T10:00:00.000Z; `log` says
    2026-11-23 10:00 UTC."""
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await _applied_then_history(pilot, app)
        run = app.screen.query_one("#runs", VirtualTable).current
        assert run is not None and run.at.startswith("2026-11-23T10:00")
        head = str(app.screen.query_one("#diff-body").render()).splitlines()[0]
        assert head == f"REFLECT {run.run_id}  2026-11-23 10:00 UTC  applied"
        await pilot.press("u")
        await settle(pilot, app)
        body = str(on_top(app, ConfirmScreen).query_one("#dialog-body").render())
        assert f"{run.kind}, 2026-11-23 10:00 UTC)?" in body and "T10:00" not in body
