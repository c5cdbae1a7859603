"""The console's "since your last visit" header after a real `nuggets daily` on the demo: what
the run applied and promoted with the ids `nuggets undo` takes, how many changes wait (and `w`
showing only them), what each review rule decided; gone once the visit is over or `d` hid it.
And `nuggets demo --reset` leaves no rejection (nor visit) of the old demo: a ✗ in the fresh
demo's review is a rule's, and names it.

The memory is the demo (tests/support/console_support.py) with one review rule keeping every
tag change, as an operator would add it with `nuggets rules add`; the daily pass runs an hour
before the console opens."""

from __future__ import annotations

import stat
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from textual.pilot import Pilot

from core.clock import fixed_clock, shown_time
from core.plans.review_state import read_state
from core.plans.session import ReviewSession
from core.plans.since_visit import visit_path
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.cli import main
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from nuggets_tui.since import News
from tests.support.console_support import NOW, demo_home, make_app, on_top, settle
from tests.support.microclaw_support import NOW as MICROCLAW_NOW

SMALL = (80, 24)
ENV = {"NUGGETS_NOW": "2026-11-23T09:00:00Z", "NUGGETS_HOME": "", "TZ": "UTC"}


def _daily(tmp_path: Path, *daily: str) -> Path:
    home = demo_home(tmp_path)
    env = ENV | {"NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    for args in (("rules", "add", "tags", "keep", "--kind", "tag"), ("daily", *daily)):
        result = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
        assert result.exit_code == 0, result.output
    return home


def _runs(home: Path, kind: str) -> list[str]:
    store = NuggetsStore(home, fixed_clock(NOW))
    return [h.run_id for h in store.journal.log() if h.kind == kind]


def _counts(app: NuggetsApp) -> str:
    return str(on_top(app, ReviewScreen).query_one("#review-counts").render())


def _notified(app: NuggetsApp) -> list[str]:
    return [str(n.title) for n in app._notifications]


async def _looked(
    pilot: Pilot[Any], app: NuggetsApp, told: Callable[[], bool], ticks: int = 60
) -> None:
    """Let the main screen look at the memory (every 0.05 s here) until `told` holds."""
    for _ in range(ticks):
        await pilot.pause(0.05)
        if told():
            break
    await settle(pilot, app)


def _since(app: NuggetsApp) -> str:
    return str(on_top(app, MainScreen).query_one("#since-visit").render())


async def test_after_daily_hold_the_review_says_what_it_applied_what_waits_and_each_rule(
    tmp_path: Path,
) -> None:
    home = _daily(tmp_path, "--hold")
    (applied,) = _runs(home, "reflect")
    waiting = read_state(home).waiting
    tags = len(NuggetsStore(home, fixed_clock(NOW)).journal.run(applied).operations)
    assert tags and waiting
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        counts = " ".join(_counts(app).split())  # as wrapped at 80 columns
        assert f"Since your last visit: applied {tags} changes (nuggets undo {applied})" in counts
        since = shown_time(read_state(home).waiting_since)
        assert f"{len(waiting)} changes waiting since {since} (w: only them)" in counts
        assert f"rules: “tags” kept {tags}" in counts
        assert "promoted" not in counts  # --hold promotes nothing


async def test_after_daily_the_main_screen_says_what_it_applied_and_promoted(
    tmp_path: Path,
) -> None:
    home = _daily(tmp_path)
    (applied,) = _runs(home, "reflect")
    (promoted,) = _runs(home, "promote")
    store = NuggetsStore(home, fixed_clock(NOW))
    changes = len(store.journal.run(applied).operations)
    entries = len(store.journal.run(promoted).promoted or [])
    assert changes and entries and not read_state(home).waiting
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        since = " ".join(_since(app).split())
        assert f"applied {changes} changes (nuggets undo {applied})" in since
        assert f"promoted {entries} entries (nuggets undo {promoted})" in since
        assert "waiting" not in since


async def test_w_shows_only_the_changes_daily_left_waiting(tmp_path: Path) -> None:
    home = _daily(tmp_path, "--hold")
    waiting = set(read_state(home).waiting)
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        await pilot.press("c")  # the whole graph: the waiting changes among others
        await settle(pilot, app)
        review = on_top(app, ReviewScreen)
        keys = review.session.keys
        held = {op_id for op_id, key in enumerate(keys, start=1) if key in waiting}
        assert held and len(held) < len(keys)
        await pilot.press("w")
        await settle(pilot, app)
        shown = {row.op_id for row in review.table.rows if isinstance(row, ChangeRow)}
        assert shown == held
        row = next(r for r in review.table.rows if isinstance(r, ChangeRow))
        assert "waits" in review.rows.cells(row)[1].plain
        await pilot.press("w")
        await settle(pilot, app)
        shown = {row.op_id for row in review.table.rows if isinstance(row, ChangeRow)}
        assert len(shown) == len(keys)


async def test_the_header_is_gone_once_the_visit_is_over(tmp_path: Path) -> None:
    home = _daily(tmp_path)
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert "Since your last visit" in _since(app)
        app.exit()
    assert stat.S_IMODE(visit_path(home).stat().st_mode) == 0o600
    again = make_app(home, watch_interval=60)
    async with again.run_test(size=SMALL) as pilot:
        await settle(pilot, again)
        assert not on_top(again, MainScreen).query_one("#since-visit").display


async def test_d_hides_the_header_for_good(tmp_path: Path) -> None:
    home = _daily(tmp_path, "--hold")
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert "Since your last visit" in _counts(app)
        await pilot.press("d")
        await settle(pilot, app)
        counts = " ".join(_counts(app).split())
        assert "Since your last visit" not in counts
        assert "waiting since" in counts  # what waits is still said, without the news
        await pilot.press("escape")
        await settle(pilot, app)
        assert not on_top(app, MainScreen).query_one("#since-visit").display
    assert visit_path(home).exists()


async def test_after_demo_reset_no_rejection_from_before_and_a_rule_names_its_own(
    tmp_path: Path,
) -> None:
    def nuggets(*args: str) -> str:
        result = CliRunner().invoke(main, ["--demo", *args], env=ENV)
        assert result.exit_code == 0, result.output
        return result.stdout

    home = Path(nuggets("demo").strip())
    store = NuggetsStore(home, fixed_clock(NOW))
    session = ReviewSession(store)
    session.planned(session.make_plan())
    session.decide(range(1, len(session.keys) + 1), keep=False)  # every change rejected
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.exit()  # a visit to the old demo remembered
    assert visit_path(home).exists()
    nuggets("demo", "--reset")
    assert not visit_path(home).exists()
    nuggets("rules", "add", "no tags", "reject", "--kind", "tag")
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = on_top(app, ReviewScreen)
        rows = [r for r in review.table.rows if isinstance(r, ChangeRow)]
        rejected = [r for r in rows if r.op_id not in review.kept | review.session.left_out]
        assert rejected and {r.change.type for r in rejected} == {"tag"}
        for row in rejected:  # each ✗ says the rule that rejected it
            assert review.rows.cells(row)[1].plain.startswith("no tags · ")


async def test_on_microclaw_the_header_counts_its_runs_through_the_same_journal(
    data_dir: Path,
) -> None:
    env = {"NUGGETS_NOW": "2026-11-24T10:00:00Z", "NUGGETS_HOME": "", "TZ": "UTC"}
    result = CliRunner().invoke(main, ["--microclaw", str(data_dir), "daily"], env=env)
    assert result.exit_code == 0, result.output
    store = MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW + timedelta(hours=2)))
    log = store.journal.log()
    (applied,) = [h.run_id for h in log if h.kind == "reflect"]
    promoted = [h.run_id for h in log if h.kind == "promote"]  # one per AGENTS.md
    entries = sum(len(store.journal.run(r).promoted or []) for r in promoted)
    changes = len(store.journal.run(applied).operations)
    assert changes and entries and len(promoted) > 1
    app = NuggetsApp(store, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        since = " ".join(_since(app).split())
        assert f"applied {changes} changes (nuggets undo {applied})" in since
        more = f"{len(promoted) - 1} more runs in l"
        assert f"promoted {entries} entries (nuggets undo {promoted[0]}; {more})" in since


async def test_changes_still_waiting_after_the_visit_are_said_without_the_news(
    tmp_path: Path,
) -> None:
    home = _daily(tmp_path, "--hold")
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert "Since your last visit" in _counts(app)
        assert "Waiting for review" not in _notified(app)  # the header says it already
        app.exit()  # the visit over, nothing decided: the changes still wait
    again = make_app(home, watch_interval=60)
    async with again.run_test(size=SMALL) as pilot:
        await settle(pilot, again)
        counts = " ".join(_counts(again).split())
        assert "Since your last visit" not in counts
        waiting = len(read_state(home).waiting)
        assert f"{waiting} changes waiting since" in counts and "w shows only them" in counts
        assert "Waiting for review" in _notified(again)


async def test_a_daily_run_while_the_console_is_open_is_told_and_our_own_runs_are_not(
    tmp_path: Path,
) -> None:
    """Cron's `nuggets daily` lands while the console sits open: its run is news at once, with
    the id that undoes it; a review the person applies in the console is not."""
    home = demo_home(tmp_path)
    env = ENV | {"NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    app = make_app(home, watch_interval=0.05)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        header = on_top(app, MainScreen).query_one("#since-visit")
        assert not header.display  # nothing ran yet
        result = CliRunner().invoke(main, ["--home", str(home), "daily"], env=env)
        assert result.exit_code == 0, result.output
        (daily,) = _runs(home, "reflect")
        (promoted,) = _runs(home, "promote")  # MEMORY.md: no file the main screen watches
        await _looked(pilot, app, lambda: header.display and "promoted" in _since(app))
        since = " ".join(_since(app).split())
        assert f"(nuggets undo {daily})" in since and f"(nuggets undo {promoted})" in since
        assert "Since your last visit" in " ".join(str(n.message) for n in app._notifications)
        await pilot.press("r")
        await settle(pilot, app)
        assert on_top(app, ReviewScreen).kept
        await pilot.press("a")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        ours = [run for run in _runs(home, "reflect") if run != daily]
        assert len(ours) == 1
        since = " ".join(_since(app).split())
        assert f"nuggets undo {daily}" in since and ours[0] not in since
        assert "1 more run" not in since


def test_an_undo_of_a_run_it_told_takes_it_out_of_the_news(tmp_path: Path) -> None:
    home = _daily(tmp_path)
    store = NuggetsStore(home, fixed_clock(NOW))
    news = News.read(store)
    (applied,) = _runs(home, "reflect")
    assert news.since.applied.undo == (applied,)
    store.journal.undo(applied)  # from the console's run history, say
    assert news.catch_up(ours=True)
    assert news.since.applied.undo == () and news.since.promoted.undo


async def test_a_promotion_written_while_the_console_is_open_is_told(tmp_path: Path) -> None:
    """`nuggets promote --apply` from a shell writes MEMORY.md and a run, never the graph file
    the main screen watches: the run still reaches the header, by the journal's folder."""
    home = demo_home(tmp_path)
    env = ENV | {"NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    graph = (home / "graph" / "graph.json").read_bytes()
    app = make_app(home, watch_interval=0.05)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        header = on_top(app, MainScreen).query_one("#since-visit")
        assert not header.display
        args = ["--home", str(home), "promote", "--threshold", "1", "--apply"]
        result = CliRunner().invoke(main, args, env=env)
        assert result.exit_code == 0, result.output
        assert (home / "graph" / "graph.json").read_bytes() == graph
        (promoted,) = _runs(home, "promote")
        await _looked(pilot, app, lambda: header.display)
        assert header.display
        assert f"(nuggets undo {promoted})" in " ".join(_since(app).split())
        assert "New runs" in _notified(app)


async def test_after_d_a_run_with_nothing_to_tell_brings_no_header_and_no_notice(
    tmp_path: Path,
) -> None:
    """`d` hid the header; a shell then undoes the promotion it told (the journal's folder
    changes, MEMORY.md too): nothing new to tell, so nothing is said."""
    home = _daily(tmp_path)
    (promoted,) = _runs(home, "promote")
    env = ENV | {"NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    app = make_app(home, watch_interval=0.05)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        header = on_top(app, MainScreen).query_one("#since-visit")
        assert header.display
        await pilot.press("d")
        await settle(pilot, app)
        assert not header.display
        app.clear_notifications()
        result = CliRunner().invoke(main, ["--home", str(home), "undo", promoted], env=env)
        assert result.exit_code == 0, result.output
        await _looked(pilot, app, lambda: False, ticks=20)  # it looks, and finds nothing to tell
        assert not header.display
        assert "New runs" not in _notified(app)


def test_looking_again_names_no_unreadable_entry_the_opening_named(tmp_path: Path) -> None:
    """The main screen looks at the journal on every load: an entry that cannot be read is
    named once, when the console opens (and by `l`), not again on every look."""
    home = _daily(tmp_path)
    store = NuggetsStore(home, fixed_clock(NOW))
    (applied,) = _runs(home, "reflect")
    (store.journal.folder / f"{applied}.json").write_bytes(b"")
    news = News.read(store)
    assert any(f"{applied}.json" in said for said in store.take_notices())
    news.catch_up(ours=False)
    assert store.take_notices() == []


async def test_the_reviews_own_apply_is_never_news_however_often_it_looks(
    tmp_path: Path,
) -> None:
    """The review looks at the file every 0.01 s while its apply writes: the run it writes is
    the person's own, never told as since the last visit."""
    home = demo_home(tmp_path)
    app = make_app(home, watch_interval=0.01)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        (ours,) = _runs(home, "reflect")
        on_top(app, MainScreen)
        for _ in range(10):
            await pilot.pause(0.02)
        assert not on_top(app, MainScreen).query_one("#since-visit").display, _since(app)
