"""Hand-built MicroClaw rows and databases for the MicroClaw tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core.models import RawNote
from core.stores.microclaw.generate import Chat, Row, create, insert
from core.stores.microclaw.rows import note_of
from core.stores.microclaw.rows import rfc3339 as bot_time

NOW = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
CHAT = Chat(7, "telegram", "555", "a chat")


def ago(days: float) -> str:
    return bot_time(NOW - timedelta(days=days))


def row(
    row_id: int,
    content: str = "",
    chat_id: int | None = 7,
    category: str = "KNOWLEDGE",
    confidence: float | None = 0.8,
    seen: float | None = 1,
    **columns: Any,
) -> dict:
    """A row as the database read gives it (every schema-43 column)."""
    values = {
        "id": row_id,
        "chat_id": chat_id,
        "content": content or f"memory number {row_id}",
        "category": category,
        "created_at": ago(200),
        "updated_at": ago(seen or 200),
        "last_seen_at": None if seen is None else ago(seen),
        "embedding_model": None,
        "confidence": confidence,
        "source": "reflector",
        "is_archived": 0,
        "archived_at": None,
        "chat_channel": "telegram" if chat_id is not None else None,
        "external_chat_id": "555" if chat_id is not None else None,
        "valid_from": None,
        "valid_to": None,
        "expires_at": None,
    }
    values.update(columns)
    return values


def notes(*rows: dict) -> list[RawNote]:
    return [note_of(r, []) for r in rows]


def data_dir_with(
    tmp: Path,
    rows: list[Row],
    version: int = 43,
    wal: bool = True,
    chats: tuple[Chat, ...] = (CHAT,),
) -> Path:
    """A data dir whose database holds these rows; the connection is closed again."""
    data_dir = tmp / "mc"
    conn = create(data_dir / "runtime" / "microclaw.db", version, wal=wal)
    try:
        insert(conn, rows, chats)
    finally:
        conn.close()
    return data_dir


def simple_rows(count: int, chat: Chat | None = CHAT) -> list[Row]:
    return [
        Row(
            content=f"fact {i} about the deployment of service {i}",
            chat=chat,
            created_at=ago(10),
            updated_at=ago(5),
            last_seen_at=ago(2),
        )
        for i in range(count)
    ]
