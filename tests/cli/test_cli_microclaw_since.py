"""`nuggets --microclaw DIR log`: what the bot did since to each run's rows.

The bot's writes are its own SQL, transcribed from MicroClaw (commit ab19255):
`crates/microclaw-storage/src/db/memory.rs` — expired rows deleted (line 359), a row archived
(`archive_memory`, line 630), a row a new extraction matched rewritten and un-archived
(`update_memory_with_metadata`, line 391, called from `src/memory_service.rs` line 898), a row
seen again (`touch_memory_last_seen`, line 606).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from core.stores.microclaw.generate import Row
from core.stores.microclaw.paths import database_path
from nuggets_tui.cli import main
from tests.support.microclaw_support import CHAT, ago, data_dir_with

ENV = {"NUGGETS_NOW": "2026-11-24T09:00:00Z", "NUGGETS_JOURNAL_KEEP": "100"}
BOT_NOW = "2026-11-24T10:00:00.123456+00:00"


def run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--microclaw", str(data_dir), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


def bot(data_dir: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def bot_deletes_expired(data_dir: Path, row_id: int) -> None:
    bot(data_dir, "UPDATE memories SET expires_at = ? WHERE id = ?", ago(1), row_id)
    bot(data_dir, "DELETE FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?",
        BOT_NOW)


def bot_matches(data_dir: Path, row_id: int) -> None:
    bot(data_dir, """UPDATE memories
             SET content = ?1, category = ?2, updated_at = ?3, embedding_model = NULL,
                 confidence = ?4, source = ?5, last_seen_at = ?3, is_archived = 0,
                 archived_at = NULL
             WHERE id = ?6""", "the user deploys on fridays, again", "KNOWLEDGE", BOT_NOW,
        0.70, "reflector", row_id)


def bot_archives(data_dir: Path, row_id: int) -> None:
    bot(data_dir, "UPDATE memories SET is_archived = 1, archived_at = ?1, updated_at = ?1 "
        "WHERE id = ?2", BOT_NOW, row_id)


def bot_sees(data_dir: Path, row_id: int) -> None:
    bot(data_dir, "UPDATE memories SET last_seen_at = ?1, confidence = MAX(confidence, ?2) "
        "WHERE id = ?3", BOT_NOW, 0.55, row_id)


def data_dir_of(tmp_path: Path) -> Path:
    rows = [Row(content=f"the user keeps fact number {i} about deployments", chat=CHAT,
                created_at=ago(10), updated_at=ago(5), last_seen_at=ago(2))
            for i in range(1, 7)]
    return data_dir_with(tmp_path, rows)


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
