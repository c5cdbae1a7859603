"""No escape or control character an agent wrote reaches the terminal: every screen and widget of
the console is walked with a hostile memory, and each frame it would write is checked byte for
byte (tests/support/terminal_output.py)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.journal.entries import journal_dir
from core.safeio.inert_text import hidden_characters
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.app import NuggetsApp
from nuggets_tui.cli import main
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.conflicts import ConflictsScreen
from nuggets_tui.screens.graph import GraphScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.promote import PromoteScreen
from nuggets_tui.screens.review import ReviewScreen
from nuggets_tui.screens.welcome import WelcomeScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.note_detail import NoteDetailPane
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import main_screen, make_app, settle
from tests.support.figures import record
from tests.support.hostile_memory import (
    EVIL,
    PAYLOADS,
    Hostile,
    hostile_home,
    path_safe,
    tamper_entry,
)
from tests.support.reliability_support import make_home, memory_of, messy_notes
from tests.support.terminal_output import C0_C1, assert_inert

SIZE = (160, 50)


async def walk_every_screen(pilot, app: NuggetsApp, hostile: Hostile) -> int:  # type: ignore[no-untyped-def]
    """Every screen, dialog, toast and pane with the hostile data on it; the frames checked."""
    checked = 0

    async def check(where: str, *keys: str, expect: str = "␛") -> None:
        nonlocal checked
        if keys:
            await pilot.press(*keys)
        await settle(pilot, app)
        assert_inert(app, where, expect)
        checked += 1

    async def check_all_of(pane, where: str) -> None:  # type: ignore[no-untyped-def]
        """The pane's text page by page: a frame holds only what is in view."""
        pane.scroll_home(animate=False)
        await check(where)
        while pane.scroll_y < pane.max_scroll_y:
            pane.scroll_to(y=pane.scroll_y + pane.size.height, animate=False, immediate=True)
            await check(f"{where}, further down")

    await settle(pilot, app)
    main = app.screen
    assert isinstance(main, MainScreen)
    main.select_note(hostile.note_id)
    await check_all_of(
        main.query_one(NoteDetailPane),
        "main: title bar, sidebar, overview, table, detail with a missing link",
    )
    main.show_nugget(main.current_note["nuggetName"])
    await check("main: one nugget")
    await check("run history: the tampered run", "l", expect="Run history")
    await check("run history: its pane", "down")
    await check("back from the run history", "escape")
    await check("memory files", "f", expect="Memory files")
    await check("back from the memory files", "escape")
    # The journal is checked before it is trusted: the tampered run is skipped and named.
    await check("undo refused: a tampered run id", "ctrl+z", expect="No applied run to undo")
    assert not isinstance(app.screen, ConfirmScreen)
    main.select_note(hostile.archived_id)
    await check("main: an archived note")
    await check("unhide toast", "u", expect="Brought back")
    await check("palette", "ctrl+p", *"content")
    await check("palette hits", "down")
    await check("back from the palette", "escape", "escape")
    main.select_note(hostile.note_id)
    await check("graph: neighbourhood", "g")
    assert isinstance(app.screen, GraphScreen)
    await check("graph: orphans", "o")
    await check("graph: groups", "c")
    await check("back from the graph", "escape")
    await check("main: verdict filter", "v", expect="")
    await check("main: every verdict again", *"vvvvv")
    await check("contradictions", "c", expect="Contradictions")
    queue = app.screen
    assert isinstance(queue, ConflictsScreen) and queue.found and queue.found.groups
    for step in range(min(4, len(queue.found.groups))):
        await check_all_of(queue.query_one(DiffView), f"contradictions: group {step}")
        await pilot.press("down")
    await check("contradictions: another note picked", "space")
    await check("contradictions: the decision's diff", "o")
    assert queue.decision is not None
    await check_all_of(queue.query_one(DiffView), "contradictions: the decision's diff")
    await check("contradictions: apply dialog", "a")
    assert isinstance(app.screen, ConfirmScreen)
    await check("contradictions: not applied", "n")
    await check("contradictions: both stand dialog", "b")
    assert isinstance(app.screen, ConfirmScreen)
    await check("back from the contradictions", "n", "escape", "escape")
    await check("review", "r")
    review = app.screen
    assert isinstance(review, ReviewScreen) and review.plan and review.plan.operations
    for step in range(min(8, len(review.plan.operations))):
        await pilot.press("down")
        await check_all_of(review.query_one(DiffView), f"review: change {step}")
    await check("review: apply dialog", "a")
    assert isinstance(app.screen, ConfirmScreen)
    await check("review: not applied", "n", "escape")
    await check("promotion", "p")
    promote = app.screen
    assert isinstance(promote, PromoteScreen) and promote.plan and promote.plan.blocked
    entries = promote.query_one("#entries", VirtualTable)
    await check_all_of(promote.query_one(DiffView), "promotion: MEMORY.md's diff")
    for step in range(min(6, len(entries.rows))):
        await check(f"promotion: entry {step}", "down")
    await check("promotion: allowed", "home", "space")
    await check("promotion: write dialog", "a")
    await check("promotion: not written", "n", "escape")
    await check("help", "question_mark")
    await check("back from help", "escape")
    return checked


@pytest.mark.slow
async def test_a_hostile_memory_reaches_no_terminal_through_any_screen(tmp_path: Path) -> None:
    hostile = hostile_home(tmp_path)
    app = make_app(hostile.home, watch_interval=0.1)
    async with app.run_test(size=SIZE, notifications=True, tooltips=True) as pilot:
        frames = await walk_every_screen(pilot, app, hostile)
        # A file broken with a hostile id: the error banner.
        doc = json.loads(graph_path(hostile.home).read_bytes())
        doc["notes"].append(dict(doc["notes"][0]))
        graph_path(hostile.home).write_text(json.dumps(doc, ensure_ascii=False))
        await pilot.pause(0.3)
        await settle(pilot, app)
        assert app.screen.query_one("#problem").display
        assert_inert(app, "error banner")
    record("escape sequences tried on every screen", len(PAYLOADS))
    record("console frames checked for escapes", frames + 1)


async def test_the_welcome_screen_names_a_hostile_directory_inertly(tmp_path: Path) -> None:
    app = make_app(tmp_path / path_safe("absent " + EVIL), demo_offer=True)
    async with app.run_test(size=SIZE, notifications=True, tooltips=True) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, WelcomeScreen)
        assert_inert(app, "welcome")
    record("console frames checked for escapes")


def test_the_command_line_prints_a_hostile_memory_inertly(tmp_path: Path) -> None:
    """Every command's output for a person, errors included, with the hostile memory: its home
    and MEMORY.md paths, journal entry, notes and ids."""
    hostile = hostile_home(tmp_path)
    env = {
        "NUGGETS_NOW": "2026-11-23T10:00:00Z",
        "TZ": "UTC",
        "NUGGETS_HOME": "",
        "NUGGETS_MEMORY_MD": str(hostile.memory_md),
        "MEMORY_REFLECTION_HOUR": "0",
    }
    run_id = next(journal_dir(hostile.home).glob("*.json")).stem
    commands = [
        ("notes", "--hidden"),
        ("reflect",),
        ("reflect", "--all"),
        ("promote",),
        ("log",),
        ("-v", "daily"),
        ("unhide", hostile.archived_id),
        ("undo", run_id),
        ("undo", "no-such-run"),
        ("promote", "--allow", EVIL),
        ("notes", "--nugget", f"nugget {EVIL}"),
    ]
    shown_data = 0
    for args in commands:
        result = CliRunner().invoke(main, ["--home", str(hostile.home), *args], env=env)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        shown = result.output.replace("\n", "").replace("\t", "")
        assert C0_C1.findall(shown) == [] and hidden_characters(shown) == [], args
        shown_data += "␛" in shown
    assert shown_data >= len(commands) - 2  # unhide and undo print no note text
    record("command outputs checked for escapes", len(commands))


CONTROLS = st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Co", "Mn"])
SELECTOR = st.sampled_from(["\ufe00", "\ufe0e", "\ufe0f", "\U000e0100", "\U000e01ef"])
hostile_text = st.lists(
    st.one_of(st.sampled_from(PAYLOADS), CONTROLS, SELECTOR, st.text(max_size=3)),
    min_size=1,
    max_size=4,
).map(lambda parts: "x\x1b" + "".join(parts))  # ESC: shown as ␛ somewhere
FIELDS = ("id", "title", "content", "tag", "nugget", "target", "reason", "at", "memory_md")


def generated_home(root: Path, texts: dict[str, str]) -> Hostile:
    """messy_notes (every kind of change) with the generated texts in every field shown."""
    notes = messy_notes()
    first = notes[0]
    first.update(
        id=f"n1{texts['id']}",
        title=texts["title"],
        tags=[texts["tag"]],
        content=first["content"] + texts["content"],
        nuggetName=texts["nugget"],
        links=[{"to": texts["target"], "reason": texts["reason"], "createdAt": first["createdAt"]}],
    )
    notes[2]["links"] = [
        {"to": first["id"], "reason": texts["reason"], "createdAt": first["createdAt"]}
    ]
    home = make_home(root, notes, memory_md=f"# Memory\n- hand {texts['memory_md']}\n")
    graph_path(home).write_text(json.dumps({"version": 3, "notes": notes}, ensure_ascii=False))
    entry = memory_of(home).unhide(["n6"])
    assert entry is not None
    path = journal_dir(home) / f"{entry.run_id}.json"
    tamper_entry(path, runId=f"{entry.run_id}{texts['at']}", at=texts["at"], summary=texts["title"])
    return Hostile(home, first["id"], "n6", texts["target"], home / "memory" / "MEMORY.md")


async def walk_briefly(hostile: Hostile) -> int:
    app = make_app(hostile.home)
    checked = 0
    async with app.run_test(size=(120, 40), notifications=True) as pilot:

        async def check(where: str, *keys: str) -> None:
            nonlocal checked
            await pilot.press(*keys)
            await settle(pilot, app, pause=0.02)
            assert_inert(app, where, expect="")
            checked += 1

        await settle(pilot, app, pause=0.02)
        main_screen(app).select_note(hostile.note_id)
        await check("main")
        app.screen.query_one(NoteDetailPane).scroll_end(animate=False)
        await check("main: detail's links")
        await check("graph", "g")
        await check("review", "escape", "r")
        await check("review: a change", "down", "down")
        await check("undo dialog", "escape", "ctrl+z")
        await check("promotion", "n", "p")
        await check("contradictions", "escape", "c")
        await check("contradictions: a decision", "space", "o")
    return checked


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.fixed_dictionaries({name: hostile_text for name in FIELDS}))
def test_generated_hostile_memories_reach_no_terminal(texts: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as root:
        frames = asyncio.run(walk_briefly(generated_home(Path(root), texts)))
    record("generated hostile memories walked", 1)
    record("console frames checked for escapes", frames)
