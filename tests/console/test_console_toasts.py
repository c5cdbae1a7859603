"""Toasts at 80×24 stay short and low (app.tcss): the notes table's rows stay readable while
the opening notices show."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.support.console_support import demo_home, make_app, settle

NOTICE = (
    "skipped 3 lines of memory/archive.jsonl that are not JSON objects (lines 4, 9, 12); "
    "the rest was read and the file is left untouched"
)


async def test_notices_at_80_by_24_leave_the_tables_rows_visible(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.tell([NOTICE, NOTICE[:60], NOTICE])
        await settle(pilot, app)
        table = main.query_one(NoteTable).region
        toasts = [t.region for t in main.query(Toast)]
        assert len(toasts) == 3 and table.height >= 5
        covered = [r for r in toasts if table.overlaps(r)]
        assert not covered, (table, toasts)
