"""With no memory where the console looks, it says so and offers the demo of every memory system
the registry holds (the one asked for first): a number opens that system's demo."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import OptionList

from core.clock import fixed_clock
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.settings import Settings
from core.stores.registry import STORE_KINDS
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.welcome import WelcomeScreen
from tests.support.console_support import on_top, settle

CLOCK = fixed_clock(datetime(2026, 11, 25, 9, tzinfo=UTC))
SIZE = (80, 24)


def _app(tmp_path: Path, asked: StoreKind) -> NuggetsApp:
    settings = Settings.of(demo_dir=tmp_path / "demo", data_dir=tmp_path / "data")

    def open_demo(kind: StoreKind) -> Store:
        home = kind.materialize_demo(CLOCK, False, settings)
        return kind.open(home, CLOCK, kind.demo_memory_md(home), settings)

    absent = asked.open(tmp_path / "absent", CLOCK, None, settings)
    demos = [asked, *(kind for kind in STORE_KINDS if kind is not asked)]
    return NuggetsApp(absent, demo_offer=True, open_demo=open_demo, demos=demos)


@pytest.mark.parametrize("number", range(1, len(STORE_KINDS) + 1))
async def test_each_systems_demo_is_offered_and_opens(tmp_path: Path, number: int) -> None:
    app = _app(tmp_path, STORE_KINDS[0])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        welcome = on_top(app, WelcomeScreen)
        demos = welcome.query_one("#demos", OptionList)
        offered = [str(demos.get_option_at_index(i).prompt) for i in range(demos.option_count)]
        assert offered == [
            f"{n}  {kind.title} demo: {kind.demo_about}"
            for n, kind in enumerate(STORE_KINDS, start=1)
        ]
        assert demos.region.bottom <= SIZE[1] - 1, "every demo shows above the footer"
        await pilot.press(str(number))
        await settle(pilot, app)
        on_top(app, MainScreen)
        assert app.memory.profile.system == welcome.demos[number - 1].title
        assert app.memory.read().notes


async def test_the_system_asked_for_comes_first_and_d_opens_it(tmp_path: Path) -> None:
    asked = STORE_KINDS[-1]
    app = _app(tmp_path, asked)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert on_top(app, WelcomeScreen).demos[0] is asked
        await pilot.press("d")
        await settle(pilot, app)
        on_top(app, MainScreen)
        assert app.memory.profile.system == asked.title
