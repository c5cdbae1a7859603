"""What the agent did since to the notes and facts of our runs (`NuggetsStore.aftermath`), told
by `log`, `log --json` and a refused `undo`, on homes the real agent wrote.

How the data was made: the fixtures in `tests/fixtures/agent_live/` were written by running the
Nuggets agent's own library (moonmidas/donna e56bfd4, `src/nuggets/*.ts` compiled with tsc 5
under Node 20) the way its pi extensions run it: one shelf loaded once per process, every file
the agent reads or edits auto-captured as a `remember` (which rewrites the fact file from the
process's memory and the graph from disk), and its daily pass as the pass tool runs it (a fresh
shelf, `reflectAndCleanMemory("memory", 10)`, save, promotion). Its clock was virtual (1 ms per
reading) and its ids a counter, so two runs gave the same bytes. Between agent steps this
project's `nuggets` command ran on the same home. Each scenario keeps `before/` and, per step,
the files that step changed:

- `long-lived`: an agent process starts (02); the operator archives a fact note (03), merges
  into a fact (04), keeps a note against a fact (05), unhides a fact note (06) and undoes a
  fact merge (07); the agent reads one file (10) and restarts (12).
- `busy`: a review applies (07); an archive lands inside the agent's graph write, which puts
  the note back (08); a fact note's archive lands (11) and the agent's next edit capture writes
  the fact back (12); the agent restarts (15).
- `morning`: the operator merges a pair then unhides the loser (07, 08), merges another pair
  and undoes it (09, 10), lets a contradiction stand (11); the agent's own pass runs the next
  morning (14).
"""

from __future__ import annotations

import json
from pathlib import Path

from core.models import FactEdit
from core.stores.nuggets.since import fact_became, note_became
from core.stores.nuggets.store import NuggetsStore
from tests.support.agent_live import home_at
from tests.support.cli_support import run

ARCHIVE_FACT = "20261221T090000Z-0003"  # long-lived: archives fact-memory-00000001
UNHIDE_FACT = "20261221T090003Z-0006"  # long-lived: unhides fact-memory-00000004
OVERWRITTEN = "20261221T090004Z-0002"  # busy: the archive the agent's graph write put back
UNHID_LOSER = "20261220T180006Z-0006"  # morning: unhides note-memory-00000004
UNDID_MERGE = "20261220T180008Z-0008"  # morning: undoes the merge of notes 5 and 6


def test_a_running_agents_next_read_writes_the_archived_fact_back_and_its_start_unarchives(
    tmp_path: Path,
) -> None:
    read = NuggetsStore(home_at("long-lived", 10, tmp_path / "read")).aftermath()
    assert "wrote back the facts of fact-memory-00000001" in read[ARCHIVE_FACT].line
    assert read[ARCHIVE_FACT].restored == ()  # the note stays archived until a start
    assert "dropped the facts of fact-memory-00000004" in read[UNHIDE_FACT].line
    started = NuggetsStore(home_at("long-lived", 12, tmp_path / "start")).aftermath()
    assert started[ARCHIVE_FACT].restored == ("fact-memory-00000001",)
    assert (
        "each start of the agent re-creates a fact note"
        in started[ARCHIVE_FACT].notes["fact-memory-00000001"]
    )


def test_nothing_the_agent_did_yet_tells_nothing(tmp_path: Path) -> None:
    assert NuggetsStore(home_at("long-lived", 7, tmp_path)).aftermath() == {}


def test_an_archive_the_agents_write_put_back_is_told_as_undone_not_applied(
    tmp_path: Path,
) -> None:
    home = home_at("busy", 8, tmp_path)
    listed = run(home, "log", "--json")
    assert listed.exit_code == 0, listed.output
    runs = {r["runId"]: r for r in json.loads(listed.stdout)}
    since = runs[OVERWRITTEN]["since"]
    assert since["restored"] == ["note-user-764990e2"]
    assert since["said"].startswith("since this run the agent undid this run")
    shown = run(home, "log").stdout
    assert "since this run the agent undid this run" in shown


def test_undo_of_a_run_the_agent_overwrote_says_so(tmp_path: Path) -> None:
    home = home_at("busy", 8, tmp_path)
    refused = run(home, "undo", OVERWRITTEN)
    assert refused.exit_code != 0
    assert "since this run the agent undid this run" in refused.output
    assert "notes changed since" not in refused.output


def test_undo_of_a_fact_archive_the_agent_wrote_back_says_so(tmp_path: Path) -> None:
    home = home_at("long-lived", 12, tmp_path)
    refused = run(home, "undo", ARCHIVE_FACT)
    assert refused.exit_code != 0
    assert "the agent brought back fact-memory-00000001" in refused.output
    assert "wrote back the facts of fact-memory-00000001" in refused.output


def test_the_agents_morning_pass_merging_again_is_told_for_the_unhide_and_the_undo(
    tmp_path: Path,
) -> None:
    since = NuggetsStore(home_at("morning", 14, tmp_path)).aftermath()
    assert since[UNHID_LOSER].archived == ("note-memory-00000004",)
    assert "merged again note-memory-00000004 (its morning pass)" in since[UNHID_LOSER].line
    assert since[UNDID_MERGE].archived == ("note-memory-00000005",)


def test_a_whitespace_resave_by_the_agent_is_no_change() -> None:
    left = {"id": "n1", "title": "t", "content": "one  line\n\n\n\nnext", "hidden": False}
    assert note_became(left, {**left, "content": "one line\n\nnext"}) is None
    assert note_became(left, {**left, "content": "other"}) == "changed"
    assert note_became(left, None) == "deleted"


def test_a_fact_the_run_removed_and_found_again_was_written_back() -> None:
    removed = FactEdit(path="memory.donna.json", note_id="f", key="k", before={"value": "v"})
    assert fact_became(removed, {"key": "k", "value": "v"}) == "written_back"
    assert fact_became(removed, None) is None
    put = removed.model_copy(update={"before": None, "after": {"key": "k", "value": "v"}})
    assert fact_became(put, None) == "dropped"
    assert fact_became(put, {"key": "k", "value": "v", "hits": 4}) is None


def test_one_store_asked_again_after_the_agent_wrote_tells_it(tmp_path: Path) -> None:
    home = home_at("long-lived", 7, tmp_path)
    store = NuggetsStore(home)
    assert store.aftermath() == {}
    home_at("long-lived", 10, tmp_path)  # the agent reads a file, in the same home
    assert "wrote back the facts of" in store.aftermath()[ARCHIVE_FACT].line
