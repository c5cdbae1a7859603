"""Every console screen on the memory-purifier demo (`--demo-purifier`: our own generator,
core/stores/purifier/demo.py): the claims with their marks, a claim's source opened at its
lines, the contradiction queue with the outdated one apart, the runs (ours and the purifier's),
and not one byte of the workspace or its telemetry changed by any of it (docs/PURIFIER.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.review.decisions import read_settled
from core.review.marks import mark_notes, read_marks
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.confirm import ChoiceScreen, ConfirmScreen
from nuggets_tui.screens.conflicts import ConflictsScreen
from nuggets_tui.screens.files import FilesScreen
from nuggets_tui.screens.graph import GraphScreen
from nuggets_tui.screens.help import HelpScreen
from nuggets_tui.screens.history import HistoryScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.support.console_support import main_screen, on_top, settle
from tests.support.tree import hashes

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
SIZE = (140, 40)
SOURCED = "cl-demo000000000003"  # MEMORY.md line 5
RETIRED = "cl-demo000000000008"  # its episode file is gone: why the purifier retires it
# r first asks (the purifier's model backend may spend tokens): the question is its screen
SCREENS = {
    "r": ConfirmScreen,
    "g": GraphScreen,
    "l": HistoryScreen,
    "f": FilesScreen,
    "c": ConflictsScreen,
    "question_mark": HelpScreen,
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return materialize_purifier_demo(tmp_path / "demo-purifier" / "workspace", NOW)


def store(workspace: Path) -> PurifierStore:
    return PurifierStore(workspace, fixed_clock(NOW))


def text_of(app: NuggetsApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def open_note(pilot, app: NuggetsApp, note_id: str) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    main_screen(app).show_hidden = True
    main_screen(app).refilter()
    await settle(pilot, app)
    main_screen(app).select_note(note_id)
    await settle(pilot, app)


@pytest.mark.parametrize("key", list(SCREENS))
async def test_every_screen_opens_on_the_demo_and_writes_nothing(workspace: Path, key: str) -> None:
    before = hashes(workspace.parent)
    app = NuggetsApp(store(workspace))
    async with app.run_test(size=SIZE) as pilot:
        await open_note(pilot, app, SOURCED)
        await pilot.press(key)
        await settle(pilot, app)
        assert isinstance(app.screen, SCREENS[key])
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
    assert hashes(workspace.parent) == before


async def test_a_claims_mark_shows_in_its_detail(workspace: Path) -> None:
    mark_notes(store(workspace), [SOURCED], "disputed")
    app = NuggetsApp(store(workspace))
    async with app.run_test(size=SIZE) as pilot:
        await open_note(pilot, app, SOURCED)
        detail = text_of(app, "#detail-body")
        assert "mark" in detail and "disputed" in detail


async def source_shown(pilot, app: NuggetsApp, note_id: str) -> str:  # type: ignore[no-untyped-def]
    """f on the note: the text its source screen shows."""
    await open_note(pilot, app, note_id)
    await pilot.press("f")
    await settle(pilot, app)
    return text_of(app, "#file-text #diff-body")


async def test_f_opens_the_claims_source_at_its_lines(workspace: Path) -> None:
    app = NuggetsApp(store(workspace))
    async with app.run_test(size=SIZE) as pilot:
        shown = await source_shown(pilot, app, SOURCED)
        assert [s.label for s in on_top(app, FilesScreen).sources] == ["MEMORY.md:5"]
        marked = [row for row in shown.splitlines() if row.startswith("▶")]
        assert len(marked) == 1 and "The operator prefers short status reports." in marked[0]


async def test_a_missing_source_is_one_line(workspace: Path) -> None:
    app = NuggetsApp(store(workspace))
    async with app.run_test(size=SIZE) as pilot:
        shown = (await source_shown(pilot, app, RETIRED)).splitlines()
        assert shown[1].startswith("Not shown: episodes/2026-10-12-migration.md: no such file")


async def test_the_queue_shows_the_outdated_apart_and_both_stand_is_ours(workspace: Path) -> None:
    before = hashes(workspace.parent)
    memory = store(workspace)
    app = NuggetsApp(memory)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        conflicts = on_top(app, ConflictsScreen)
        assert conflicts.found is not None
        groups = conflicts.found.groups
        outdated = [g for g in groups if g.outdated]
        assert len(outdated) == 1 and len(groups) == 2
        conflicts.table.select_key(outdated[0].id)
        await settle(pilot, app)
        assert "Outdated: " in text_of(app, "DiffView #diff-body")
        await pilot.press("b")
        await settle(pilot, app)
        assert not isinstance(app.screen, ConfirmScreen)  # nothing to decide
        open_group = next(g for g in groups if not g.outdated)
        conflicts.table.select_key(open_group.id)
        await settle(pilot, app)
        await pilot.press("b")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, app)
    assert len(read_settled(memory.journal_home)) == 1
    assert read_marks(memory.journal_home) == {}
    assert hashes(workspace.parent) == before


async def test_m_marks_the_selected_claim_and_ctrl_z_takes_the_mark_back(workspace: Path) -> None:
    before = hashes(workspace.parent)
    memory = store(workspace)
    app = NuggetsApp(memory)
    async with app.run_test(size=SIZE) as pilot:
        await open_note(pilot, app, SOURCED)
        await pilot.press("m")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("d")
        await settle(pilot, app)
        assert read_marks(memory.journal_home) == {SOURCED: "disputed"}
        assert "disputed" in text_of(app, "#detail-body")
        await pilot.press("m", "c")  # its mark cleared: a second run of ours
        await settle(pilot, app)
        assert read_marks(memory.journal_home) == {}
        await pilot.press("ctrl+z", "y")  # the clearing undone: the mark is back
        await settle(pilot, app)
        assert read_marks(memory.journal_home) == {SOURCED: "disputed"}
    assert hashes(workspace.parent) == before  # never in the purifier's files


async def test_m_is_offered_only_by_a_store_that_keeps_marks(home: Path) -> None:
    from core.stores.nuggets.store import NuggetsStore  # a store without the capability

    app = NuggetsApp(NuggetsStore(home, fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main = app.screen
        assert isinstance(main, MainScreen)
        assert main.check_action("mark", ()) is False
        await pilot.press("m")
        await settle(pilot, app)
        assert app.screen is main


def _run_cells(app: NuggetsApp) -> dict[str, str]:
    """Each visible note's Run cell (the table's header names where it is), by its title."""
    table = main_screen(app).query_one("#notes", NoteTable)
    header = table.render_line(0).text
    start = header.index("Run")
    end = header.index("Links")
    return {
        note["title"]: table.render_line(y + 1).text[start:end].strip()
        for y, note in enumerate(table.rows[: table.size.height - 1])
    }


async def run_cells(workspace: Path, size: tuple[int, int]) -> dict[str, str]:
    app = NuggetsApp(store(workspace))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        return _run_cells(app)


async def test_the_run_column_shows_the_demos_run_ids_whole(workspace: Path) -> None:
    cells = await run_cells(workspace, (140, 42))
    assert cells.pop("Had lunch at noon.") == "demo-run-1"
    assert cells and set(cells.values()) == {"demo-run-4"}


async def test_long_run_ids_are_cut_in_the_middle_keeping_their_ends(workspace: Path) -> None:
    """Ids that differ only at their end stay told apart where the column is too narrow."""
    for path in (workspace / "runtime").glob("*.jsonl"):
        text = path.read_text(encoding="utf-8").replace("demo-run-4", "reconcile-20261127-0004")
        path.write_text(text.replace("demo-run-1", "reconcile-20261124-0001"), encoding="utf-8")
    cells = await run_cells(workspace, (140, 42))
    lunch = cells.pop("Had lunch at noon.")
    assert lunch.startswith("reco") and "…" in lunch and lunch.endswith("0001")
    assert cells and all(c.startswith("reco") and c.endswith("0004") for c in cells.values())
