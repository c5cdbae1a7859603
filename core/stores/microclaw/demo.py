"""The MicroClaw demo data dir: a small bot's memory where every rule has work to show.

Deterministic given the clock: several chats (Telegram, Discord, web, one of the older layout
without a channel) and global rows; a stale row and one just short of stale; an expired row and
one expiring later; near-duplicates (one pair tied on confidence and last seen) and PROFILE
duplicates the bot never archives; a chat over the 200-row cap; archived rows; supersede edges;
knowledge-graph triples; AGENTS.md files at every level and a USER.md; two topic conflicts for
the contradiction queue.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from core.safeio.atomic_write import atomic_write
from core.stores.microclaw.generate import Chat, Row, add_edge, add_triple, create, insert
from core.stores.microclaw.paths import database_path, groups_dir, journal_home
from core.stores.microclaw.rows import rfc3339 as bot_time

ALICE = Chat(1, "telegram", "123456789", "Alice")
TEAM = Chat(2, "discord", "987654321012", "infra-team")
WEB = Chat(3, "web", "web-7f3a", "web visitor")
OLD = Chat(42, "", "", "older chat")  # written before chats had a channel

DEMO_FILES = {
    "AGENTS.md": "# Global memory\n\n- Answer in the user's language.\n"
    "- Never share one chat's memory in another.\n",
    "telegram/AGENTS.md": "# Telegram bot\n\n- Keep replies under 4096 characters.\n",
    "telegram/1/AGENTS.md": "# Chat memory\n\n- Alice is a Rust developer in Tokyo.\n"
    "- Prefers code examples over prose.\n",
    "telegram/1/USER.md": "# Alice\n\nTimezone: Asia/Tokyo. Works on the billing service.\n",
    "42/AGENTS.md": "# Chat memory (older layout)\n\n- Weekly report goes out on Mondays.\n",
    # the discord chat's own file: where its promotion writes (a folder the bot made for it)
    "discord/2/AGENTS.md": "# Chat memory\n\n- The ops channel: hosts, racks and releases.\n",
}


def _rows(now: datetime) -> list[Row]:
    def at(days: float) -> str:
        return bot_time(now - timedelta(days=days))

    def row(
        content: str,
        chat: Chat | None,
        category: str = "KNOWLEDGE",
        confidence: float = 0.8,
        seen: float = 2,
        **extra: Any,
    ) -> Row:
        chat = None if chat is None else chat
        return Row(
            content=content,
            category=category,
            chat=chat,
            confidence=confidence,
            created_at=at(seen + 20),
            updated_at=at(seen),
            last_seen_at=at(seen),
            **extra,
        )

    return [
        row("User's name is Alice and she lives in Tokyo", ALICE, "PROFILE", 0.95),
        row("User is a Rust developer working on the billing service", ALICE, "PROFILE", 0.9),
        row("User is a Rust developer working on the billing service!", ALICE, "PROFILE", 0.7),
        row(
            "User mentioned a conference talk idea about tracing", ALICE, "EVENT", 0.3, seen=45
        ),  # stale
        row(
            "User asked about lifetimes in async closures", ALICE, "EVENT", 0.3, seen=20
        ),  # low confidence but seen recently: kept
        row(
            "User is on vacation until the end of the month", ALICE, "EVENT", 0.8, expires_at=at(1)
        ),  # expired
        row(
            "User has a dentist appointment next Tuesday", ALICE, "EVENT", 0.8, expires_at=at(-6)
        ),  # expires later: kept
        row("User prefers code examples in Rust over pseudo code", ALICE, "KNOWLEDGE", 0.85),
        row("User prefers code examples in Rust over pseudo code.", ALICE, "KNOWLEDGE", 0.6),
        row("Production database port is 5433", TEAM, "KNOWLEDGE", 0.9),
        row("Production database port is 5432", TEAM, "KNOWLEDGE", 0.8, seen=30),  # conflict
        row("Release deadline is Friday the 4th", TEAM, "KNOWLEDGE", 0.85),
        row("Release deadline moved to March 3rd after the freeze", TEAM, "KNOWLEDGE", 0.8),
        row("The team deploys with Argo CD from the main branch", TEAM, "KNOWLEDGE", 0.75, seen=5),
        row(
            "The team deploys with Argo CD from the main branch", TEAM, "KNOWLEDGE", 0.75, seen=5
        ),  # tied with the row above: the larger id is the weaker
        row("Visitor asked for pricing of the team plan", WEB, "EVENT", 0.5),
        row("Visitor asked for pricing of the enterprise plan", WEB, "EVENT", 0.5),
        row("Weekly report goes out on Monday mornings", OLD, "KNOWLEDGE", 0.8),
        row("Old chat prefers short answers", OLD, "PROFILE", 0.2, seen=90),  # stale PROFILE
        row("The bot runs on a Raspberry Pi 5 in the office", None, "KNOWLEDGE", 0.9),
        row("The bot's timezone is UTC for all scheduled tasks", None, "KNOWLEDGE", 0.85),
        row(
            "Scheduled tasks may not post between 22:00 and 07:00", None, "KNOWLEDGE", 0.32, seen=60
        ),  # stale global
        row("Server IP address is 10.0.0.12", None, "KNOWLEDGE", 0.8),
        row(
            "User likes the color blue",
            ALICE,
            "PROFILE",
            0.6,
            seen=100,
            is_archived=1,
            archived_at=at(70),
        ),  # archived by the bot long ago
        row(
            "User used to deploy with Jenkins",
            TEAM,
            "KNOWLEDGE",
            0.5,
            seen=40,
            is_archived=1,
            archived_at=at(10),
        ),
    ]


CAP_ROWS = 198  # with the team's own rows, three over its cap once the duplicate goes


def _cap_rows(now: datetime) -> list[Row]:
    """Enough distinct active rows in the team chat to pass its 200-row cap by a few."""
    services = (
        "billing",
        "search",
        "auth",
        "payments",
        "gateway",
        "ledger",
        "mailer",
        "scheduler",
        "reports",
        "exporter",
        "metrics",
    )
    owners = ("Priya", "Tomás", "Wei", "Amara", "Jonas", "Lena", "Kofi")
    rows = []
    for i in range(CAP_ROWS):
        seen = bot_time(now - timedelta(days=1 + i % 25, hours=i % 24))
        content = (
            f"Host node-{i} runs {services[i % len(services)]} v1.{i} in rack "
            f"r{i % 17}, owned by {owners[i % len(owners)]}"
        )
        rows.append(
            Row(
                content=content,
                category="KNOWLEDGE",
                chat=TEAM,
                confidence=round(0.4 + (i % 50) / 100, 2),
                source="reflector",
                created_at=seen,
                updated_at=seen,
                last_seen_at=seen,
            )
        )
    return rows


def materialize_microclaw_demo(data_dir: Path, now: datetime, reset: bool = False) -> Path:
    """Create the demo data dir (first use, or again with `reset`); returns `data_dir`.

    Reset removes only what the demo wrote: the database, our journal, the demo's files."""
    db = database_path(data_dir)
    if reset:
        shutil.rmtree(journal_home(data_dir), ignore_errors=True)
        for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            path.unlink(missing_ok=True)
        for name in DEMO_FILES:
            (groups_dir(data_dir) / name).unlink(missing_ok=True)
    if db.exists():
        return data_dir
    for name, text in DEMO_FILES.items():
        path = groups_dir(data_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"))
    conn = create(db)
    try:
        ids = insert(conn, _rows(now) + _cap_rows(now), [ALICE, TEAM, WEB, OLD])
        day = bot_time(now - timedelta(days=10))
        conn.execute("BEGIN")
        add_edge(conn, ids[24], ids[13], "update", day)  # Jenkins, superseded by Argo CD
        add_edge(conn, ids[23], ids[0], "operator", day)  # the colour, archived by hand
        add_triple(conn, ("Alice", "lives_in", "Tokyo"), ALICE, day)
        add_triple(conn, ("Alice", "works_on", "billing service"), ALICE, day)
        add_triple(conn, ("production database", "port", "5433"), TEAM, day)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return data_dir
