"""`nuggets --microclaw DIR log`: what the bot did since to each run's rows (the bot's writes
are its own SQL: tests/support/microclaw_bot.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from nuggets_tui.cli import main
from tests.support.microclaw_bot import (
    bot_archives,
    bot_deletes_expired,
    bot_matches,
    bot_sees,
    data_dir_of,
)

ENV = {"NUGGETS_NOW": "2026-11-24T09:00:00Z", "NUGGETS_JOURNAL_KEEP": "100"}


def run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--microclaw", str(data_dir), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


def test_log_names_what_the_bot_did_since_to_each_runs_rows(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    assert run(data_dir, "archive", "mc-1", "mc-2", "mc-3", "mc-4")[0] == 0
    assert run(data_dir, "unhide", "mc-4")[0] == 0  # the newer run owns mc-4 now
    bot_deletes_expired(data_dir, 1)
    bot_matches(data_dir, 2)
    bot_sees(data_dir, 3)
    bot_archives(data_dir, 4)
    code, out, _ = run(data_dir, "log")
    assert code == 0
    unhide_line, unhide_since, archive_line, archive_since = out.splitlines()
    assert "unhide" in unhide_line and "archive" in archive_line
    assert "archived again mc-4" in unhide_since
    assert "deleted mc-1" in archive_since and "brought back mc-2" in archive_since
    assert "changed mc-3" in archive_since and "mc-4" not in archive_since
    code, out, _ = run(data_dir, "log", "--json")
    unhide_run, archive_run = json.loads(out)
    assert archive_run["since"]["deleted"] == ["mc-1"]
    assert archive_run["since"]["restored"] == ["mc-2"]
    assert archive_run["since"]["changed"] == ["mc-3"]
    assert unhide_run["since"]["archived"] == ["mc-4"]


def test_a_run_the_bot_left_alone_says_nothing_more(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    run(data_dir, "archive", "mc-1")
    code, out, _ = run(data_dir, "log")
    assert code == 0 and len(out.splitlines()) == 1
    assert "since" not in json.loads(run(data_dir, "log", "--json")[1])[0]


def test_our_own_unhide_of_an_archived_row_is_not_the_bots(tmp_path: Path) -> None:
    data_dir = data_dir_of(tmp_path)
    run(data_dir, "archive", "mc-2")
    run(data_dir, "unhide", "mc-2")
    _, out, _ = run(data_dir, "log")
    assert "brought back" not in out and len(out.splitlines()) == 2
