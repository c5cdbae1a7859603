"""The changes waiting after `nuggets daily --hold` are exactly the ones it held: applying what a
review rule keeps (tags) re-dates notes, so a capped pass planned afresh afterwards picks other
notes; the console's review shows the held changes themselves, as the daily pass planned them,
and says how many, not a fresh plan's.

The memory is the demo (tests/support/console_support.py) with one review rule keeping every
tag change, as an operator would add it with `nuggets rules add`."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from core.clock import fixed_clock
from core.plans.review_state import change_key, read_state
from core.plans.session import ReviewSession
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from nuggets_tui.screens.review import ReviewScreen
from tests.support.console_support import NOW, demo_home, make_app, settle

SIZE = (140, 40)
ENV = {"NUGGETS_NOW": "2026-11-23T10:00:00Z", "NUGGETS_HOME": "", "TZ": "UTC"}


def _held_by_daily(tmp_path: Path) -> Path:
    home = demo_home(tmp_path)
    env = ENV | {"NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    for args in (("rules", "add", "tags", "keep", "--kind", "tag"), ("daily", "--hold")):
        result = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
        assert result.exit_code == 0, result.output
    return home


def test_the_review_plans_exactly_what_daily_held(tmp_path: Path) -> None:
    home = _held_by_daily(tmp_path)
    held = read_state(home).waiting
    store = NuggetsStore(home, fixed_clock(NOW))
    fresh = [change_key(op) for op in store.plan().operations]
    assert held and set(fresh) != set(held)  # the case: a fresh plan is not what was held
    shown = ReviewSession(store).make_plan()
    assert [change_key(op) for op in shown.operations] == held
    assert [op.id for op in shown.operations] == list(range(1, len(held) + 1))
    assert shown.kind == "reflect"


def test_once_every_held_change_is_decided_the_review_plans_afresh(tmp_path: Path) -> None:
    home = _held_by_daily(tmp_path)
    store = NuggetsStore(home, fixed_clock(NOW))
    session = ReviewSession(store)
    session.planned(session.make_plan())
    session.decide(range(1, len(session.keys) + 1), keep=False)
    again = ReviewSession(store).make_plan()
    assert {change_key(op) for op in again.operations} == {
        change_key(op) for op in store.plan().operations
    }


async def test_the_console_opens_on_the_held_changes_and_counts_them(tmp_path: Path) -> None:
    home = _held_by_daily(tmp_path)
    held = read_state(home).waiting
    app = make_app(home, watch_interval=60)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is not None
        assert [change_key(op) for op in review.plan.operations] == held
        counts = str(review.query_one("#review-counts").render())
        assert f"{len(held)} changes waiting since" in counts
