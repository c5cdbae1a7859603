"""The command line tells, with a write, what the agent will do after it: `undo`, `resolve`
(both stand, or one kept), `reflect` (the changes rules rejected) and `archive` of a fact note
while an agent runs. Homes from `tests/fixtures/agent_live/` (how they were made: the module
docstring of tests/stores/test_agent_aftermath.py)."""

from __future__ import annotations

import os
from pathlib import Path

from core.clock import parse_iso
from tests.support.agent_live import home_at
from tests.support.cli_support import run

NOW = "2026-12-21T08:00:00Z"
ENV = {"NUGGETS_NOW": NOW}
PASS = "the agent's next morning pass"


def test_undo_of_a_merge_says_the_agents_pass_merges_the_pair_again(tmp_path: Path) -> None:
    done = run(home_at("morning", 9, tmp_path), "undo", "20261220T180007Z-0007", env=ENV)
    assert done.exit_code == 0, done.output
    told = [line for line in done.stderr.splitlines() if PASS in line]
    assert told == [
        "nuggets: “shared:deploy checklist” (note-memory-00000005): the agent's next morning "
        "pass merges it into “shared:deploy checklist” (note-memory-00000006) (it keeps no "
        "decision of yours)"
    ]


def test_both_stand_says_the_agents_pass_merges_them_even_in_a_dry_run(tmp_path: Path) -> None:
    done = run(home_at("morning", 10, tmp_path), "resolve", "c-69660093", "--both", env=ENV)
    assert done.exit_code == 0, done.output
    assert f"(note-memory-00000008): {PASS} merges it into" in done.stderr
    assert "(dry run)" in done.stdout


def test_a_rejected_archive_says_the_agents_pass_archives_it_anyway(tmp_path: Path) -> None:
    done = run(home_at("morning", 5, tmp_path), "reflect", env=ENV)  # four reject rules
    assert done.exit_code == 0, done.output
    assert f"“tmp: debug output” (note-user-fa3feeab): {PASS} archives it again" in done.stderr


def test_archiving_a_fact_note_while_an_agent_runs_says_its_fact_comes_back(
    tmp_path: Path,
) -> None:
    home = home_at("long-lived", 10, tmp_path)  # the agent's file read rewrote the fact file
    moment = parse_iso(NOW)
    assert moment is not None
    os.utime(home / "memory.donna.json", (moment.timestamp() - 60, moment.timestamp() - 60))
    done = run(home, "archive", "fact-memory-00000006", env=ENV)
    assert done.exit_code == 0, done.output
    assert "nuggets: a running agent (memory.donna.json was rewritten 60 s ago" in done.stderr
    assert "writes their facts back" in done.stderr
