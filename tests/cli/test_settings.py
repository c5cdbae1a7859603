"""Environment variables and numeric options: a bad value is one line naming the variable and
saying what it must be (exit 1; exit 2 for a command-line option), never a traceback; a time
outside what datetime can hold is refused, not an OverflowError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.clock import parse_iso
from core.reflection.select_phase import resolve_limit
from core.settings import SettingError, load, whole_number
from nuggets_tui.cli import main
from tests.support.reliability_support import make_home, messy_notes

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "TZ": "UTC",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
}
LONG = "1" + "0" * 5000


def run(home: Path, *args: str, **env: str) -> Result:
    environ = {**ENV, "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md"), **env}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=environ)


def _one_line_error(result: Result, *needles: str, code: int = 1) -> None:
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output and not isinstance(result.exception, OverflowError)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 if code == 1 else lines, result.stderr
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


@pytest.mark.parametrize(
    ("name", "value", "args", "said"),
    [
        (
            "NUGGETS_NOW",
            "0001-01-01T00:00:00+01:00",
            ("notes",),
            "$NUGGETS_NOW must be an ISO-8601 time from year 1 to 9999",
        ),
        (
            "NUGGETS_NOW",
            "9999-12-31T23:59:59-01:00",
            ("reflect", "--apply"),
            "$NUGGETS_NOW must be an ISO-8601 time from year 1 to 9999",
        ),
        ("NUGGETS_NOW", "tomorrow", ("daily",), "$NUGGETS_NOW must be an ISO-8601 time"),
        (
            "MEMORY_REFLECTION_MINUTE",
            "99999999999999999999",
            ("daily",),
            "$MEMORY_REFLECTION_MINUTE must be a whole number from 0 to 59; it is "
            "'99999999999999999999'",
        ),
        pytest.param(
            "MEMORY_REFLECTION_MINUTE",
            LONG,
            ("daily",),
            "from 0 to 59; it is '10000000",
            id="minute-5000-digits",
        ),
        ("MEMORY_REFLECTION_MINUTE", "60", ("daily",), "from 0 to 59"),
        (
            "MEMORY_REFLECTION_HOUR",
            "²",
            ("daily",),
            "$MEMORY_REFLECTION_HOUR must be a whole number from 0 to 23, written with the digits "
            "0-9; it is '²'",
        ),
        ("MEMORY_REFLECTION_HOUR", "-1", ("daily",), "from 0 to 23, written with the digits"),
        ("MEMORY_REFLECTION_HOUR", "9.5", ("daily",), "from 0 to 23, written with the digits"),
        ("MEMORY_REFLECTION_HOUR", "24", ("daily",), "$MEMORY_REFLECTION_HOUR must be a whole"),
        (
            "MEMORY_REFLECTION_MAX_NOTES",
            "²",
            ("reflect",),
            "$MEMORY_REFLECTION_MAX_NOTES must be a whole number 0 or more (more than 10 counts as "
            "10), written with the digits 0-9; it is '²'",
        ),
        ("MEMORY_REFLECTION_MAX_NOTES", "٣", ("daily",), "written with the digits 0-9; it is '٣'"),
        ("MEMORY_REFLECTION_MAX_NOTES", "-3", ("reflect", "--apply"), "0 or more"),
        ("MEMORY_REFLECTION_MAX_NOTES", "many", ("reflect",), "it is 'many'"),
    ],
)
def test_a_bad_environment_variable_is_one_line_naming_it_and_nothing_is_written(
    tmp_path: Path, name: str, value: str, args: tuple[str, ...], said: str
) -> None:
    home = make_home(tmp_path, messy_notes())
    before = (home / "graph" / "graph.json").read_bytes()
    _one_line_error(run(home, *args, **{name: value}), said)
    assert (home / "graph" / "graph.json").read_bytes() == before
    assert not (home / "reflections").exists()


@pytest.mark.parametrize(
    ("env", "inspected"),
    [
        ({"MEMORY_REFLECTION_MAX_NOTES": LONG}, 7),
        ({"MEMORY_REFLECTION_MAX_NOTES": " 3 "}, 3),
        ({"MEMORY_REFLECTION_MAX_NOTES": "0003"}, 3),
        ({"MEMORY_REFLECTION_MAX_NOTES": ""}, 7),
    ],
)
def test_good_but_odd_values_are_read(tmp_path: Path, env: dict[str, str], inspected: int) -> None:
    home = make_home(tmp_path, messy_notes())
    result = run(home, "reflect", "--json", **env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["inspected"] == inspected


def test_daily_hour_and_minute_with_leading_zeros_and_spaces(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    result = run(home, "-v", "daily", MEMORY_REFLECTION_HOUR=" 011 ", MEMORY_REFLECTION_MINUTE="00")
    assert result.exit_code == 0 and "after 11:00" in result.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("reflect", "--limit", "²"), "'²' is not a valid integer"),
        pytest.param(
            ("reflect", "--limit", LONG), "is not a valid integer", id="limit-5000-digits"
        ),
        (("reflect", "--limit", "0"), "0 is not in the range x>=1"),
        (("reflect", "--limit", "-1"), "not in the range"),
        (("promote", "--threshold", "1e3"), "is not a valid integer"),
        (("promote", "--threshold", "0"), "not in the range"),
    ],
)
def test_a_bad_numeric_option_is_a_usage_error(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    home = make_home(tmp_path, messy_notes())
    result = run(home, *args)
    assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.output


def test_a_huge_numeric_option_is_read(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    assert run(home, "promote", "--threshold", "99999999999999999999999").exit_code == 0
    # a limit past the cap is refused (a usage error pointing at --all), never a traceback
    huge = run(home, "reflect", "--limit", "99999999999999999999999")
    assert huge.exit_code == 2 and "--all" in huge.stderr and "Traceback" not in huge.output


def test_a_journal_time_outside_datetime_is_skipped_by_daily_not_a_traceback(
    tmp_path: Path,
) -> None:
    home = make_home(tmp_path, messy_notes())
    assert run(home, "reflect", "--apply").exit_code == 0
    (entry,) = (home / "reflections").glob("*.json")
    entry.write_text(
        entry.read_text().replace(
            '"at":"2026-11-01T10:00:00.000Z"', '"at":"0001-01-01T00:00:00+01:00"'
        )
    )
    assert '"at":"0001-01-01T00:00:00+01:00"' in entry.read_text()
    result = run(home, "daily")
    assert result.exit_code == 0, (result.output, result.exception)


@pytest.mark.parametrize(
    "text",
    ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00.000+00:01"],
)
def test_a_time_utc_cannot_hold_does_not_parse(text: str) -> None:
    assert parse_iso(text) is None
    assert parse_iso("0001-01-01T00:00:00Z") is not None


def test_whole_number_settings() -> None:
    assert whole_number("7", 10) == 7 and whole_number(7, 10) == 7 and whole_number(" 07", 10) == 7
    assert whole_number(LONG, 10, capped=True) == 10
    for bad in ("²", LONG, "1_0", "-1", True, 2.5):
        with pytest.raises(ValueError, match="^must be a whole number"):
            whole_number(bad, 10)
    assert load({"MEMORY_REFLECTION_MAX_NOTES": ""}).settings.max_notes == 10  # blank: unset
    assert load({"MEMORY_REFLECTION_MAX_NOTES": "  "}).settings.max_notes == 10
    with pytest.raises(SettingError, match="^\\$MEMORY_REFLECTION_MAX_NOTES must be a whole"):
        load({"MEMORY_REFLECTION_MAX_NOTES": "²"})
    assert resolve_limit(4, load({"MEMORY_REFLECTION_MAX_NOTES": "2"}).settings.max_notes) == 4


def test_a_bad_variable_stops_the_console_before_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settings are read once, where the command starts: a bad one is said in one line and the
    console never opens (it used to open and say so when the setting was first used)."""
    home = make_home(tmp_path, messy_notes())
    opened: list[object] = []
    monkeypatch.setattr("nuggets_tui.app.run_console", lambda *a, **k: opened.append(a))
    _one_line_error(
        run(home, MEMORY_REFLECTION_MAX_NOTES="²"),
        "$MEMORY_REFLECTION_MAX_NOTES must be a whole number",
    )
    assert opened == []
    assert run(home, MEMORY_REFLECTION_MAX_NOTES="2").exit_code == 0 and len(opened) == 1


@pytest.mark.parametrize("value", ["²", "abc", LONG], ids=["superscript", "word", "5000-digits"])
def test_a_bad_crash_hook_variable_does_not_break_every_command(tmp_path: Path, value: str) -> None:
    import os
    import subprocess
    import sys

    home = make_home(tmp_path, messy_notes())
    env = {**os.environ, **ENV, "NUGGETS_CRASH_AT": value}
    done = subprocess.run(
        [sys.executable, "-m", "nuggets_tui.cli", "--home", str(home), "notes"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
