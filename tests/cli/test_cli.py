"""The `nuggets` command line: exit codes, dry runs that write nothing, JSON shapes, daily."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli_support import NOW, run
from tests.support.note_builders import make_home, sample_notes
from tests.support.reliability_support import note


@pytest.fixture
def home(tmp_path: Path) -> Path:
    graph = tmp_path / "home" / "graph"
    graph.mkdir(parents=True)
    notes = [
        note("n1", "deploy steps", "run make deploy\nrun make deploy  ", hits=4),
        note("n2", "tmp", "scratch text"),
        note("n3", "deploy steps again", "run make deploy now", hits=1),
    ]
    (graph / "graph.json").write_text(json.dumps({"version": 3, "notes": notes}, indent=2))
    return tmp_path / "home"


def graph_bytes(home: Path) -> bytes:
    return (home / "graph" / "graph.json").read_bytes()


def test_reflect_dry_run_prints_a_plan_and_writes_nothing(home: Path) -> None:
    before = graph_bytes(home)
    result = run(home, "reflect")
    assert result.exit_code == 0, result.output
    assert "1 archived" in result.output
    assert "[archive] Archived low-value note" in result.output
    assert graph_bytes(home) == before
    assert not (home / "reflections").exists()


def test_reflect_json_is_exactly_the_reflection_result(home: Path) -> None:
    result = run(home, "reflect", "--json")
    data = json.loads(result.stdout)
    assert list(data) == [
        "ranAt",
        "inspected",
        "rewritten",
        "merged",
        "hidden",
        "tagged",
        "linked",
        "changes",
    ]
    assert data["ranAt"] == "2026-11-01T09:00:00.000Z"
    assert data["inspected"] == 3
    assert {
        "type": "hide",
        "nuggetName": "project",
        "noteId": "n2",
        "detail": "Archived low-value note",
    } in data["changes"]


def test_apply_journals_and_undo_restores(home: Path) -> None:
    before = json.loads(graph_bytes(home))
    applied = run(home, "reflect", "--apply")
    assert applied.exit_code == 0 and "Applied as run" in applied.output
    assert json.loads(graph_bytes(home))["notes"][1]["hidden"] is True
    log = json.loads(run(home, "log", "--json").stdout)
    assert [e["kind"] for e in log] == ["reflect"]
    undone = run(home, "undo", log[0]["runId"])
    assert undone.exit_code == 0, undone.output
    assert json.loads(graph_bytes(home)) == before
    again = run(home, "undo", log[0]["runId"])
    assert again.exit_code == 1 and "already undone" in again.output


def test_archive_hides_a_note_by_hand_and_undo_brings_it_back(home: Path) -> None:
    before = json.loads(graph_bytes(home))
    done = run(home, "archive", "n1")
    assert done.exit_code == 0 and "Archived 1" in done.output
    assert json.loads(graph_bytes(home))["notes"][0]["hidden"] is True
    again = run(home, "archive", "n1")
    assert again.exit_code == 0 and "already archived" in again.output
    missing = run(home, "archive", "nope")
    assert missing.exit_code == 2 and "no note nope" in missing.output  # a usage error
    log = json.loads(run(home, "log", "--json").output)
    assert log[0]["kind"] == "archive"
    assert run(home, "undo", log[0]["runId"]).exit_code == 0
    assert json.loads(graph_bytes(home)) == before


def test_unhide_brings_a_note_back_and_unknown_ids_fail(home: Path) -> None:
    run(home, "reflect", "--apply")
    assert run(home, "unhide", "n2").exit_code == 0
    assert json.loads(graph_bytes(home))["notes"][1]["hidden"] is False
    before = graph_bytes(home)
    missing = run(home, "unhide", "nope")
    assert missing.exit_code == 2
    assert "no note nope" in missing.output and "Traceback" not in missing.output
    assert graph_bytes(home) == before


def test_corrupt_graph_is_an_error_naming_the_file_and_left_untouched(home: Path) -> None:
    path = home / "graph" / "graph.json"
    path.write_text('{"version": 3, "notes": [')
    for args in (("reflect",), ("reflect", "--apply"), ("notes",), ("unhide", "n1")):
        result = run(home, *args)
        assert result.exit_code == 1, args
        assert str(path) in result.output and "not valid JSON" in result.output
    assert path.read_text() == '{"version": 3, "notes": ['


def test_usage_errors_exit_2(home: Path) -> None:
    assert run(home, "reflect", "--limit", "3", "--all").exit_code == 2
    assert run(home, "reflect", "--limit", "0").exit_code == 2
    assert run(home, "frobnicate").exit_code == 2


def test_missing_home_is_a_clear_error(tmp_path: Path) -> None:
    result = run(tmp_path / "nowhere", "notes")  # named by --home: a usage error
    assert result.exit_code == 2 and "no memory at" in result.output


def test_promote_json_and_apply(home: Path, tmp_path: Path) -> None:
    target = tmp_path / "memdir" / "MEMORY.md"
    dry = run(home, "promote", "--memory-md", str(target), "--json")
    shown = json.loads(dry.stdout)
    assert shown == {
        "added": 0,
        "path": str(target),
        "form": "entries",
        "files": [],
        "entries": [shown["entries"][0]],
        "blocked": [],
        "dropped": [],
        "lost": [],
        "budgets": [shown["budgets"][0]],
    }
    assert not target.parent.exists()
    target.parent.mkdir()
    applied = json.loads(
        run(home, "promote", "--memory-md", str(target), "--apply", "--json").stdout
    )
    assert applied["added"] == 1
    assert "- **deploy steps**: run make deploy" in target.read_text()


def test_notes_lists_visible_notes_and_json(home: Path) -> None:
    run(home, "reflect", "--apply")
    listed = json.loads(run(home, "notes", "--json").stdout)
    assert [n["id"] for n in listed] == ["n1", "n3"]
    everything = json.loads(run(home, "notes", "--hidden", "--json").stdout)
    assert [n["id"] for n in everything] == ["n1", "n2", "n3"]


def test_daily_runs_once_a_day_after_the_hour(home: Path) -> None:
    early = {"NUGGETS_NOW": "2026-11-01T06:00:00+00:00", "TZ": "UTC"}
    late = {"NUGGETS_NOW": "2026-11-01T10:00:00+00:00", "TZ": "UTC"}
    before = graph_bytes(home)
    assert run(home, "daily", env=early).output == ""
    assert graph_bytes(home) == before
    first = run(home, "daily", env=late)
    assert first.exit_code == 0 and first.output == ""
    assert graph_bytes(home) != before
    after_first = graph_bytes(home)
    second = run(home, "-v", "daily", env=late)
    assert "the pass was applied today already" in second.output
    assert graph_bytes(home) == after_first


def test_daily_runs_again_when_todays_run_was_undone(home: Path) -> None:
    late = {"NUGGETS_NOW": "2026-11-01T10:00:00+00:00", "TZ": "UTC"}
    before = graph_bytes(home)
    run(home, "daily", env=late)
    (reflected,) = [
        h for h in json.loads(run(home, "log", "--json").stdout) if h["kind"] == "reflect"
    ]
    run(home, "undo", reflected["runId"], env=late)
    assert json.loads(graph_bytes(home)) == json.loads(before)
    again = run(home, "-v", "daily", env=late)
    assert (
        "the pass was applied today already" not in again.output and "Reflection:" in again.output
    )
    assert json.loads(graph_bytes(home)) != json.loads(before)


def test_sample_memory_reflects(tmp_path: Path) -> None:
    result = run(make_home(tmp_path, sample_notes()), "reflect", "--all", "--json")
    assert json.loads(result.stdout)["merged"] > 0


# -- wrong input: a clear message and the right exit code ---------------------------------------


def test_reflect_apply_says_applied_not_dry_run(home: Path) -> None:
    result = run(home, "reflect", "--apply")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert "(applied)" in first and "dry run" not in first


@pytest.mark.parametrize("command", ["reflect", "notes"])
def test_an_unknown_nugget_is_a_usage_error_naming_the_known_ones(home: Path, command: str) -> None:
    before = graph_bytes(home)
    apply = ["--apply"] if command == "reflect" else []
    result = run(home, command, "--nugget", "nosuch", *apply)
    assert result.exit_code == 2
    assert "no nugget 'nosuch'" in result.stderr and "known: project" in result.stderr
    assert "Traceback" not in result.output
    assert graph_bytes(home) == before


@pytest.mark.parametrize("command", [["notes"], ["reflect"], ["promote"], ["unhide", "n1"]])
def test_a_home_without_a_graph_file_says_so(tmp_path: Path, command: list[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(empty, *command)
    assert result.exit_code == 1
    assert f"no graph file at {empty / 'graph' / 'graph.json'}" in result.stderr
    assert "0 notes" not in result.output
    assert list(empty.iterdir()) == []


def test_a_limit_above_the_cap_is_refused_with_a_hint(home: Path) -> None:
    result = run(home, "reflect", "--limit", "50")
    assert result.exit_code == 2
    assert "at most 10 notes, not 50" in result.stderr and "--all" in result.stderr


def test_a_limit_from_the_environment_that_is_no_number_is_refused(home: Path) -> None:
    result = run(home, "reflect", env={"MEMORY_REFLECTION_MAX_NOTES": "abc"})
    assert result.exit_code == 1
    assert "MEMORY_REFLECTION_MAX_NOTES" in result.stderr and "'abc'" in result.stderr


def test_a_pipe_closed_early_is_not_an_error(tmp_path: Path) -> None:
    graph = tmp_path / "big" / "graph"
    graph.mkdir(parents=True)
    notes = [note(f"n{i}", f"note number {i}", "some content " * 5) for i in range(5_000)]
    (graph / "graph.json").write_text(json.dumps({"version": 3, "notes": notes}))
    env = {**os.environ, "NUGGETS_NOW": NOW, "NUGGETS_HOME": ""}
    reader = subprocess.Popen(
        [sys.executable, "-m", "nuggets_tui.cli", "--home", str(tmp_path / "big"), "notes"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # `| head -1`
    errors = reader.stderr.read().decode()
    assert reader.wait() == 0
    assert errors == ""


def test_values_are_printed_as_in_the_file(home: Path) -> None:
    result = run(home, "reflect")
    assert "hidden: false -> true" in result.stdout
    assert "archivedAt: (not set) -> 2026-11-01T09:00:00.000Z" in result.stdout
    assert "False" not in result.stdout and "None" not in result.stdout


def test_promote_previews_even_without_the_memory_directory(home: Path, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "MEMORY.md"
    shown = run(home, "promote", "--memory-md", str(target))
    assert shown.exit_code == 0
    assert "a preview only, nothing will be written" in shown.stdout
    assert "+## " in shown.stdout and "add    [" in shown.stdout  # the entries and their diff
    applied = run(home, "promote", "--memory-md", str(target), "--apply")
    assert applied.exit_code == 0 and not target.parent.exists()


def test_an_unknown_run_id_is_a_usage_error(home: Path) -> None:
    result = run(home, "undo", "20990101T000000Z-0001")
    assert result.exit_code == 2
    assert "no run '20990101T000000Z-0001'" in result.stderr and "Traceback" not in result.output


def test_promote_shows_where_the_agents_budget_falls(home: Path, tmp_path: Path) -> None:
    target = tmp_path / "memdir" / "MEMORY.md"
    target.parent.mkdir()
    target.write_text("# Memory\n\n" + "".join(f"kept line {i}\n" for i in range(150)))
    roomy = run(home, "promote", "--memory-md", str(target))
    # Claude Code measures the trimmed text in UTF-16 units: the last newline is not counted
    assert "Claude Code reads the first 200 lines / 25,000 UTF-16 units" in roomy.stdout
    assert (
        "157 lines, 2,071 UTF-16 units used; room for 43 lines, 22,929 UTF-16 units more"
        in roomy.stdout
    )
    assert "past it" not in roomy.stdout
    target.write_text("# Memory\n\n" + "".join(f"kept line {i}\n" for i in range(200)))
    full = run(home, "promote", "--memory-md", str(target))
    assert (
        "it stops after line 200 of 207 (cut by lines); 1 entry past it, invisible to "
        "the agent" in full.stdout
    )
    assert "  past   [shared-context] deploy steps (n1)" in full.stdout
    shown = json.loads(run(home, "promote", "--memory-md", str(target), "--json").stdout)
    added = "\n## shared-context\n\n- **deploy steps**: run make deploy\nrun make deploy\n"
    assert shown["budgets"] == [
        {
            "reader": "Claude Code",
            "scope": "",
            "limits": {"lines": 200, "units": 25_000},
            "used": {"lines": 207, "units": len(target.read_text() + added) - 1},
            "room": {"lines": 0, "units": 0},
            "loadedLines": 200,
            "cutBy": "lines",
            "past": ["n1"],
        }
    ]
