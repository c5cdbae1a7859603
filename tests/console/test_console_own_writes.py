"""The console's own writes (archive, unhide, undo, applying a review) are not news: no
"Reloaded — the graph file changed on disk" toast after them; another program's write still
gets one. On the demo at 140×42, with the file watched every few milliseconds; each step waits
for the watch to have looked a few times, however slowly a loaded machine runs it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from core.notes import fields
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ReviewScreen
from tests.support.console_support import demo_home, main_screen, make_app, notes_on_disk, settle

SIZE = (140, 42)


def toasts(app: NuggetsApp) -> list[str]:
    """The titles of every toast the app shows from now on, kept after the toast expires (a toast
    leaves the app's own list after its timeout, which a loaded machine can outlast)."""
    titles: list[str] = []
    notify = app.notify

    def recorded(message: str, *, title: str = "", **options: Any) -> None:
        titles.append(title)
        notify(message, title=title, **options)

    app.notify = recorded
    return titles


class Looks:
    """Counts the file watch's looks at the file (`MainScreen._look_at_file`)."""

    def __init__(self, main: MainScreen) -> None:
        self.count = 0
        look = main._look_at_file

        def counted() -> None:
            self.count += 1
            look()

        main._look_at_file = counted


async def _watched(pilot: Pilot, app: NuggetsApp, looks: Looks) -> None:
    """Every worker done, and the watch has looked at the file a few times since (it looks only
    while the main screen is on top and none of its writes runs)."""
    await settle(pilot, app)
    enough = looks.count + 3
    for _ in range(1000):  # up to ~10 s: a loaded machine runs the watch late
        if looks.count >= enough:
            break
        await pilot.pause(0.01)
    await settle(pilot, app)


async def test_archive_unhide_undo_and_apply_bring_no_reload_toast(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    app = make_app(home, watch_interval=0.005)
    titles = toasts(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        main = main_screen(app)
        looks = Looks(main)
        await _watched(pilot, app, looks)
        before = notes_on_disk(home)
        await pilot.press("x", "y")  # archive the selected note
        await _watched(pilot, app, looks)
        assert notes_on_disk(home) != before
        archived = next(
            i
            for i, n in notes_on_disk(home).items()
            if fields.hidden(n) and not fields.hidden(before[i])
        )
        main.select_note(archived)
        await settle(pilot, app)
        await pilot.press("u")  # unhide it
        await _watched(pilot, app, looks)
        assert not fields.hidden(notes_on_disk(home)[archived])
        await pilot.press("ctrl+z", "y")  # undo the unhide
        await _watched(pilot, app, looks)
        assert fields.hidden(notes_on_disk(home)[archived])
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("a", "y")  # apply the review
        await _watched(pilot, app, looks)
        assert app.screen is main and notes_on_disk(home) != before
        assert "Reloaded" not in titles, titles
        doc = json.loads(graph_path(home).read_bytes())  # then another program writes
        doc["notes"].insert(0, dict(doc["notes"][0], id="note-user-agentnew", title="agent's"))
        graph_path(home).write_text(json.dumps(doc))
        await _watched(pilot, app, looks)  # it has seen the change and reloaded
        assert titles.count("Reloaded") == 1, titles


async def test_the_watch_between_a_review_leaving_and_its_answer_is_no_news(tmp_path: Path) -> None:
    """The review has written and left; the main screen's watch looks before the main screen
    has handled the review's answer (the race the test above met under load)."""
    home = demo_home(tmp_path)
    app = make_app(home, watch_interval=60)  # the watch is called below, at that moment
    titles = toasts(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        main = main_screen(app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        quiet_reloads: list[bool] = []
        reload = main.reload
        main.reload = lambda quiet=False: (quiet_reloads.append(quiet), reload(quiet))[1]
        review.memory.apply(review.plan, review.kept)
        review._applied("Applied.")  # leaves; its answer is queued for the main screen
        assert app.screen is main
        main._check_file()  # a quiet reload now could land first and say "Reloaded"
        await settle(pilot, app)
        assert quiet_reloads == [False], quiet_reloads  # only the reload after the answer
        assert "Reloaded" not in titles, titles
