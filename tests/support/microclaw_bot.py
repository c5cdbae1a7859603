"""The bot's own writes to its database, as MicroClaw runs them (commit ab19255): its SQL,
from `crates/microclaw-storage/src/db/memory.rs` — expired rows deleted (line 359), a row
archived (`archive_memory`), a row a new extraction matched rewritten and un-archived
(`update_memory_with_metadata`, called from `src/memory_service.rs` line 898), a row seen again
(`touch_memory_last_seen`, line 606). The statements core/stores/microclaw/bot_sql.py already
transcribes (with their lines) are used from there."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.stores.microclaw import bot_sql
from core.stores.microclaw.generate import Row
from core.stores.microclaw.paths import database_path
from tests.support.microclaw_support import CHAT, ago, data_dir_with

BOT_NOW = "2026-11-24T10:00:00.123456+00:00"


def bot(data_dir: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def bot_deletes_expired(data_dir: Path, row_id: int) -> None:
    bot(data_dir, bot_sql.SET_EXPIRES_AT, ago(1), row_id)
    bot(data_dir, "DELETE FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?", BOT_NOW)


def bot_matches(data_dir: Path, row_id: int) -> None:
    bot(
        data_dir,
        bot_sql.UPDATE_MEMORY,
        "the user deploys on fridays, again",
        "KNOWLEDGE",
        BOT_NOW,
        0.70,
        "reflector",
        row_id,
    )


def bot_archives(data_dir: Path, row_id: int) -> None:
    bot(data_dir, bot_sql.ARCHIVE, BOT_NOW, row_id)


def bot_sees(data_dir: Path, row_id: int) -> None:
    bot(
        data_dir,
        "UPDATE memories SET last_seen_at = ?1, confidence = MAX(confidence, ?2) WHERE id = ?3",
        BOT_NOW,
        0.55,
        row_id,
    )


def archive_low(data_dir: Path, row_id: int, confidence: float) -> None:
    bot(data_dir, "UPDATE memories SET confidence = ? WHERE id = ?", confidence, row_id)
    bot_archives(data_dir, row_id)


def bot_global_cap(data_dir: Path, cap: int) -> set[int]:
    """The bot's global cap (`archive_excess_memories(None, cap)`, memory.rs:660-705), its
    statements as it runs them; the rows it archived."""
    conn = sqlite3.connect(database_path(data_dir), isolation_level=None)
    try:
        before = {r[0] for r in conn.execute("SELECT id FROM memories WHERE is_archived = 1")}
        count = conn.execute(
            "SELECT COUNT(*) FROM memories WHERE is_archived = 0 AND chat_id IS NULL"
        ).fetchone()[0]
        if count > cap:
            conn.execute(
                """UPDATE memories SET is_archived = 1, archived_at = ?1, updated_at = ?1
                 WHERE is_archived = 0 AND chat_id IS NULL
                   AND id IN (
                     SELECT id FROM memories
                     WHERE is_archived = 0 AND chat_id IS NULL
                     ORDER BY confidence ASC, COALESCE(last_seen_at, updated_at, created_at) ASC
                     LIMIT ?2
                   )""",
                (BOT_NOW, count - cap),
            )
        return {
            r[0] for r in conn.execute("SELECT id FROM memories WHERE is_archived = 1")
        } - before
    finally:
        conn.close()


def confidence(data_dir: Path, row_id: int) -> tuple[float, int]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return conn.execute(
            "SELECT confidence, is_archived FROM memories WHERE id = ?", (row_id,)
        ).fetchone()
    finally:
        conn.close()


def data_dir_of(tmp_path: Path, count: int = 6) -> Path:
    """A data dir with `count` active rows of one chat, none of which the bot's rules touch."""
    rows = [
        Row(
            content=f"the user keeps fact number {i} about deployments",
            chat=CHAT,
            created_at=ago(10),
            updated_at=ago(5),
            last_seen_at=ago(2),
        )
        for i in range(1, count + 1)
    ]
    return data_dir_with(tmp_path, rows)
