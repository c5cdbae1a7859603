"""Realistic MicroClaw databases, for tests, the demo and the benchmark.

The tables are those the bot creates (its DDL as of schema 43 for the memory tables; older
schemas lack the columns and tables added later). Timestamps are written as the bot writes them
(RFC 3339 with nanoseconds and +00:00). Everything is deterministic given the seed and the clock.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from core.stores.microclaw.rows import rfc3339 as bot_time

CURRENT = 43

_MEMORIES = """CREATE TABLE memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER,
    content TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT 'KNOWLEDGE',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    embedding_model TEXT,
    chat_channel TEXT,
    external_chat_id TEXT,
    confidence REAL NOT NULL DEFAULT 0.70,
    source TEXT NOT NULL DEFAULT 'legacy',
    last_seen_at TEXT,
    is_archived INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT{extra}
)"""
_NEWER_COLUMNS = ",\n    expires_at TEXT,\n    valid_from TEXT,\n    valid_to TEXT"
_TABLES = """
CREATE TABLE db_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE chats (
    chat_id INTEGER PRIMARY KEY, chat_title TEXT, chat_type TEXT NOT NULL DEFAULT 'private',
    last_message_time TEXT NOT NULL, channel TEXT, external_chat_id TEXT);
CREATE INDEX idx_memories_active_updated ON memories(is_archived, updated_at);
CREATE INDEX idx_memories_confidence ON memories(confidence);
CREATE TABLE memory_supersede_edges (
    id INTEGER PRIMARY KEY AUTOINCREMENT, from_memory_id INTEGER NOT NULL,
    to_memory_id INTEGER NOT NULL, reason TEXT, created_at TEXT NOT NULL);
CREATE INDEX idx_memory_supersede_from ON memory_supersede_edges(from_memory_id, created_at);
CREATE INDEX idx_memory_supersede_to ON memory_supersede_edges(to_memory_id, created_at);
"""
_KNOWLEDGE_GRAPH = """
CREATE TABLE knowledge_graph (
    id INTEGER PRIMARY KEY AUTOINCREMENT, subject TEXT NOT NULL, predicate TEXT NOT NULL,
    object TEXT NOT NULL, chat_id INTEGER, valid_from TEXT NOT NULL, valid_to TEXT,
    confidence REAL NOT NULL DEFAULT 0.70, source TEXT NOT NULL DEFAULT 'reflector',
    source_memory_id INTEGER, created_at TEXT NOT NULL);
CREATE INDEX idx_kg_subject ON knowledge_graph(subject);
"""


@dataclass
class Chat:
    chat_id: int
    channel: str
    external_chat_id: str
    title: str = ""


@dataclass
class Row:
    """One memory row; None chat = global. Columns the schema lacks are dropped on insert."""

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


def create(path: Path, version: int = CURRENT, wal: bool = True) -> sqlite3.Connection:
    """An empty database with the bot's memory tables at `version` (CURRENT or older)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(_MEMORIES.format(extra=_NEWER_COLUMNS if version >= 24 else ""))
    conn.executescript(_TABLES + (_KNOWLEDGE_GRAPH if version >= 20 else ""))
    conn.execute("INSERT INTO db_meta VALUES ('schema_version', ?)", (str(version),))
    return conn


def _columns(conn: sqlite3.Connection) -> set[str]:
    return {r[1] for r in conn.execute("PRAGMA table_info(memories)")}


def insert(conn: sqlite3.Connection, rows: Iterable[Row], chats: Iterable[Chat] = ()) -> list[int]:
    """Insert rows (and their chats) as the bot does; the new row ids, in order."""
    have = _columns(conn)
    rows = list(rows)
    ids = []
    conn.execute("BEGIN")
    for chat in chats:
        last = max((r.updated_at or r.created_at for r in rows if r.chat == chat), default="")
        conn.execute("INSERT OR IGNORE INTO chats VALUES (?, ?, 'private', ?, ?, ?)",
                     (chat.chat_id, chat.title, last, chat.channel, chat.external_chat_id))
    for row in rows:
        values = _values(row)
        names = [n for n in values if n in have]
        cursor = conn.execute(
            f"INSERT INTO memories ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            [values[n] for n in names])
        assert cursor.lastrowid is not None  # set by every INSERT
        ids.append(cursor.lastrowid)
    conn.execute("COMMIT")
    return ids


def _values(row: Row) -> dict[str, Any]:
    chat = row.chat
    return {
        "chat_id": chat.chat_id if chat else None, "content": row.content,
        "category": row.category, "created_at": row.created_at,
        "updated_at": row.updated_at or row.created_at,
        "embedding_model": None, "chat_channel": chat.channel if chat else None,
        "external_chat_id": chat.external_chat_id if chat else None,
        "confidence": row.confidence, "source": row.source,
        "last_seen_at": row.last_seen_at, "is_archived": row.is_archived,
        "archived_at": row.archived_at, "expires_at": row.expires_at, **row.extra,
    }


def add_edge(conn: sqlite3.Connection, source: int, target: int, reason: str, at: str) -> None:
    conn.execute("INSERT INTO memory_supersede_edges (from_memory_id, to_memory_id, reason, "
                 "created_at) VALUES (?, ?, ?, ?)", (source, target, reason, at))


def add_triple(conn: sqlite3.Connection, triple: tuple[str, str, str], memory: int,
               chat: Chat | None, at: str) -> None:
    conn.execute("INSERT INTO knowledge_graph (subject, predicate, object, chat_id, valid_from,"
                 " confidence, source, source_memory_id, created_at) VALUES "
                 "(?, ?, ?, ?, ?, 0.8, 'reflector', ?, ?)",
                 (*triple, chat.chat_id if chat else None, at, memory, at))


# -- random realistic rows ------------------------------------------------------------------------

_SUBJECTS = ("User", "The user", "User's team", "The project", "User's manager", "The bot")
_VERBS = ("prefers", "uses", "works on", "asked about", "is learning", "dislikes", "deployed",
          "mentioned", "switched to", "reviews")
_OBJECTS = ("Rust examples", "PostgreSQL 16", "dark mode in the editor", "the billing service",
            "Kubernetes on bare metal", "concise bullet-point replies", "Python type hints",
            "the Friday release train", "Grafana dashboards", "a standing desk",
            "TypeScript strict mode", "the staging cluster", "Tokyo office hours",
            "weekly one-on-ones", "the mobile app rewrite", "SQLite in WAL mode")
_TAILS = ("", " every morning", " for side projects", " since last spring", " at work",
          " when on call", " for the new API", " because it is faster")
_CATEGORIES = ("PROFILE", "KNOWLEDGE", "KNOWLEDGE", "EVENT")
_SOURCES = ("reflector", "reflector", "explicit", "write_memory_tool", "tool", "legacy")
_CHANNELS = ("telegram", "discord", "web")


_PROJECTS = ("atlas", "borealis", "cinder", "dynamo", "ember", "fjord", "granite", "helix",
             "iris", "juniper", "kestrel", "lumen", "meridian", "nimbus", "onyx", "pylon",
             "quartz", "raven", "sable", "tundra", "umbra", "vertex", "willow", "xenon")
_PEOPLE = ("Priya", "Tomás", "Wei", "Amara", "Jonas", "Lena", "Kofi", "Sofia", "Mateo",
           "Yuki", "Omar", "Ines", "Nadia", "Emil", "Zara", "Ravi")


def sentence(rng: random.Random) -> str:
    """One memory as the reflector phrases them, with the names and numbers real ones carry."""
    detail = rng.choice((
        "", f" on project {rng.choice(_PROJECTS)}", f" with {rng.choice(_PEOPLE)}",
        f" since v{rng.randrange(1, 40)}.{rng.randrange(0, 20)}",
        f" (ticket {rng.choice(_PROJECTS).upper()}-{rng.randrange(1, 5000)})"))
    return (f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}"
            f"{rng.choice(_TAILS)}{detail}.")


def chats_for(count: int) -> list[Chat]:
    return [Chat(1000 + i, _CHANNELS[i % len(_CHANNELS)], str(5_000_000 + 7919 * i),
                 f"chat {i}") for i in range(count)]


GLOBAL_ROWS = 600  # the bot keeps 500 active global rows; a few more for its cap to find


def random_rows(count: int, chats: list[Chat], now: datetime, seed: int = 0,
                global_rows: int | None = None) -> list[Row]:
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
        rows.append(Row(
            content=content, category=rng.choice(_CATEGORIES), chat=chat,
            confidence=round(rng.uniform(0.2, 0.99), 2), source=rng.choice(_SOURCES),
            created_at=bot_time(created), updated_at=bot_time(seen),
            last_seen_at=bot_time(seen), is_archived=int(archived),
            archived_at=bot_time(seen) if archived else None, expires_at=expires))
    return rows


def generate(path: Path, rows: int, now: datetime, chats: int = 20, seed: int = 0,
             version: int = CURRENT, edges: int | None = None,
             triples: int | None = None) -> Mapping[str, int]:
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
            add_triple(conn, (rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_OBJECTS)),
                       rng.choice(ids), None, at)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return {"rows": rows, "chats": chats, "edges": edge_count, "triples": triple_count}
