"""Living beside the agent: what we write survives the Nuggets agent's own code, and what it
writes does not break us.

The homes under tests/fixtures/agent/ were made by running the agent's own code (the reference
Nuggets implementation's `src/nuggets/`, its `donna` fork, compiled unchanged and run under
Node 20, outside this repository; only the data it wrote is kept here):

- `agent-made/`: a home built through the agent's API (facts of two nuggets with their fact files,
  notes, a near-duplicate pair, a scratch note, repeated lines, same-title notes, 3+-hit notes).
- `engine-applied/`: `agent-made/` after `NUGGETS_NOW=2026-12-20T09:00:00Z nuggets reflect --all
  --apply` (our engine), with its journal.
- `engine-applied-started/`: that home after the agent starts on it (it loads every fact file,
  re-creates each fact's note from its fact, and saves the graph).
- `engine-applied-saved/`: `engine-applied/` after one agent load and save of the graph (its
  normalization of every note, nothing else).
- `legacy-input/` and `legacy-after-start/`: notes with `donnaName` and without metadata, and the
  same home after an agent start.

When the engine's output changes, make them again (the script runs the agent; it is kept with
the agent's build, not here) and check what changed in them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.notes.agent_normalize import unchanged_since
from core.notes.vectors import vector_spec
from core.stores.nuggets.fact_files import read_fact_files
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.screens.confirm import ConfirmScreen
from tests.support.console_support import on_top
from tests.support.moments import at
from tests.support.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "agent"
NOW = at("2026-12-20T09:00:00Z")
AGENT_HOMES = ["agent-made", "engine-applied-started", "engine-applied-saved", "legacy-after-start"]


def copy_of(name: str, tmp_path: Path) -> Path:
    home = tmp_path / name
    shutil.copytree(FIXTURES / name, home)
    return home


def notes_of(home: Path) -> dict[str, dict]:
    doc = json.loads((home / "graph" / "graph.json").read_bytes())
    return {note["id"]: note for note in doc["notes"]}


def facts_of(home: Path) -> dict[str, dict[str, dict]]:
    return {file.name or "": {f["key"]: f for f in file.facts} for file in read_fact_files(home)}


@pytest.mark.parametrize("name", [*AGENT_HOMES, "legacy-input"])
def test_a_home_the_agent_wrote_reads_without_a_warning(name: str, tmp_path: Path) -> None:
    memory = NuggetsStore(copy_of(name, tmp_path), fixed_clock(NOW))
    assert memory.startup_messages() == []
    assert len(memory.shelf().notes) == len(notes_of(memory.home))


@pytest.mark.parametrize("name", AGENT_HOMES)
def test_we_compute_the_vector_the_agent_stored(name: str) -> None:
    computed = [n for n in notes_of(FIXTURES / name).values() if n["vector"]["basis"]]
    assert computed  # (a note the agent never edited keeps the empty vector it was read with)
    for note in computed:
        assert vector_spec(note) == note["vector"], note["id"]


def test_the_fixture_is_what_the_engine_writes_today(tmp_path: Path) -> None:
    home = copy_of("agent-made", tmp_path)
    NuggetsStore(home, fixed_clock(NOW)).reflect(uncapped=True)
    assert notes_of(home) == notes_of(FIXTURES / "engine-applied"), (
        "the engine's output changed: make tests/fixtures/agent again with the agent"
    )
    assert facts_of(home) == facts_of(FIXTURES / "engine-applied")


def test_every_engine_change_survives_the_agent_start() -> None:
    made, ours = notes_of(FIXTURES / "agent-made"), notes_of(FIXTURES / "engine-applied")
    started = notes_of(FIXTURES / "engine-applied-started")
    assert set(started) == set(ours)  # no note lost, none re-created as a twin
    changed = [i for i in ours if ours[i] != made[i]]
    kinds = {ours[i]["kind"] for i in changed if ours[i]["hidden"] and not made[i]["hidden"]}
    assert kinds == {"fact", "note"}  # archived and merged-away fact notes among them
    assert all(unchanged_since(ours[i], started[i]) for i in changed)
    for note_id in changed:
        assert started[note_id]["hidden"] == ours[note_id]["hidden"]
        assert started[note_id]["hits"] == ours[note_id]["hits"]


def test_a_fact_note_we_archive_loses_its_fact_and_a_merge_winner_gets_the_hits() -> None:
    made, ours = notes_of(FIXTURES / "agent-made"), notes_of(FIXTURES / "engine-applied")
    facts = facts_of(FIXTURES / "engine-applied")["memory"]
    for note in ours.values():
        if note["kind"] != "fact" or note["nuggetName"] != "memory":
            continue
        if note["hidden"]:
            assert note["sourceKey"] not in facts
        else:
            fact = facts[note["sourceKey"]]
            assert (fact["value"], fact["hits"]) == (note["content"], note["hits"])
    archived = [n for n in ours.values() if n["hidden"] and not made[n["id"]]["hidden"]]
    assert any(n["kind"] == "fact" for n in archived)


def test_the_next_dry_run_does_not_propose_the_applied_changes_again(tmp_path: Path) -> None:
    memory = NuggetsStore(copy_of("engine-applied-started", tmp_path), fixed_clock(NOW))
    plan = memory.plan(uncapped=True)
    applied = json.loads(
        next((FIXTURES / "engine-applied" / "reflections").glob("*.json")).read_bytes()
    )
    again = {(c["type"], c["noteId"]) for c in plan.result.to_json_dict()["changes"]}
    before = {(c["type"], c["noteId"]) for c in applied["result"]["changes"]}
    assert not again & {(t, i) for t, i in before if t in ("hide", "merge", "rewrite")}


@pytest.mark.parametrize("name", ["engine-applied-saved", "engine-applied-started"])
def test_undo_works_after_the_agent_saved(name: str, tmp_path: Path) -> None:
    home = copy_of(name, tmp_path)
    memory = NuggetsStore(home, fixed_clock(NOW))
    run_id = memory.log()[0].run_id
    memory.undo(run_id)
    made, now = notes_of(FIXTURES / "agent-made"), notes_of(home)
    assert all(unchanged_since(made[i], now[i]) for i in made)
    assert facts_of(home) == facts_of(FIXTURES / "agent-made")


async def test_the_review_shows_what_a_change_does_to_the_fact_file(tmp_path: Path) -> None:
    from nuggets_tui.screens.review import ChangeRow, ReviewScreen
    from nuggets_tui.widgets.diff_view import DiffView
    from nuggets_tui.widgets.virtual_table import VirtualTable
    from tests.support.console_support import make_app, settle

    home = copy_of("agent-made", tmp_path)
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("c")  # the whole graph: the fact notes' archive, rewrite and merge
        await settle(pilot, app)
        edits = {e.note_id: e for e in review.plan.side_file_edits}
        table = review.query_one("#changes", VirtualTable)
        shown = []
        for index, row in enumerate(table.rows):
            if (
                isinstance(row, ChangeRow)
                and row.change.type in ("hide", "merge", "rewrite")
                and row.change.note_id in edits
            ):
                table.cursor = index
                await settle(pilot, app)
                shown.append(review.query_one(DiffView)._text.plain)
        assert shown and all("Fact file" in text for text in shown)
        assert any("removed from memory.donna.json" in text for text in shown)
        await pilot.press("a")  # the confirmation names the fact file it edits too
        await settle(pilot, app)
        assert "memory.donna.json" in on_top(review.app, ConfirmScreen).body.plain
