"""The run log (README.md, "Run log"): one JSON line per writing command, last-run.md, dry runs
write neither."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from nuggets_tui.cli import main
from tests.support.conflict_builders import answers_memory
from tests.support.note_builders import make_home

NOW = "2026-11-01T10:00:00+00:00"
LOG = "memory-log-2026-11-01.jsonl"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    notes = answers_memory()
    notes[0]["hits"] = 4
    return make_home(tmp_path, notes)


def run(home: Path, *args: str, **env: str) -> Result:
    environ = {"NUGGETS_NOW": NOW, "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": "", "TZ": "UTC"}
    environ.update(env)
    return CliRunner().invoke(main, ["--home", str(home), *args], env=environ)


def lines(directory: Path) -> list[dict]:
    path = directory / LOG
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def group_id(home: Path) -> str:
    return json.loads(run(home, "conflicts", "--json").stdout)[0]["id"]


def test_an_applied_reflection_logs_one_line_and_the_last_run(home: Path) -> None:
    result = run(home, "reflect", "--apply")
    assert result.exit_code == 0, result.output
    (line,) = lines(home / "telemetry")
    assert line["domain"] == "memory" and line["component"] == "nuggets-review.reflect"
    assert line["event"] == "run_completed" and line["status"] == "ok"
    assert line["timestamp"] == "2026-11-01T10:00:00.000Z"
    assert line["run_id"] in result.output and set(line["counts"]) >= {"inspected", "merged"}
    report = (home / "telemetry" / "last-run.md").read_text()
    assert "# Last nuggets-review run: reflect" in report
    assert f"nuggets undo {line['run_id']}" in report


@pytest.mark.parametrize(
    "args",
    [
        ["reflect"],
        ["promote"],
        ["resolve", "GROUP", "--keep", "a-short"],
        ["resolve", "GROUP", "--both"],
        ["act", "reject"],
        ["act", "promote"],
        ["conflicts"],
        ["verdicts"],
    ],
)
def test_dry_runs_and_reading_commands_write_no_log(home: Path, args: list[str]) -> None:
    args = [group_id(home) if a == "GROUP" else a for a in args]
    assert run(home, *args).exit_code == 0
    assert not (home / "telemetry").exists()


def test_every_writing_command_logs_its_line(home: Path, tmp_path: Path) -> None:
    md = tmp_path / "mem" / "MEMORY.md"
    md.parent.mkdir()
    group = group_id(home)
    commands = [
        ["resolve", group, "--keep", "a-short", "--apply"],
        ["undo", "RUN"],
        ["resolve", group, "--both", "--apply"],
        ["archive", "lone"],
        ["unhide", "lone"],
        ["act", "reject", "--apply"],
        ["promote", "--memory-md", str(md), "--apply"],
        ["act", "promote", "--memory-md", str(md), "--apply"],
        ["daily"],
        ["reflect", "--apply"],
    ]
    last_run = ""
    for command in commands:
        command = [last_run if a == "RUN" else a for a in command]
        result = run(home, *command, NUGGETS_MEMORY_MD=str(md))
        assert result.exit_code == 0, (command, result.output)
        last_run = lines(home / "telemetry")[-1]["run_id"]
    logged = lines(home / "telemetry")
    assert [line["component"].split(".")[1] for line in logged] == [
        "resolve",
        "undo",
        "resolve",
        "archive",
        "unhide",
        "act",
        "promote",
        "act",
        "daily",
        "reflect",
    ]
    assert all(line["event"] == "run_completed" for line in logged)
    assert logged[0]["counts"]["archived"] == 3 and logged[2]["counts"] == {"settled": 1}
    assert logged[3]["counts"] == {"archived": 1}


def test_daily_logs_run_skipped_when_it_does_nothing(home: Path) -> None:
    early = run(home, "daily", NUGGETS_NOW="2026-11-01T06:00:00+00:00")
    assert early.exit_code == 0
    run(home, "daily")
    run(home, "daily")
    events = [(line["event"], line["status"]) for line in lines(home / "telemetry")]
    assert events == [
        ("run_skipped", "skipped"),
        ("run_completed", "ok"),
        ("run_skipped", "skipped"),
    ]
    assert "the pass was applied today already" in (home / "telemetry" / "last-run.md").read_text()


def test_a_failure_logs_run_failed_with_the_error(home: Path) -> None:
    result = run(home, "archive", "nosuch")
    assert result.exit_code == 2  # an argument naming no note: a usage error
    (line,) = lines(home / "telemetry")
    assert line["event"] == "run_failed" and line["status"] == "failed"
    assert "no note nosuch" in line["error"]
    assert "Error: no note nosuch" in (home / "telemetry" / "last-run.md").read_text()


def test_telemetry_dir_is_where_the_log_goes(home: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared-telemetry"
    result = CliRunner().invoke(
        main,
        ["--home", str(home), "--telemetry-dir", str(shared), "archive", "lone"],
        env={"NUGGETS_NOW": NOW, "NUGGETS_HOME": ""},
    )
    assert result.exit_code == 0, result.output
    assert len(lines(shared)) == 1 and (shared / "last-run.md").exists()
    assert not (home / "telemetry").exists()


def test_lines_are_appended_not_rewritten(home: Path) -> None:
    run(home, "archive", "lone")
    first = (home / "telemetry" / LOG).read_bytes()
    run(home, "unhide", "lone")
    assert (home / "telemetry" / LOG).read_bytes().startswith(first)
    assert len(lines(home / "telemetry")) == 2


def test_a_log_that_cannot_be_written_is_said_and_the_command_still_succeeds(home: Path) -> None:
    (home / "telemetry").write_text("a file where the directory would go")
    result = run(home, "archive", "lone")
    assert result.exit_code == 0
    assert result.stderr.startswith("nuggets: the run log could not be written: ")
    assert result.stderr.count("\n") == 1


def _modes(directory: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in [directory, *directory.iterdir()]}


def test_the_run_log_is_private(home: Path, tmp_path: Path) -> None:
    before = os.umask(0o022)
    try:
        assert run(home, "reflect", "--apply").exit_code == 0
        assert run(home, "daily").exit_code == 0
        assert _modes(home / "telemetry") == {"telemetry": 0o700, LOG: 0o600, "last-run.md": 0o600}
        chosen = tmp_path / "shared" / "logs"  # made for us: private too
        result = CliRunner().invoke(
            main,
            ["--home", str(home), "--telemetry-dir", str(chosen), "archive", "lone"],
            env={"NUGGETS_NOW": NOW, "NUGGETS_HOME": ""},
        )
        assert result.exit_code == 0, result.output
        assert _modes(chosen) == {"logs": 0o700, LOG: 0o600, "last-run.md": 0o600}
    finally:
        os.umask(before)


def test_a_run_log_an_older_version_left_open_is_tightened(home: Path) -> None:
    assert run(home, "reflect", "--apply").exit_code == 0
    for path in [home / "telemetry", *(home / "telemetry").iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert run(home, "daily").exit_code == 0
    assert _modes(home / "telemetry") == {"telemetry": 0o700, LOG: 0o600, "last-run.md": 0o600}


def test_each_undo_command_in_last_run_is_its_own_code_span() -> None:
    from core.journal.run_log import RunRecord, last_run_text

    record = RunRecord("daily", undoes=["r1", "r2"])
    text = last_run_text(record, "2026-11-01T10:00:00.000Z")
    assert "- Undo: `nuggets undo r1`, then `nuggets undo r2`\n" in text
    assert text.endswith("\n")


def test_daily_hints_open_the_same_memory_it_ran_on(home: Path, tmp_path: Path) -> None:
    spaced = tmp_path / "my home"
    home.rename(spaced)
    said = run(spaced, "daily", "--hold").stderr
    assert f"(open the console: nuggets --home '{spaced}')" in said, said
    demo = CliRunner().invoke(
        main, ["--demo", "daily", "--hold"], env={"NUGGETS_NOW": NOW, "TZ": "UTC"}
    )
    assert "(open the console: nuggets --demo)" in demo.stderr, demo.output
    assert "`nuggets --demo promote`" in demo.stderr
