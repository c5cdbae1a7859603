"""What the agent will do after a write of ours, told before it: its own morning pass, run on the
memory as the write would leave it (`core/stores/nuggets/agent_pass.py`), and a running agent
that writes its fact file back (`core/stores/nuggets/outlook.py`).

The homes are those of `tests/fixtures/agent_live/` (how they were made: the module docstring of
tests/stores/test_agent_aftermath.py). In `morning` the real agent's pass ran at step 14 on the
home of step 11: the model is checked against what it wrote. In `morning-self-revert` (three
notes and a captured file's fact note) the agent's pass merged two fact notes at step 3, the same
process's next file read (step 4) wrote the loser's fact back, the process restarted the next
morning (step 7) and its pass merged them again (step 8).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.notes import fields
from core.stores.nuggets.agent_pass import (
    ABSORBS,
    ARCHIVED,
    BROUGHT_BACK,
    MERGED_INTO,
    agent_pass,
)
from core.stores.nuggets.fact_files import read_fact_files
from core.stores.nuggets.graph_file import graph_path, read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.agent_live import home_at
from tests.support.moments import at

PASS_AT = at("2026-12-21T09:00:00Z")  # the agent's pass in `morning`
MERGED_DEPLOY = "20261220T180007Z-0007"  # morning: merges note 6 into note 5
ARCHIVE_FACT = "20261221T090000Z-0003"  # long-lived: archives fact-memory-00000001


def store_at(scenario: str, step: int, tmp_path: Path) -> NuggetsStore:
    return NuggetsStore(home_at(scenario, step, tmp_path), fixed_clock(PASS_AT))


def test_the_model_of_the_agents_pass_does_what_the_agent_did(tmp_path: Path) -> None:
    home = home_at("morning", 11, tmp_path / "before")
    notes = read_graph(graph_path(home)).notes
    facts = {
        str(f["key"]).lower(): f for file in read_fact_files(home, ["memory"]) for f in file.facts
    }
    told = agent_pass(notes, PASS_AT, facts)
    was = {n["id"]: n for n in notes}
    after = read_graph(graph_path(home_at("morning", 14, tmp_path / "after"))).notes
    merged = {
        n["id"]: fields.merged_into(n)
        for n in after
        if fields.hidden(n) and not fields.hidden(was[n["id"]]) and fields.merged_into(n)
    }
    archived = {
        n["id"]
        for n in after
        if fields.hidden(n) and not fields.hidden(was[n["id"]]) and n["id"] not in merged
    }
    assert len(merged) == 4 and len(archived) == 2
    assert {i: d for i, done in told.done.items() for w, d in done if w == MERGED_INTO} == merged
    assert {winner: loser for loser, winner in merged.items()} == {
        i: d for i, done in told.done.items() for w, d in done if w == ABSORBS
    }
    assert {i for i, done in told.done.items() if (ARCHIVED, "") in done} == archived


def test_the_model_brings_back_a_fact_note_whose_fact_a_live_shelf_wrote_back(
    tmp_path: Path,
) -> None:
    morning = at("2026-12-22T09:00:00Z")
    after = read_graph(graph_path(home_at("morning-self-revert", 8, tmp_path / "after"))).notes
    merged = {n["id"]: fields.merged_into(n) for n in after if fields.hidden(n)}
    assert merged == {"fact-memory-00000003": "fact-memory-00000002"}
    for step in (4, 7):  # before the restart (the note archived, its fact back) and after
        home = home_at("morning-self-revert", step, tmp_path / str(step))
        facts = {
            str(f["key"]).lower(): f
            for file in read_fact_files(home, ["memory"])
            for f in file.facts
        }
        told = agent_pass(read_graph(graph_path(home)).notes, morning, facts)
        assert {
            i: d for i, done in told.done.items() for w, d in done if w == MERGED_INTO
        } == merged
        assert (BROUGHT_BACK, "") in told.of("fact-memory-00000003") or step == 7


def test_unhiding_a_merged_away_note_says_the_agent_merges_it_again(tmp_path: Path) -> None:
    store = store_at("morning", 7, tmp_path)
    warnings = store.unhide_outlook(["note-memory-00000004"]).warnings
    assert len(warnings) == 1
    assert "(note-memory-00000004): the agent's next morning pass merges it into" in warnings[0]
    assert "(note-memory-00000003)" in warnings[0]


def test_undoing_a_merge_says_the_agent_merges_the_pair_again(tmp_path: Path) -> None:
    said = store_at("morning", 9, tmp_path).undo_outlook(MERGED_DEPLOY)
    assert any(
        "(note-memory-00000005): the agent's next morning pass merges it into" in line
        and "(note-memory-00000006)" in line
        for line in said
    )


def test_a_pair_let_stand_and_a_rejected_archive_say_what_the_pass_will_do(
    tmp_path: Path,
) -> None:
    store = store_at("morning", 11, tmp_path)
    both = store.standing_outlook(["note-memory-00000007", "note-memory-00000008"])
    assert both == (
        "“user:pref:answers” (note-memory-00000008): the agent's next morning pass merges it "
        "into “user:pref:answers” (note-memory-00000007) (it keeps no decision of yours)",
    )
    rejected = store.standing_outlook(["note-user-fa3feeab"])
    assert rejected == (
        "“tmp: debug output” (note-user-fa3feeab): the agent's next morning pass archives it "
        "again (a low-value note by its rules)",
    )


def test_a_note_the_pass_leaves_alone_is_told_nothing(tmp_path: Path) -> None:
    store = store_at("morning", 11, tmp_path)
    assert store.standing_outlook(["fact-memory-00000009"]) == ()


def touched(path: Path, seconds_before: float) -> None:
    moment = PASS_AT - timedelta(seconds=seconds_before)
    os.utime(path, (moment.timestamp(), moment.timestamp()))


def test_archiving_a_fact_note_while_an_agent_runs_says_it_comes_back(tmp_path: Path) -> None:
    store = store_at("long-lived", 10, tmp_path)  # the agent's file read rewrote the fact file
    facts = store.home / "memory.donna.json"
    touched(facts, 90)  # a minute and a half ago
    [said] = store.archive_outlook(["fact-memory-00000006"])
    assert said.startswith("a running agent (memory.donna.json was rewritten 90 s ago, not by us)")
    assert "writes their facts back" in said and "(fact-memory-00000006)" in said
    assert store.archive_outlook(["note-memory-00000008"]) == ()  # not a fact note
    touched(facts, 3600)  # an hour ago: no agent seen
    assert store.archive_outlook(["fact-memory-00000006"]) == ()


def test_a_fact_file_as_our_own_run_left_it_shows_no_agent(tmp_path: Path) -> None:
    store = store_at("long-lived", 3, tmp_path)  # our archive wrote the fact file
    touched(store.home / "memory.donna.json", 30)
    undone = store.undo_outlook(ARCHIVE_FACT)
    assert not any(line.startswith("a running agent") for line in undone)
    touched(store.home / "graph" / "graph.json", 30)
    (store.home / "memory.donna.json").write_bytes(
        (store.home / "memory.donna.json").read_bytes() + b" "
    )  # now another program rewrote it
    touched(store.home / "memory.donna.json", 30)
    undone = store.undo_outlook(ARCHIVE_FACT)
    assert any("the facts this puts there are dropped" in line for line in undone)


def test_a_nugget_too_big_to_walk_in_a_confirmation_is_said_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_at("morning", 11, tmp_path)
    monkeypatch.setattr("core.stores.nuggets.store.AGENT_PASS_MOST", 5)
    [said] = store.standing_outlook(["note-memory-00000008"])
    assert said.startswith("the agent's next morning pass is not foretold here")
    assert "holds 11 notes (more than 5)" in said
