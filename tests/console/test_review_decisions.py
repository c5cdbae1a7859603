"""A review never loses the operator's work: keep/reject decisions are kept beside the journal
and carried across Escape, planning again and a restart; changes new since the last plan are
marked; leaving with undecided changes says so."""

from __future__ import annotations

import json
from pathlib import Path

from core.plans.review_state import change_key, read_state, state_path
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.screens.review import ChangeRow, ReviewScreen
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.console_support import main_screen, make_app, settle

SIZE = (120, 40)


async def _review(pilot, app) -> ReviewScreen:  # type: ignore[no-untyped-def]
    await pilot.press("r")
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ReviewScreen) and screen.plan is not None
    return screen


def _rejected(review: ReviewScreen) -> set[str]:
    """What the rejected changes do (their keys), independent of their numbers in one plan."""
    assert review.plan is not None
    return {change_key(op) for op in review.plan.operations if op.id not in review.kept}


async def _reject_two(pilot, review: ReviewScreen) -> set[str]:  # type: ignore[no-untyped-def]
    await pilot.press("space", "space")
    rejected = _rejected(review)
    assert len(rejected) == 2
    return rejected


async def test_decisions_survive_escape_and_a_restart(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = await _review(pilot, app)
        rejected = await _reject_two(pilot, review)
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        review = await _review(pilot, app)
        assert _rejected(review) == rejected
    assert {k for k, kept in read_state(home).decisions.items() if not kept} == rejected
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = await _review(pilot, app)
        assert _rejected(review) == rejected


async def test_coming_back_to_the_review_keeps_the_cursor_on_its_change(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = await _review(pilot, app)
        await pilot.press("down", "down", "down", "down")
        changes = review.query_one("#changes", VirtualTable)
        row = changes.current
        first = next(r for r in changes.rows if isinstance(r, ChangeRow))
        assert isinstance(row, ChangeRow) and row.op_id != first.op_id
        left_on = review.session.keys[row.op_id - 1]
        await pilot.press("escape")
        await settle(pilot, app)
        review = await _review(pilot, app)
        row = review.query_one("#changes", VirtualTable).current
        assert isinstance(row, ChangeRow)
        assert review.session.keys[row.op_id - 1] == left_on


async def test_a_replan_keeps_decisions_and_marks_the_new_changes(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = await _review(pilot, app)
        assert review.plan is not None
        rewrite = next(op for op in review.plan.operations if op.type == "rewrite")
        changes = review.query_one("#changes", VirtualTable)
        while not (
            isinstance(changes.current, ChangeRow)
            and changes.current.op_id != rewrite.id
            and changes.current.change.type == "merge"
        ):
            await pilot.press("down")
        await pilot.press("space")  # reject one merge
        rejected = _rejected(review)
        doc = json.loads(graph_path(home).read_bytes())
        note = next(n for n in doc["notes"] if n["id"] == rewrite.note_id)
        note["content"] += "\n\nAlso: the staging host moved."  # its rewrite is now another
        graph_path(home).write_text(json.dumps(doc))
        review._check_file()  # as its timer does
        await settle(pilot, app)
        assert review.stale
        await pilot.press("r")
        await settle(pilot, app)
        assert _rejected(review) == rejected
        new = [r for r in changes.rows if isinstance(r, ChangeRow) and r.op_id in review.rows.new]
        assert [(r.change.type, r.change.note_id) for r in new] == [("rewrite", rewrite.note_id)]
        assert "1 change new since the last plan" in str(
            review.query_one("#review-counts").render()
        )
        assert str(changes.renderer.cells(new[0])[1]).startswith("new ")
        await pilot.press("N")
        await settle(pilot, app)
        assert [r for r in changes.rows if isinstance(r, ChangeRow)] == new


async def test_leaving_with_undecided_changes_says_so(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await _review(pilot, app)
        await pilot.press("space")
        await pilot.press("escape")
        await settle(pilot, app)
        said = " ".join(str(n.message) for n in app._notifications)
        assert "Your decisions on 1 change are kept" in said and "not decided yet" in said
        await _review(pilot, app)
        await pilot.press("q")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert "not decided" in str(app.screen.query_one("#dialog-title").render())
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)


async def test_a_review_without_decisions_writes_nothing(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await _review(pilot, app)
        await pilot.press("escape")
        await settle(pilot, app)
    assert not state_path(home).exists()


async def test_the_consoles_own_writes_are_not_news(home: Path) -> None:
    app = make_app(home, watch_interval=60)  # its watch is called below, at the worst moment
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot, app)
        main = app.screen
        assert isinstance(main, MainScreen)
        review = await _review(pilot, app)
        assert review.plan is not None
        review.memory.apply(review.plan, review.kept)  # the review's write has landed...
        main._check_file()  # ...when the main screen's watch looks at the file
        await settle(pilot, app)
        review._applied("Applied.")
        await settle(pilot, app)
        assert app.screen is main
        titles = [n.title for n in app._notifications]
        assert "Applied" in titles and "Reloaded" not in titles


def _table_text(screen, table_id: str) -> str:  # type: ignore[no-untyped-def]
    table = screen.query_one(table_id, VirtualTable)
    return "".join(seg.text for y in range(3) for seg in table.render_line(y))


async def test_no_empty_state_is_said_while_planning_or_looking(tmp_path: Path) -> None:
    import threading

    from core.models import Plan
    from nuggets_tui.screens.conflicts import ConflictsScreen
    from tests.support.note_builders import make_home

    home = make_home(tmp_path, [])  # nothing to plan, no contradiction: both end empty
    app = make_app(home)
    gate = threading.Event()
    plan, read = app.memory.plan, app.memory.read

    def slow_plan(*args, **kwargs) -> Plan:  # type: ignore[no-untyped-def]
        gate.wait(10)
        return plan(*args, **kwargs)

    def slow_read():  # type: ignore[no-untyped-def]
        gate.wait(10)
        return read()

    app.memory.plan = slow_plan
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        main_screen(app).prepared_plan = None  # planned when the review opens, not ahead
        await pilot.press("r")
        await pilot.pause(0.2)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.plan is None
        assert "No changes" not in _table_text(review, "#changes")
        gate.set()
        await settle(pilot, app)
        assert "No changes: this memory is already tidy." in _table_text(review, "#changes")
        await pilot.press("escape")
        await settle(pilot, app)
        gate.clear()
        app.memory.read = slow_read
        await app.push_screen(ConflictsScreen(app.memory))  # it reads the memory itself
        await pilot.pause(0.2)
        queue = app.screen
        assert isinstance(queue, ConflictsScreen) and queue.found is None
        assert "No contradictions" not in _table_text(queue, "#groups")
        gate.set()
        await settle(pilot, app)
        assert "No contradictions" in _table_text(queue, "#groups")


async def test_new_only_after_lifting_the_cap_shows_what_the_capped_plan_did_not_hold(
    home: Path,
) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = await _review(pilot, app)
        assert review.plan is not None
        capped = {change_key(op) for op in review.plan.operations}
        await pilot.press("c")
        await settle(pilot, app)
        assert review.uncapped and review.plan is not None
        more = {op.id for op in review.plan.operations if change_key(op) not in capped}
        assert more and review.rows.new == more
        await pilot.press("N")
        await settle(pilot, app)
        assert review.new_only
        changes = review.query_one("#changes", VirtualTable)
        assert {r.op_id for r in changes.rows if isinstance(r, ChangeRow)} == more
        said = " ".join(str(n.message) for n in app._notifications)
        assert "No change is new" not in said
