"""The journal stays small to read and bounded on disk: `log` and `daily` read entry headers
only, entries written before headers existed still read, the newest $NUGGETS_JOURNAL_KEEP runs
are kept, and the journal is as private as the graph file and owned by its owner."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.stores.nuggets.graph_file import read_graph
from nuggets_tui.cli import main
from tests.support.reliability_support import make_home, memory_of, messy_notes

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "TZ": "UTC",
    "NUGGETS_HOME": "",
    "MEMORY_REFLECTION_HOUR": "0",
    "NUGGETS_JOURNAL_KEEP": "",
}


def run(home: Path, *args: str, **extra: str) -> Result:
    env = {**ENV, "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md"), **extra}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def _entries(home: Path) -> list[Path]:
    return sorted((home / "reflections").glob("*.json"))


@pytest.fixture
def home(reflected_home: Path) -> Path:
    return reflected_home


def test_log_and_daily_read_headers_only(home: Path) -> None:
    entry = _entries(home)[0]
    header = entry.read_bytes().splitlines()[0]
    entry.write_bytes(header + b"\n" + b"x" * 5_000_000)  # images no one may read
    logged = run(home, "log")
    assert logged.exit_code == 0 and "reflect" in logged.stdout, logged.output
    assert logged.stderr == ""
    daily = run(home, "-v", "daily")
    assert daily.exit_code == 0 and "the pass was applied today already" in daily.stdout, (
        daily.output
    )


def test_an_entry_written_before_headers_is_still_read_and_undone(home: Path) -> None:
    entry = _entries(home)[0]
    entry.write_bytes(entry.read_bytes().splitlines()[-1] + b"\n")  # the one-line format
    graph = home / "graph" / "graph.json"
    logged = run(home, "log")
    assert logged.exit_code == 0 and "reflect" in logged.stdout and logged.stderr == ""
    assert run(home, "undo", entry.name[: -len(".json")]).exit_code == 0
    assert read_graph(graph).get("n2")["hidden"] is False  # archived by the run, back again


def test_the_journal_keeps_the_newest_runs(home: Path) -> None:
    for note_id in ("n2", "n6"):
        assert run(home, "unhide", note_id, NUGGETS_JOURNAL_KEEP="2").exit_code == 0
    kept = _entries(home)
    assert [p.name[-9:-5] for p in kept] == ["0002", "0003"]
    newest = kept[-1].name[: -len(".json")]
    assert run(home, "undo", newest, NUGGETS_JOURNAL_KEEP="2").exit_code == 0
    assert [p.name[-9:-5] for p in _entries(home)] == ["0003", "0004"]


@pytest.mark.parametrize("value", ["0", "x", "²", "-3"])
def test_a_bad_keep_setting_refuses_before_writing(home: Path, value: str) -> None:
    graph = home / "graph" / "graph.json"
    before, journal = graph.read_bytes(), _entries(home)
    done = run(home, "unhide", "n2", NUGGETS_JOURNAL_KEEP=value)
    assert done.exit_code == 1 and "NUGGETS_JOURNAL_KEEP" in done.stderr, done.output
    assert len(done.stderr.splitlines()) == 1
    assert graph.read_bytes() == before and _entries(home) == journal
    assert not [p for p in (home / "reflections").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("graph_mode", [0o600, 0o640, 0o644, 0o755])
def test_the_journal_is_private_whatever_the_graph_files_mode(
    tmp_path: Path, graph_mode: int
) -> None:
    home = make_home(tmp_path, messy_notes())
    (home / "graph" / "graph.json").chmod(graph_mode)
    (home / "reflections").mkdir(mode=0o755)  # made open by an earlier version
    memory = memory_of(home)
    memory.apply(memory.plan(uncapped=True))
    assert stat.S_IMODE((home / "reflections").stat().st_mode) == 0o700
    assert [stat.S_IMODE(p.stat().st_mode) for p in _entries(home)] == [0o600]
    assert stat.S_IMODE((home / "graph" / "graph.json").stat().st_mode) == graph_mode


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_run_as_root_the_journal_belongs_to_the_graphs_owner(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    os.chown(home / "graph" / "graph.json", 4321, 4321)
    memory = memory_of(home)
    memory.apply(memory.plan(uncapped=True))
    memory.unhide(["n2"])
    owners = {(p.stat().st_uid, p.stat().st_gid) for p in [home / "reflections", *_entries(home)]}
    assert owners == {(4321, 4321)}
