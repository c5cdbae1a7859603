"""The settings read once where a command starts: an environment variable beats the config file,
which beats the default; a bad config file is one line naming the file and the key, exit status
2, and nothing is written; `nuggets config` says every value and where it came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.settings import NAMES, variable
from nuggets_tui.cli import main
from tests.support.reliability_support import make_home, messy_notes

ENV = {"NUGGETS_NOW": "2026-11-01T10:00:00Z", "TZ": "UTC", "NUGGETS_HOME": ""}


def run(home: Path, config: Path, *args: str, **env: str) -> Result:
    environ = {
        **ENV,
        "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md"),
        "NUGGETS_CONFIG": str(config),
        **env,
    }
    return CliRunner().invoke(main, ["--home", str(home), *args], env=environ)


def settings_json(result: Result) -> dict[str, dict[str, object]]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["settings"]


def test_the_environment_beats_the_file_which_beats_the_default(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())  # 7 notes
    config = tmp_path / "config.toml"
    config.write_text("max_notes = 3\njournal_keep = 7\nallow_contact = true\n")
    shown = settings_json(run(home, config, "config", "--json"))
    assert shown["max_notes"] == {
        "value": 3,
        "from": "file",
        "variable": "$MEMORY_REFLECTION_MAX_NOTES",
    }
    assert shown["journal_keep"]["value"] == 7 and shown["journal_keep"]["from"] == "file"
    assert shown["daily_hour"] == {
        "value": 9,
        "from": "default",
        "variable": "$MEMORY_REFLECTION_HOUR",
    }
    assert json.loads(run(home, config, "reflect", "--json").stdout)["inspected"] == 3
    by_env = run(home, config, "config", "--json", MEMORY_REFLECTION_MAX_NOTES="5")
    assert settings_json(by_env)["max_notes"]["value"] == 5
    assert settings_json(by_env)["max_notes"]["from"] == "environment"
    assert settings_json(by_env)["journal_keep"]["from"] == "file"
    inspected = run(home, config, "reflect", "--json", MEMORY_REFLECTION_MAX_NOTES="5")
    assert json.loads(inspected.stdout)["inspected"] == 5
    unset = run(home, config, "reflect", "--json", MEMORY_REFLECTION_MAX_NOTES="")
    assert json.loads(unset.stdout)["inspected"] == 3  # an empty variable is no value


def test_the_file_keeps_the_journal_it_says(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    config = tmp_path / "config.toml"
    config.write_text("journal_keep = 1\n")
    for _ in range(2):
        assert run(home, config, "archive", "n1").exit_code == 0
        assert run(home, config, "unhide", "n1").exit_code == 0
    assert len(list((home / "reflections").glob("*.json"))) == 1


def test_without_a_file_every_value_is_its_default_or_its_variable(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    result = CliRunner().invoke(
        main, ["--home", str(home), "config"], env={**ENV, "NUGGETS_JOURNAL_KEEP": "12"}
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Config file: ") and lines[0].endswith(
        "nuggets/config.toml (there is none)"
    )
    for name in NAMES:
        (row,) = [line for line in lines if line.split()[0] == name]
        assert f"${variable(name)})" in row
    (keep,) = [line for line in lines if line.split()[0] == "journal_keep"]
    assert keep.split()[1] == "12" and "(environment; $NUGGETS_JOURNAL_KEEP)" in keep
    assert lines[-1] == "An environment variable beats the config file, which beats the default."


def test_the_scorer_key_is_never_shown(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    config = tmp_path / "config.toml"
    config.write_text('scorer_key = "sk-from-the-file"\n')
    result = run(home, config, "config")
    assert result.exit_code == 0 and "sk-from-the-file" not in result.output
    shown = settings_json(run(home, config, "config", "--json", NUGGETS_SCORER_KEY="sk-env"))
    assert shown["scorer_key"] == {
        "value": "(set, not shown)",
        "from": "environment",
        "variable": "$NUGGETS_SCORER_KEY",
    }


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("max_notes = [", "not a TOML file (Invalid value (at end of document))"),
        ("colour = 3", "colour is not a setting"),
        ("daily_hour = 25", "daily_hour must be a whole number from 0 to 23; it is 25"),
        (
            'daily_minute = "ten"',
            "daily_minute must be a whole number from 0 to 59, written with "
            "the digits 0-9; it is 'ten'",
        ),
        ("journal_keep = 0", "journal_keep must be a whole number of runs to keep, 1 or more"),
        ('allow_contact = "maybe"', "allow_contact must be 1 or 0"),
        ("home = 3", "home must be a path, written as a string; it is 3"),
        ("now = 2026-13-01", "not a TOML file"),
        (
            "scorer_deadline = -1",
            "scorer_deadline must be a whole number from 0 to 86400, written "
            "with the digits 0-9; it is -1",
        ),
        ('keymap = "x"', "keymap must be a table of binding ids and keys"),
        ('[keymap]\n"app.help" = 1', "keymap.app.help must be a key or keys"),
        ('[keymap]\n"app.hlep" = "f1"', "keymap.app.hlep is no key binding of the console"),
    ],
    ids=[
        "syntax",
        "unknown-key",
        "hour",
        "minute-word",
        "keep",
        "switch",
        "path",
        "date",
        "deadline",
        "keymap-not-table",
        "keymap-value",
        "keymap-id",
    ],
)
def test_a_bad_config_file_is_one_line_naming_it_and_nothing_is_written(
    tmp_path: Path, text: str, said: str
) -> None:
    home = make_home(tmp_path, messy_notes())
    before = (home / "graph" / "graph.json").read_bytes()
    config = tmp_path / "config.toml"
    config.write_text(text + "\n")
    command = ("config",) if "keymap" in text else ("reflect", "--apply")
    result = run(home, config, *command)
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"nuggets: {config}: ") and said in line, line
    assert (home / "graph" / "graph.json").read_bytes() == before
    assert not (home / "reflections").exists() and not (home / "telemetry").exists()


def test_a_keymap_naming_no_binding_stops_the_console_before_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path, messy_notes())
    config = tmp_path / "config.toml"
    opened: list[dict[str, str]] = []
    monkeypatch.setattr(
        "nuggets_tui.app.run_console", lambda *a, **k: opened.append(dict(k["keymap"]))
    )
    config.write_text('[keymap]\n"app.hlep" = "f1"\n')
    result = run(home, config)
    assert result.exit_code == 2 and "keymap.app.hlep is no key binding" in result.stderr
    assert opened == []
    config.write_text('[keymap]\n"app.help" = "f1"\n')
    assert run(home, config).exit_code == 0 and opened == [{"app.help": "f1"}]


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo"])
def test_a_config_file_that_cannot_be_read_is_one_line(tmp_path: Path, kind: str) -> None:
    import os

    home = make_home(tmp_path, messy_notes())
    config = tmp_path / "config.toml"
    if kind == "directory":
        config.mkdir()
    elif kind == "fifo":
        os.mkfifo(config)  # never blocks: opened without waiting for a writer
    result = run(home, config, "notes")
    assert result.exit_code == 2 and "Traceback" not in result.output
    said = {
        "missing": "no such config file (named by $NUGGETS_CONFIG)",
        "directory": "not a regular file",
        "fifo": "not a regular file",
    }[kind]
    assert result.stderr.strip() == f"nuggets: {config}: {said}"


def test_the_default_config_file_is_in_the_user_config_directory(tmp_path: Path) -> None:
    home = make_home(tmp_path, messy_notes())
    xdg = tmp_path / "xdg"
    (xdg / "nuggets").mkdir(parents=True)
    (xdg / "nuggets" / "config.toml").write_text("daily_hour = 11\n")
    result = CliRunner().invoke(
        main, ["--home", str(home), "-v", "daily"], env={**ENV, "XDG_CONFIG_HOME": str(xdg)}
    )
    assert result.exit_code == 0 and "after 11:00" in result.stdout
