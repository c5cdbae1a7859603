"""Our promotion and the agent's alternating on one MEMORY.md (docs/PROMOTION.md, "Entries"):
after the first round neither changes a byte.

tests/fixtures/agent_rounds/ was made by running the agent's own code (its `donna` fork, commit
e56bfd4, src/nuggets/ compiled unchanged with tsc and run under Node 20, outside this
repository; only the data it wrote is kept here):

- `home/`: a memory built through the agent's API (`remember` and `recall` in three sessions for
  facts, one of them two paragraphs; `createNote` and `graph.recordHit` for notes of several
  lines, two of one title, and a note written with runs of spaces and blank lines), then
  `start.md`: what our version before flush-left lines promoted from it (continuation lines
  indented by two spaces), with a line written by hand under the header.
- Then five rounds, each `nuggets promote --apply` (ours, with `$NUGGETS_MEMORY_MD` naming that
  file) and the agent's `shelf.loadAll(); promoteFacts(shelf)` (HOME and the working directory
  set so that its MEMORY.md is that file). `ours-1.md` is our first round's file; `agent-K.md`
  the file the agent's round K left; `graph-after-agent-K.json` the graph after it (each agent
  start stamps its fact notes' `updatedAt`).

The test runs our side for real and replays the agent's side from the files it wrote: before
each replayed agent round it checks that our run left exactly the file the agent was given when
the fixture was made (round 1: `ours-1.md`; later rounds: the agent's previous file), so the
replay is what the agent did to that very file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from nuggets_tui.cli import main
from tests.support.paths import FIXTURES_DIR

ROUNDS = FIXTURES_DIR / "agent_rounds"


def _env(memory_md: Path, day: int) -> dict[str, str]:
    return {
        "NUGGETS_MEMORY_MD": str(memory_md),
        "NUGGETS_HOME": "",
        "TZ": "UTC",
        "NUGGETS_NOW": f"2026-12-2{day}T09:00:00Z",
    }


def _promote(home: Path, memory_md: Path, day: int) -> None:
    result = CliRunner().invoke(
        main, ["--home", str(home), "promote", "--apply"], env=_env(memory_md, day)
    )
    assert result.exit_code == 0, result.output


def _nothing_queued(home: Path, memory_md: Path) -> None:
    """The two notes titled "Release steps" list the steps in other words, with no one step
    said otherwise (no minimal pair): related, not a contradiction, so the queue holds nothing
    back from promotion."""
    listed = CliRunner().invoke(
        main, ["--home", str(home), "conflicts", "--json"], env=_env(memory_md, 0)
    )
    assert json.loads(listed.stdout) == []


def _fixture(name: str) -> bytes:
    return (ROUNDS / name).read_bytes()


def test_five_alternating_rounds_leave_the_file_byte_identical_after_the_first(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    shutil.copytree(ROUNDS / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    memory_md.write_bytes(_fixture("start.md"))
    _nothing_queued(home, memory_md)
    seen = []
    for day in range(1, 6):
        if day > 1:
            shutil.copyfile(
                ROUNDS / f"graph-after-agent-{day - 1}.json", home / "graph" / "graph.json"
            )
        _promote(home, memory_md, day)
        ours = memory_md.read_bytes()
        given = _fixture("ours-1.md") if day == 1 else _fixture(f"agent-{day - 1}.md")
        assert ours == given, f"round {day}: remake tests/fixtures/agent_rounds with the agent"
        memory_md.write_bytes(_fixture(f"agent-{day}.md"))  # the agent's promoteFacts, replayed
        seen += [ours, memory_md.read_bytes()]
    assert len(set(seen[1:])) == 1  # from the agent's first run on, not a byte changed


def test_the_first_round_makes_our_indented_lines_flush_left_and_keeps_the_hand_written_line() -> (
    None
):
    start, ours = _fixture("start.md").decode(), _fixture("ours-1.md").decode()
    assert "\n  after the outage of March\n" in start
    assert not any(line.startswith("  ") for line in ours.split("\n"))
    assert "My own line: ask before deploying on a Friday." in ours
    agent = _fixture("agent-1.md").decode()
    # the agent wrote every entry as we did, and dropped what it does not know
    assert [line for line in ours.split("\n") if line not in agent.split("\n")] == [
        "Auto-promoted from nuggets graph notes (3+ recalls across sessions).",
        "My own line: ask before deploying on a Friday.",
    ]


CUT = FIXTURES_DIR / "agent_rounds_cut"


def test_an_entry_the_agent_cut_to_its_first_line_is_left_cut_in_five_alternating_rounds(
    tmp_path: Path,
) -> None:
    """docs/PROMOTION.md, "Entries the agent cut". tests/fixtures/agent_rounds_cut/ was made by
    the agent's own code, as above: `home/` built through its API (`remember` and `recall` for
    two facts of nugget "memory", `createNote` and `graph.recordHit` for a note of that nugget
    and one of nugget "scratch", which has no fact file, so the agent does not load it); then,
    from no MEMORY.md, five rounds of our `promote --apply` and the agent's
    `promoteFacts(shelf)`. The agent cut the scratch note's entry to its first line
    (`agent-1.md`), and every later round of either side left the file as it was. (The line
    under the title of `ours-1.md` was since changed from "nuggets graph notes" to the agent's
    "nugget graph notes", as our promotion now writes it; the agent writes its own header
    whatever the file held, so its files are as it wrote them.)"""
    home = tmp_path / "home"
    shutil.copytree(CUT / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    seen = []
    for day in range(1, 6):
        if day > 1:
            shutil.copyfile(
                CUT / f"graph-after-agent-{day - 1}.json", home / "graph" / "graph.json"
            )
        _promote(home, memory_md, day)
        ours = memory_md.read_bytes()
        given = CUT / ("ours-1.md" if day == 1 else f"agent-{day - 1}.md")
        assert ours == given.read_bytes(), f"round {day}: our run re-added what the agent cut"
        memory_md.write_bytes((CUT / f"agent-{day}.md").read_bytes())  # the agent's, replayed
        seen += [ours, memory_md.read_bytes()]
    assert len(set(seen[1:])) == 1
    cut = b"- **Meeting notes**: sync on Mondays\n\n"
    assert cut not in seen[0] and cut in seen[1]  # the agent did cut the entry we wrote whole


def _cli(home: Path, memory_md: Path, *args: str) -> tuple[str, str]:
    env = {
        "NUGGETS_MEMORY_MD": str(memory_md),
        "NUGGETS_HOME": "",
        "TZ": "UTC",
        "NUGGETS_NOW": "2026-12-29T09:00:00Z",
    }
    result = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_log_and_the_dry_run_say_which_entries_the_agent_cut_since_our_run(tmp_path: Path) -> None:
    """The rounds of agent_rounds_cut above: after our run wrote the scratch note's entry whole
    and the agent's cut it, `log` names it (from our run's text in the journal)."""
    home = tmp_path / "home"
    shutil.copytree(CUT / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    _promote(home, memory_md, 1)
    assert "lost lines" not in _cli(home, memory_md, "log")[1]
    memory_md.write_bytes((CUT / "agent-1.md").read_bytes())  # the agent's promoteFacts
    _, told = _cli(home, memory_md, "log")
    [run] = [line for line in _cli(home, memory_md, "log")[0].splitlines() if "promote" in line]
    assert (
        f"lost lines since our run {run.split()[0]}: “Meeting notes” (scratch) lost 2 of "
        "its 3 lines\n" in told
    )  # our header line is the agent's: not lost
    out, _ = _cli(home, memory_md, "promote")
    assert "Lost since our last write (left as they are): “Meeting notes” (scratch) lost 2" in out
    assert memory_md.read_bytes() == (CUT / "agent-1.md").read_bytes()


def test_log_says_the_agent_dropped_a_hand_written_line_our_run_kept(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(ROUNDS / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    memory_md.write_bytes(_fixture("start.md"))
    _promote(home, memory_md, 1)
    memory_md.write_bytes(_fixture("agent-1.md"))
    _, told = _cli(home, memory_md, "log")
    # the line written by hand, which the agent does not keep; our header line, in the words
    # of earlier versions of ours ("nuggets graph notes"), reads as the agent's
    assert "lost lines since our run" in told and "1 other line (not an entry) is gone" in told
    assert "“" not in told  # every entry kept all its lines


MARKS = FIXTURES_DIR / "agent_rounds_marks"


def test_lines_that_read_as_entries_or_headings_alternate_without_a_changed_byte(
    tmp_path: Path,
) -> None:
    """docs/PROMOTION.md, "Entries". tests/fixtures/agent_rounds_marks/ was made by the agent's
    own code, as above: `home/` built through its API (`remember`/`recall` for one fact,
    `createNote` and `graph.recordHit` for notes whose content has lines that read as an entry
    (`- **Then**: push the tag`), a section (`## Rollback`), other headings (`# Owner`,
    `### Notes`) and a bold line (`- **bold** is fine`)); `start.md`: what our version before
    this one promoted from it (such lines indented by two spaces); then five rounds of our
    `promote --apply` and the agent's `promoteFacts(shelf)`. The agent writes those lines flush
    left, reads each entry-like line back as an entry of its own and writes it again after the
    note's entry; from its first run on, neither side changed a byte."""
    home = tmp_path / "home"
    shutil.copytree(MARKS / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    memory_md.write_bytes((MARKS / "start.md").read_bytes())
    seen = []
    for day in range(1, 6):
        if day > 1:
            shutil.copyfile(
                MARKS / f"graph-after-agent-{day - 1}.json", home / "graph" / "graph.json"
            )
        _promote(home, memory_md, day)
        ours = memory_md.read_bytes()
        given = MARKS / ("ours-1.md" if day == 1 else f"agent-{day - 1}.md")
        assert ours == given.read_bytes(), f"round {day}: our run rewrote the agent's entries"
        memory_md.write_bytes((MARKS / f"agent-{day}.md").read_bytes())  # the agent's, replayed
        seen += [ours, memory_md.read_bytes()]
    assert len(set(seen[1:])) == 1
    ours_lines = seen[0].decode().split("\n")
    assert "## Rollback" in ours_lines and "- **Then**: push the tag" in ours_lines
    assert not any(line.startswith("  ") for line in ours_lines)  # flush left, as the agent


def test_no_entry_is_said_lost_when_the_agent_wrote_its_entry_like_lines_flush_left(
    tmp_path: Path,
) -> None:
    """The rounds above: the file the agent wrote holds every line of every entry we wrote, so
    `promote --json` and `log` name nothing (our header line is the agent's words)."""
    home = tmp_path / "home"
    shutil.copytree(MARKS / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    _promote(home, memory_md, 1)
    memory_md.write_bytes((MARKS / "agent-1.md").read_bytes())
    out, _ = _cli(home, memory_md, "promote", "--json")
    assert json.loads(out)["lost"] == []
    assert "“" not in _cli(home, memory_md, "log")[1]
    assert memory_md.read_bytes() == (MARKS / "agent-1.md").read_bytes()
