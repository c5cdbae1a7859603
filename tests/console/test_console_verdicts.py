"""Verdicts in the notes table: a Verdict column, `v` filtering by verdict, the detail pane
explaining every score in words; scored after the first paint, off the event loop."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from core.review import service as service_module  # the main screen scores through it
from core.review.default_scorer import SCORE_NAMES
from core.review.verdicts import judge
from nuggets_tui.widgets.note_detail import NoteDetailPane
from nuggets_tui.widgets.note_table import SCORING, NoteTable
from tests.support.conflict_builders import answers_memory, pref
from tests.support.console_support import main_screen, make_app, settle
from tests.support.note_builders import make_home

SIZE = (140, 40)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    notes = [*answers_memory(), pref("empty", "", title="tmp", hits=0)]
    return make_home(tmp_path, notes)


def shown_ids(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [n["id"] for n in app.screen.query_one(NoteTable).rows]


def detail(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(NoteDetailPane).query_one("#detail-body").render())


async def test_the_verdict_column_and_the_filter_by_verdict(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        screen = main_screen(app)
        verdicts = screen.verdicts
        assert verdicts is not None and set(verdicts) == set(shown_ids(app))
        assert verdicts["empty"].verdict == "reject"
        table = screen.query_one(NoteTable)
        cells = table.notes.cells(table.rows[0])
        assert cells[-1].plain == verdicts[table.rows[0]["id"]].verdict
        await pilot.press("v")  # all → reject
        await settle(pilot, app)
        assert screen.verdict_filter == "reject"
        assert shown_ids(app) == [i for i, v in verdicts.items() if v.verdict == "reject"]
        assert "verdict reject" in str(table.border_title)
        seen = {"reject"}
        for _ in range(4):  # defer, compress, merge, promote
            await pilot.press("v")
            await settle(pilot, app)
            seen.add(screen.verdict_filter)
            assert all(verdicts[i].verdict == screen.verdict_filter for i in shown_ids(app))
        assert seen == {"reject", "defer", "compress", "merge", "promote"}
        await pilot.press("v")  # back to all
        await settle(pilot, app)
        assert screen.verdict_filter is None and len(shown_ids(app)) == len(verdicts)


async def test_the_detail_pane_explains_the_verdict_in_words(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main_screen(app).select_note("empty")
        await settle(pilot, app)
        verdict = main_screen(app).verdicts["empty"]
        shown = detail(app)
        assert f"Verdict  reject (strength {verdict.strength:.2f}): {verdict.why}" in shown
        for name in SCORE_NAMES:
            assert name.replace("_", " ") in shown
            assert verdict.reasons[name] in shown


async def test_verdicts_wait_for_the_first_paint(home: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The table is shown and usable while scoring is still under way."""
    release = threading.Event()

    def slow_judge(*args, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(10)
        return judge(*args, **kwargs)

    monkeypatch.setattr(service_module, "judge", slow_judge)
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if main_screen(app).shelf is not None and shown_ids(app):
                break
        screen = main_screen(app)
        assert screen.verdicts is None and len(shown_ids(app)) == 6
        table = screen.query_one(NoteTable)
        # Not a blank: a sign that the verdict is on its way.
        assert table.notes.cells(table.rows[0])[-1].plain == SCORING
        await pilot.press("v")
        await pilot.pause(0.05)
        assert len(shown_ids(app)) == 6  # the filter waits for the verdicts
        assert "(scoring…)" in str(table.border_title)
        release.set()
        await settle(pilot, app)
        assert screen.verdicts is not None
        assert shown_ids(app) == [i for i, v in screen.verdicts.items() if v.verdict == "reject"]
