"""`f`: the memory files beside the selected nugget, shown read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nuggets_tui.screens.files import FilesScreen
from tests.support.console_support import main_screen, make_app, settle

SIZE = (120, 36)


@pytest.fixture
def home(home: Path) -> Path:
    """The demo memory (tests/conftest.py) with two more fact files beside it."""
    (home / "user.donna.json").write_text(json.dumps({"name": "user", "facts": []}))
    (home / "work.donna.json").write_text(json.dumps({"name": "work", "facts": []}))
    return home


def shown_text(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#file-text #diff-body").render())


async def test_f_lists_memory_md_and_the_nuggets_fact_file_and_shows_their_text(home: Path) -> None:
    memory_md = home / "memory" / "MEMORY.md"
    before = {p: p.read_bytes() for p in (memory_md, home / "user.donna.json")}
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main_screen(app).show_nugget("user")
        await settle(pilot, app)
        await pilot.press("f")
        await settle(pilot, app)
        assert isinstance(app.screen, FilesScreen)
        assert app.screen.paths == [memory_md, home / "user.donna.json"]  # not work's
        assert memory_md.read_text().splitlines()[0] in shown_text(app)
        await pilot.press("down")
        await settle(pilot, app)
        assert '"facts"' in shown_text(app)
        await pilot.press("escape")
        await settle(pilot, app)
        assert not isinstance(app.screen, FilesScreen)
    assert {p: p.read_bytes() for p in before} == before


async def test_a_file_that_cannot_be_shown_says_why(home: Path) -> None:
    (home / "memory" / "MEMORY.md").unlink()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("f")
        await settle(pilot, app)
        assert "Not shown: no such file" in shown_text(app)
