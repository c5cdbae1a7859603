"""One rule for errors and exits (README, "Exit status"): a usage error is one line naming the
command and its help, exit 2; an error found in the memory, its settings, or a command the
memory's system does not offer, one line, exit 1; never a traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from nuggets_tui.cli import main
from tests.support.console_support import demo_home

ENV = {"NUGGETS_NOW": "2026-11-23T10:00:00Z", "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": ""}


def nuggets(*args: str, **env: str) -> Result:
    return CliRunner().invoke(main, list(args), env={**ENV, **env})


def one_line(result: Result, code: int) -> str:
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    return line


def test_a_usage_error_is_one_line_naming_the_command_and_its_help(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    line = one_line(nuggets("--home", str(home), "act"), 2)
    assert line.startswith("main act: Missing argument")
    assert line.endswith("(see main act --help)") and "␊" not in line
    assert one_line(nuggets("--nope"), 2).startswith("main: No such option '--nope'")


def test_a_home_named_by_an_option_that_is_not_there_is_a_usage_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere")
    assert "no memory at" in one_line(nuggets("--home", missing, "notes"), 2)
    assert "is a file" in one_line(nuggets("--home", "/etc/passwd", "notes"), 2)
    assert "no memory at" in one_line(nuggets("notes", NUGGETS_HOME=missing), 1)


def test_a_command_the_system_does_not_offer_is_refused_with_exit_1() -> None:
    for args in (("promote",), ("promote", "--apply"), ("act", "reject", "--apply")):
        result = nuggets("--demo-purifier", *args)  # opening it says what it found first
        assert result.exit_code == 1, (args, result.output)
        assert result.stdout == "" and "Traceback" not in result.output
        assert "read-only here" in result.stderr.strip().splitlines()[-1]


def test_allow_with_a_hash_that_is_not_the_entrys_says_so(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    shown = nuggets("--home", str(home), "promote").stdout
    token = shown.split("--allow ", 2)[2].split()[0]
    note_id = token.split("@")[0]
    line = one_line(nuggets("--home", str(home), "promote", "--allow", f"{note_id}@wrong"), 2)
    assert f"the hash does not match the entry's ({token})" in line
    line = one_line(nuggets("--home", str(home), "promote", "--allow", "nope@abc"), 2)
    assert "not a held-back candidate" in line
