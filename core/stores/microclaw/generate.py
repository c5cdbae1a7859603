"""Realistic MicroClaw databases, for tests, the demo and the benchmark.

The tables are made and the rows written with the bot's own SQL (core/stores/microclaw/bot_sql.py:
its DDL as of schema 43; older schemas lack the columns and tables added later). Timestamps are
written as the bot writes them (chrono's RFC 3339, +00:00). Everything is deterministic given the
seed and the clock.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from core.stores.microclaw import bot_sql
from core.stores.microclaw.rows import rfc3339 as bot_time

CURRENT = 43


@dataclass
class Chat:
    chat_id: int
    channel: str
    external_chat_id: str
    title: str = ""


@dataclass
class Row:
    """One memory row; None chat = global. It is written as the bot writes one: inserted at
    `created_at`, updated (same text) at `updated_at`, seen at `last_seen_at`, given its expiry,
    archived at `archived_at`, each with the bot's own statement. `extra` sets other columns
    directly (for values only a hand edit makes). Columns the schema lacks are dropped."""

    content: str
    category: str = "KNOWLEDGE"
    chat: Chat | None = None
    confidence: float = 0.70
    source: str = "reflector"
    created_at: str = ""
    updated_at: str = ""
    last_seen_at: str | None = None
    is_archived: int = 0
    archived_at: str | None = None
    expires_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def create(
    path: Path,
    version: int = CURRENT,
    wal: bool = True,
    applied_at: str = "2026-01-01T00:00:00+00:00",
) -> sqlite3.Connection:
    """An empty database with the bot's tables at `version` (CURRENT or older), made with the
    bot's own DDL (core/stores/microclaw/bot_sql.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    bot_sql.create_schema(conn, version, applied_at)
    if not wal:
        conn.execute("PRAGMA journal_mode = DELETE")
    return conn


def _columns(conn: sqlite3.Connection) -> set[str]:
    return {r[1] for r in conn.execute("PRAGMA table_info(memories)")}


def insert(conn: sqlite3.Connection, rows: Iterable[Row], chats: Iterable[Chat] = ()) -> list[int]:
    """Insert rows (and their chats) with the bot's statements; the new row ids, in order."""
    have = _columns(conn)
    rows = list(rows)
    ids = []
    conn.execute("BEGIN")
    for chat in chats:
        last = max((r.updated_at or r.created_at for r in rows if r.chat == chat), default="")
        conn.execute(
            bot_sql.INSERT_CHAT,
            (
                chat.chat_id,
                chat.title or None,
                "private",
                last,
                chat.channel,
                chat.external_chat_id,
            ),
        )
    for row in rows:
        ids.append(_write_row(conn, row, have))
    conn.execute("COMMIT")
    return ids


def _write_row(conn: sqlite3.Connection, row: Row, have: set[str]) -> int:
    chat_id = row.chat.chat_id if row.chat else None
    identity = (
        conn.execute(bot_sql.CHAT_IDENTITY, (chat_id,)).fetchone() if chat_id is not None else None
    ) or (None, None)
    created = row.created_at
    confidence = bot_sql.clamp(row.confidence)
    cursor = conn.execute(
        bot_sql.INSERT_MEMORY,
        (chat_id, row.content, row.category, created, confidence, row.source, *identity),
    )
    assert cursor.lastrowid is not None  # set by every INSERT
    row_id = cursor.lastrowid
    if row.updated_at and row.updated_at != created:
        conn.execute(
            bot_sql.UPDATE_MEMORY,
            (row.content, row.category, row.updated_at, confidence, row.source, row_id),
        )
    if row.last_seen_at and row.last_seen_at != (row.updated_at or created):
        conn.execute(bot_sql.TOUCH_LAST_SEEN, (row.last_seen_at, row_id))
    if row.expires_at is not None and "expires_at" in have:
        conn.execute(bot_sql.SET_EXPIRES_AT, (row.expires_at, row_id))
    if row.is_archived:
        conn.execute(bot_sql.ARCHIVE, (row.archived_at or row.updated_at or created, row_id))
    for name, value in row.extra.items():
        if name in have:
            conn.execute(f"UPDATE memories SET {name} = ? WHERE id = ?", (value, row_id))
    return row_id


def add_edge(conn: sqlite3.Connection, source: int, target: int, reason: str, at: str) -> None:
    conn.execute(bot_sql.INSERT_EDGE, (source, target, reason, at))


def add_triple(
    conn: sqlite3.Connection,
    triple: tuple[str, str, str],
    chat: Chat | None,
    at: str,
    memory: int | None = None,
) -> None:
    """A triple as the bot's reflector inserts one (its confidence, its source, no memory:
    every production insert leaves `source_memory_id` NULL); `memory` only for the tests of
    a hand-made link."""
    conn.execute(
        bot_sql.INSERT_TRIPLE,
        (*triple, chat.chat_id if chat else None, at, 0.72, "reflector", memory, at),
    )


# -- random realistic rows ------------------------------------------------------------------------

_SUBJECTS = ("User", "The user", "User's team", "The project", "User's manager", "The bot")
_VERBS = (
    "prefers",
    "uses",
    "works on",
    "asked about",
    "is learning",
    "dislikes",
    "deployed",
    "mentioned",
    "switched to",
    "reviews",
)
_OBJECTS = (
    "Rust examples",
    "PostgreSQL 16",
    "dark mode in the editor",
    "the billing service",
    "Kubernetes on bare metal",
    "concise bullet-point replies",
    "Python type hints",
    "the Friday release train",
    "Grafana dashboards",
    "a standing desk",
    "TypeScript strict mode",
    "the staging cluster",
    "Tokyo office hours",
    "weekly one-on-ones",
    "the mobile app rewrite",
    "SQLite in WAL mode",
)
_TAILS = (
    "",
    " every morning",
    " for side projects",
    " since last spring",
    " at work",
    " when on call",
    " for the new API",
    " because it is faster",
)
_CATEGORIES = ("PROFILE", "KNOWLEDGE", "KNOWLEDGE", "EVENT")
_SOURCES = ("reflector", "reflector", "explicit", "write_memory_tool", "tool", "legacy")
_CHANNELS = ("telegram", "discord", "web")


_PROJECTS = (
    "atlas",
    "borealis",
    "cinder",
    "dynamo",
    "ember",
    "fjord",
    "granite",
    "helix",
    "iris",
    "juniper",
    "kestrel",
    "lumen",
    "meridian",
    "nimbus",
    "onyx",
    "pylon",
    "quartz",
    "raven",
    "sable",
    "tundra",
    "umbra",
    "vertex",
    "willow",
    "xenon",
)
_PEOPLE = (
    "Priya",
    "Tomás",
    "Wei",
    "Amara",
    "Jonas",
    "Lena",
    "Kofi",
    "Sofia",
    "Mateo",
    "Yuki",
    "Omar",
    "Ines",
    "Nadia",
    "Emil",
    "Zara",
    "Ravi",
)


def sentence(rng: random.Random) -> str:
    """One memory as the reflector phrases them, with the names and numbers real ones carry."""
    detail = rng.choice(
        (
            "",
            f" on project {rng.choice(_PROJECTS)}",
            f" with {rng.choice(_PEOPLE)}",
            f" since v{rng.randrange(1, 40)}.{rng.randrange(0, 20)}",
            f" (ticket {rng.choice(_PROJECTS).upper()}-{rng.randrange(1, 5000)})",
        )
    )
    return (
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}"
        f"{rng.choice(_TAILS)}{detail}."
    )


def chats_for(count: int) -> list[Chat]:
    return [
        Chat(1000 + i, _CHANNELS[i % len(_CHANNELS)], str(5_000_000 + 7919 * i), f"chat {i}")
        for i in range(count)
    ]


GLOBAL_ROWS = 600  # the bot keeps 500 active global rows; a few more for its cap to find


def random_rows(
    count: int, chats: list[Chat], now: datetime, seed: int = 0, global_rows: int | None = None
) -> list[Row]:
    """`count` rows over the chats and global (a tenth of them, at most GLOBAL_ROWS unless
    `global_rows` says): every rule finds some work among them."""
    rng = random.Random(seed)
    global_count = min(count // 10, GLOBAL_ROWS) if global_rows is None else global_rows
    share = global_count / count if count else 0
    rows: list[Row] = []
    for _ in range(count):
        chat = None if rng.random() < share or not chats else rng.choice(chats)
        created = now - timedelta(days=rng.uniform(0, 180), seconds=rng.randrange(86400))
        seen = created + (now - created) * rng.random()
        archived = rng.random() < 0.08
        expires = None
        if rng.random() < 0.05:
            expires = bot_time(now + timedelta(days=rng.uniform(-20, 20)))
        content = sentence(rng)
        if rows and rng.random() < 0.05:  # the reflector saving one fact twice
            content = rows[-1].content.replace(".", "!") if rng.random() < 0.5 else content
        rows.append(
            Row(
                content=content,
                category=rng.choice(_CATEGORIES),
                chat=chat,
                confidence=round(rng.uniform(0.2, 0.99), 2),
                source=rng.choice(_SOURCES),
                created_at=bot_time(created),
                updated_at=bot_time(seen),
                last_seen_at=bot_time(seen),
                is_archived=int(archived),
                archived_at=bot_time(seen) if archived else None,
                expires_at=expires,
            )
        )
    return rows


def generate(
    path: Path,
    rows: int,
    now: datetime,
    chats: int = 20,
    seed: int = 0,
    version: int = CURRENT,
    edges: int | None = None,
    triples: int | None = None,
) -> Mapping[str, int]:
    """A database of `rows` random rows over `chats` chats and global, with supersede edges
    and (at schema 20 and later) knowledge-graph triples; returns what it holds."""
    rng = random.Random(seed + 1)
    chat_list = chats_for(chats)
    conn = create(path, version)
    try:
        ids = insert(conn, random_rows(rows, chat_list, now, seed), chat_list)
        at = bot_time(now - timedelta(days=1))
        edge_count = rows // 50 if edges is None else edges
        triple_count = (rows // 20 if triples is None else triples) if version >= 20 else 0
        conn.execute("BEGIN")
        for _ in range(edge_count if len(ids) > 1 else 0):
            source, target = rng.sample(ids, 2)
            add_edge(conn, source, target, rng.choice(("duplicate", "operator", "update")), at)
        for _ in range(triple_count if ids else 0):
            add_triple(
                conn,
                (rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_OBJECTS)),
                rng.choice(chat_list) if chat_list else None,
                at,
            )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return {"rows": rows, "chats": chats, "edges": edge_count, "triples": triple_count}
