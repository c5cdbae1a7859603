"""`c`: the contradiction queue. A person decides a group, sees the diff, applies it, finds it on
disk, undoes it; both stand hides a group until one of its notes changes; a stale plan is
refused and planned again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import Static

from core.review.contradictions import Group, find_contradictions
from core.review.decisions import settled_path
from core.stores.nuggets.graph_file import graph_path
from nuggets_tui.screens.confirm import ConfirmScreen
from nuggets_tui.screens.conflicts import NOTES_SHOWN, ConflictsScreen, group_text
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.diff_view import DiffView
from nuggets_tui.widgets.virtual_table import VirtualTable
from tests.support.conflict_builders import answers_memory, pref
from tests.support.console_support import make_app, notes_on_disk, settle
from tests.support.note_builders import make_home

SIZE = (140, 40)
MEMBERS = ["a-direct", "a-bullets", "a-direct-2", "a-short"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path, answers_memory())


def pane(screen: ConflictsScreen) -> str:
    return screen.query_one(DiffView)._text.plain


async def open_queue(pilot, app) -> ConflictsScreen:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("c")
    await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ConflictsScreen)
    return screen


async def test_one_stands_shows_its_diff_applies_and_undoes(home: Path) -> None:
    before = graph_path(home).read_bytes()
    app = make_app(home)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        queue = await open_queue(pilot, app)
        (group,) = queue.found.groups
        assert list(group.note_ids) == MEMBERS
        shown = pane(queue)
        for note in answers_memory()[:4]:  # each note stacked: its text, hits, source, verdict
            assert all(f"   {row}\n" in shown for row in note["content"].splitlines())
        assert shown.count("hits 0") == 4 and shown.count("(strength ") == 4  # verdicts
        assert "4 notes in 3 positions that disagree" in shown
        await pilot.press("space")  # the next note stands
        keep = queue.keep[group.id]
        assert keep == MEMBERS[1] and "▶ stands if you decide 2. " in pane(queue)
        await pilot.press("o")
        await settle(pilot, app)
        assert queue.decision is not None and queue.decision.keep == keep
        shown = pane(queue)
        assert "Applying writes 3 notes" in shown
        assert shown.count("hidden: false → true") == 3
        assert shown.count(f"link + → {keep}  superseded by {keep}") == 3
        assert graph_path(home).read_bytes() == before  # a diff, nothing written yet
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, app)
        on_disk = notes_on_disk(home)
        assert not on_disk[keep]["hidden"]
        for other in set(MEMBERS) - {keep}:
            assert on_disk[other]["hidden"] is True
            assert {"to": keep, "reason": f"superseded by {keep}"}.items() <= on_disk[other][
                "links"
            ][-1].items()
        assert queue.found.groups == []  # decided: the queue is empty
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, app)
    assert {i: n["hidden"] for i, n in notes_on_disk(home).items()} == {
        n["id"]: False for n in answers_memory()
    }
    assert all(n["links"] == [] for n in notes_on_disk(home).values())


async def test_merge_folds_the_others_into_the_picked_note(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        keep = queue.keep[queue.found.groups[0].id]
        await pilot.press("m")
        await settle(pilot, app)
        assert "absorbs the others" in pane(queue)
        await pilot.press("a", "y")
        await settle(pilot, app)
    on_disk = notes_on_disk(home)
    assert not on_disk[keep]["hidden"]
    assert [i for i in MEMBERS if on_disk[i]["hidden"]] == [i for i in MEMBERS if i != keep]
    assert "Short answers" in on_disk[keep]["content"]  # the merge kept the others' lines


async def test_both_stand_hides_the_group_until_a_note_changes(home: Path) -> None:
    before = graph_path(home).read_bytes()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        await pilot.press("b")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot, app)
        assert queue.found.groups == []
        assert settled_path(home).is_file()
        assert graph_path(home).read_bytes() == before  # nothing written to the notes
        await pilot.press("escape")
        await settle(pilot, app)
        queue = await open_queue(pilot, app)
        assert queue.found.groups == []  # not asked again
        await pilot.press("escape")
        doc = json.loads(graph_path(home).read_bytes())
        doc["notes"][3]["content"] = (
            "User prefers short answers with small examples.\nShort answers; at most two sentences"
        )
        graph_path(home).write_text(json.dumps(doc))
        await pilot.pause(1.2)  # the main screen notices the file changed
        queue = await open_queue(pilot, app)
        assert [g.note_ids for g in queue.found.groups] == [tuple(MEMBERS)]


async def test_a_stale_decision_is_refused_and_planned_again(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        keep = queue.keep[queue.found.groups[0].id]
        await pilot.press("o")
        await settle(pilot, app)
        doc = json.loads(graph_path(home).read_bytes())
        doc["notes"][4]["hits"] = 7  # the agent writes meanwhile (not a member)
        graph_path(home).write_text(json.dumps(doc))
        written = graph_path(home).read_bytes()
        await pilot.press("a", "y")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Stale plan" in str(app.screen.title_text)
        assert graph_path(home).read_bytes() == written  # nothing written
        await pilot.press("y")
        await settle(pilot, app)
        assert queue.decision is not None and queue.decision.keep == keep  # planned again
        await pilot.press("a", "y")
        await settle(pilot, app)
    on_disk = notes_on_disk(home)
    assert on_disk["lone"]["hits"] == 7
    assert sum(on_disk[i]["hidden"] for i in MEMBERS) == 3


async def test_escape_forgets_the_decision_then_leaves(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        await pilot.press("o")
        await settle(pilot, app)
        assert queue.decision is not None
        await pilot.press("escape")
        assert queue.decision is None and app.screen is queue
        assert "Decision" not in pane(queue)
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)


def test_a_huge_group_shows_its_first_notes_and_the_picked_one() -> None:
    notes = {f"n{i}": pref(f"n{i}", f"answer style number {i} " + "x" * i) for i in range(70)}
    group = Group("c-1", "topic", "user", "pref: answers", tuple(notes), tuple((i,) for i in notes))
    shown = group_text(group, notes, "n65", None).plain
    assert f"… {70 - NOTES_SHOWN - 1} more not shown" in shown
    assert "▶ stands if you decide 66. " in shown and "n60" not in shown


async def test_a_microclaw_memory_queues_its_topic_conflicts_and_both_stand(tmp_path: Path) -> None:
    """The same screen over the MicroClaw store: the bot's topic key groups its rows, and both
    stand is remembered beside our journal, never inside the bot's data dir."""
    from core.clock import fixed_clock
    from core.stores.microclaw.demo import materialize_microclaw_demo
    from core.stores.registry import open_store
    from nuggets_tui.app import NuggetsApp
    from tests.support.console_support import NOW

    data_dir = materialize_microclaw_demo(tmp_path / "mc", NOW)
    store = open_store(data_dir, "microclaw", fixed_clock(NOW))
    app = NuggetsApp(store)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        assert queue.found.groups and all(g.kind == "topic" for g in queue.found.groups)
        columns = [c.label for c in queue.query_one("#groups", VirtualTable).columns]
        assert columns[-1] == "Scope"  # a MicroClaw scope, not a nugget
        count = len(queue.found.groups)
        await pilot.press("b", "y")
        await settle(pilot, app)
        assert len(queue.found.groups) == count - 1
    assert settled_path(store.journal.home).is_file()
    assert not list(data_dir.glob("conflicts-settled.json"))


async def test_the_demo_queue_shows_its_contradictions_first_and_duplicate_sets_apart(
    tmp_path: Path,
) -> None:
    from tests.support.console_support import demo_home

    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        queue = await open_queue(pilot, app)
        rows = queue.table.rows
        differ = [g.topic for g in rows if not g.duplicate]
        assert sorted(differ) == ["local: ports", "test: command", "user: timezone"]
        assert all(not g.duplicate for g in rows[:3]) and all(g.duplicate for g in rows[3:])
        summary = str(queue.query_one("#conflicts-summary").render())
        assert "3 groups of notes that disagree" in summary
        assert f"{len(rows) - 3} duplicate sets to merge" in summary
        cells = queue.table.renderer.cells(rows[-1])
        assert str(cells[1]) == "same" and str(queue.table.renderer.cells(rows[0])[1]) == "differ"
        queue.table.cursor = len(rows) - 1
        await settle(pilot, app)
        assert "that state the same thing" in pane(queue)


async def test_both_stand_of_two_notes_asks_about_both(tmp_path: Path) -> None:
    home = make_home(
        tmp_path,
        [
            pref("p-bullets", "User prefers bullet-point answers"),
            pref("p-prose", "User prefers prose answers, never bullets"),
        ],
    )
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await open_queue(pilot, app)
        await pilot.press("b")
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.body.plain.startswith("Let both notes of “pref: answers” stand?")


async def test_ctrl_z_on_the_queue_undoes_the_decision_and_looks_again(home: Path) -> None:
    before = graph_path(home).read_bytes()
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        await pilot.press("o")
        await settle(pilot, app)
        await pilot.press("a", "y")
        await settle(pilot, app)
        assert queue.found is not None and queue.found.groups == []
        await pilot.press("ctrl+z")
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and "Undo run" in dialog.title_text.plain
        await pilot.press("y")
        await settle(pilot, app)
        assert app.screen is queue  # back on the queue, the group asked again
        assert [list(g.note_ids) for g in queue.found.groups] == [MEMBERS]
    assert notes_on_disk(home) == {n["id"]: n for n in json.loads(before)["notes"]}


def seen_in_pane(queue: ConflictsScreen) -> str:
    """The lines of the pane a person sees now (scrolled as it is), not its whole text."""
    view = queue.query_one(DiffView)
    body = view.query_one("#diff-body", Static)
    height = view.scrollable_content_region.height
    region = Region(0, round(view.scroll_y), body.size.width, height)
    return "\n".join(strip.text for strip in body.render_lines(region))


@pytest.mark.parametrize("size", [(140, 42), (80, 24)])
async def test_the_one_dissenting_note_is_picked_in_two_seen_presses(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """`local: ports` of the demo: nine notes say one thing and one another. The pane shows
    them as two blocks; `}` puts the cursor on the dissenting note, `space` picks it, and the
    pick is on screen after each press."""
    from tests.support.console_support import demo_home

    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=size) as pilot:
        queue = await open_queue(pilot, app)
        rows = queue.table.rows
        queue.table.cursor = next(n for n, g in enumerate(rows) if g.topic == "local: ports")
        await settle(pilot, app)
        group = queue.group
        assert group is not None and [len(p) for p in group.positions] == [9, 1]
        (dissent,) = group.positions[1]
        shown = pane(queue)
        assert "9 notes: api on 8080, web on 5173" in shown
        assert "1 note: The api moved to port 8081" in shown
        assert shown.index("9 notes: ") < shown.index("1 note: ")
        before = seen_in_pane(queue)
        await pilot.press("right_curly_bracket")
        await settle(pilot, app)
        assert queue.cursor[group.id] == dissent and queue.keep[group.id] != dissent
        moved = seen_in_pane(queue)
        assert moved != before and "› " in moved and "moved to port 8081" in moved
        await pilot.press("space")
        await settle(pilot, app)
        assert queue.keep[group.id] == dissent
        seen = seen_in_pane(queue)
        assert "› ▶ stands if you decide 10. " in seen  # the pick, under the cursor, in sight
        await pilot.press("o")
        await settle(pilot, app)
        assert queue.decision is not None and queue.decision.keep == dissent


async def test_the_cursor_walks_every_note_and_space_picks_the_one_under_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        queue = await open_queue(pilot, app)
        (group,) = queue.found.groups
        keep = queue.keep[group.id]
        order = [i for p in group.positions for i in p]
        seen = []
        for _ in order:
            seen.append(queue.cursor[group.id])
            await pilot.press("right_square_bracket")
            await settle(pilot, app)
            assert "› " in seen_in_pane(queue)  # the cursor stays in sight
        assert sorted(seen) == sorted(order) and queue.keep[group.id] == keep  # moving picks none
        await pilot.press("left_square_bracket", "left_square_bracket", "space")
        await settle(pilot, app)
        assert queue.keep[group.id] == order[(order.index(keep) - 2) % len(order)]
        assert "▶ stands if you decide" in seen_in_pane(queue)


def test_related_notes_of_the_topic_are_shown_apart_and_not_decided() -> None:
    notes = {
        "a": pref("a", "User prefers tabs for Go code."),
        "b": pref("b", "User prefers spaces for Go code."),
        "r": pref("r", "User reviews pull requests in the morning."),
    }
    (group,) = find_contradictions(list(notes.values()))
    assert group.note_ids == ("a", "b") and group.related == ("r",)
    shown = group_text(group, notes, "a", None).plain
    assert "Related, not contradicting (1 note of the same topic" in shown
    assert shown.index("Related") > shown.index("User prefers spaces")


async def test_the_queue_shows_a_groups_related_notes_with_what_they_say(tmp_path: Path) -> None:
    home = make_home(
        tmp_path,
        [
            pref("tabs", "User prefers tabs for Go code."),
            pref("spaces", "User prefers spaces for Go code."),
            pref("reviews", "User reviews pull requests in the morning."),
        ],
    )
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        queue = await open_queue(pilot, app)
        (group,) = queue.found.groups
        assert group.note_ids == ("tabs", "spaces")
        assert "reviews  User reviews pull requests in the morning." in pane(queue)
