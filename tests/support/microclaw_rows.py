"""Small MicroClaw databases built by hand, plans over them, and a bot that writes beside us
(`BOT`, run in its own process), for the write-side tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from core.models import HideOp, LinkOp, NoteDiff, Plan, ReflectionChange, ReflectionResult
from core.stores.microclaw import bot_sql
from core.stores.microclaw.rows import read_graph

CURRENT = "the bot's schema 43"  # made with the bot's own DDL (core/stores/microclaw/bot_sql.py)

# An old bot: no archive columns' companions, no edges table.
OLD = """
CREATE TABLE memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT, chat_id INTEGER, content TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT 'KNOWLEDGE', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    confidence REAL NOT NULL DEFAULT 0.70, is_archived INTEGER NOT NULL DEFAULT 0);
"""

STAMP = "2026-10-01T09:00:00+00:00"


def make_db(path: Path, count: int = 6, schema: str = CURRENT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    if schema == CURRENT:
        conn.isolation_level = None
        bot_sql.create_schema(conn, 43, STAMP)
        conn.isolation_level = "DEFERRED"
    else:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(schema)
    for n in range(1, count + 1):
        insert(conn, f"memory number {n}", chat_id=None if n % 2 else 7)
    conn.commit()
    conn.close()
    return path


def insert(
    conn: sqlite3.Connection,
    content: str,
    chat_id: int | None = None,
    category: str = "KNOWLEDGE",
    confidence: float = 0.7,
) -> int:
    """A row as the bot inserts one (its statement where the table is the bot's)."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    if "last_seen_at" in columns:
        identity = (
            conn.execute(bot_sql.CHAT_IDENTITY, (chat_id,)).fetchone()
            if chat_id is not None
            else None
        ) or (None, None)
        cursor = conn.execute(
            bot_sql.INSERT_MEMORY,
            (chat_id, content, category, STAMP, confidence, "reflector", *identity),
        )
    else:
        cursor = conn.execute(
            "INSERT INTO memories (chat_id, content, category, created_at, updated_at,"
            " confidence) VALUES (?, ?, ?, ?, ?, ?)",
            (chat_id, content, category, STAMP, STAMP, confidence),
        )
    return int(cursor.lastrowid or 0)


def rows(db: Path) -> dict[int, dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    found = {r["id"]: dict(r) for r in conn.execute("SELECT * FROM memories")}
    conn.close()
    return found


def edges(db: Path) -> list[tuple[int, int, str]]:
    conn = sqlite3.connect(db)
    found = [
        tuple(r)
        for r in conn.execute(
            "SELECT from_memory_id, to_memory_id, reason FROM memory_supersede_edges ORDER BY id"
        )
    ]
    conn.close()
    return found


def plan_for(
    db: Path,
    archive: tuple[int, ...] = (),
    links: tuple[tuple[int, int], ...] = (),
    ran_at: str = "2026-11-24T00:00:00.000Z",
) -> Plan:
    """A plan archiving these rows and linking these pairs as duplicates, over the notes the
    read side makes of the rows now."""
    ids = [*archive, *(i for pair in links for i in pair)]
    notes = {n["id"]: n for n in read_graph(db).notes}
    operations: list[Any] = []
    changes = []
    for row_id in archive:
        note = notes[f"mc-{row_id}"]
        operations.append(HideOp(id=len(operations) + 1, note_id=note["id"]))
        changes.append(
            ReflectionChange(
                type="hide", nugget_name=note["nuggetName"], note_id=note["id"], detail="stale"
            )
        )
    for a, b in links:
        operations.append(
            LinkOp(
                id=len(operations) + 1, note_id=f"mc-{a}", other_id=f"mc-{b}", reason="duplicate"
            )
        )
        changes.append(
            ReflectionChange(
                type="link",
                nugget_name=notes[f"mc-{a}"]["nuggetName"],
                note_id=f"mc-{a}",
                detail="duplicate",
            )
        )
    diffs = [
        NoteDiff(note_id=f"mc-{i}", before=notes[f"mc-{i}"], after=notes[f"mc-{i}"])
        for i in dict.fromkeys(ids)
    ]
    result = ReflectionResult(
        ran_at=ran_at, inspected=len(notes), changes=changes, hidden=len(archive), linked=len(links)
    )
    return Plan(
        ran_at=ran_at,
        base_fingerprint="absent",
        limit=len(operations),
        result=result,
        operations=operations,
        notes=diffs,
    )


# The bot: inserts rows and edits random ones (content, updated_at, last_seen_at), each in its
# own short transaction, until the stop file appears; prints what it inserted and last wrote
# per row.
BOT = r"""
import json, os, random, sqlite3, sys, time
db, stop = sys.argv[1], sys.argv[2]
conn = sqlite3.connect(db, timeout=5, isolation_level=None)
rng = random.Random(7)
inserted, written = [], {}
end = time.time() + 120  # a safety net: the test tells it to stop
n = 0
while time.time() < end and not os.path.exists(stop):
    now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    conn.execute("BEGIN IMMEDIATE")
    cur = conn.execute("INSERT INTO memories (chat_id, content, category, created_at, updated_at,"
                       " confidence, last_seen_at) VALUES (7, ?, 'EVENT', ?, ?, 0.9, ?)",
                       (f"bot wrote {n}", now, now, now))
    inserted.append(cur.lastrowid)
    ids = [r[0] for r in conn.execute("SELECT id FROM memories")]
    victim = rng.choice(ids)
    content = f"bot edited {victim} at {n}"
    conn.execute("UPDATE memories SET content = ?, updated_at = ?, last_seen_at = ? WHERE id = ?",
                 (content, now, now, victim))
    conn.execute("COMMIT")
    written[victim] = content
    n += 1
    time.sleep(rng.uniform(0.002, 0.02))
print(json.dumps({"inserted": inserted, "written": {str(k): v for k, v in written.items()}}))
"""
