"""Reading a MicroClaw data dir: rows as notes, links, file memory, older schemas; broken
databases give one line and are never written; reading goes on while the bot writes."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.contract.store import Store
from core.errors import MicroClawError
from core.stores.microclaw.demo import materialize_microclaw_demo
from core.stores.microclaw.generate import Chat, Row, add_edge, add_triple, generate
from core.stores.microclaw.paths import database_path, resolve_data_dir
from core.stores.microclaw.rules import (
    OUR_SUGGESTION,
    STEP_CHAT_CAP,
    STEP_EXPIRED,
    STEP_STALE,
)
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_support import CHAT, NOW, ago, data_dir_with, simple_rows


def store_of(data_dir: Path, busy_timeout: float = 0.2) -> MicroClawStore:
    return MicroClawStore(data_dir, fixed_clock(NOW), busy_timeout=busy_timeout)


def state(path: Path) -> tuple[str, int, list[str]]:
    """The database's bytes, its mtime, and the files beside it."""
    return (
        hashlib.sha256(path.read_bytes()).hexdigest(),
        path.stat().st_mtime_ns,
        sorted(p.name for p in path.parent.iterdir()),
    )


# -- rows as notes -----------------------------------------------------------------------------


def test_rows_become_notes_with_nuggets_columns_and_their_before_image(tmp_path: Path) -> None:
    old = Chat(42, "", "", "older chat")
    rows = [
        Row(
            "User's name is Alice and she lives in Tokyo",
            "PROFILE",
            CHAT,
            0.95,
            created_at=ago(9),
            updated_at=ago(3),
            last_seen_at=ago(2),
            expires_at=ago(-5),
        ),
        Row("The bot runs on a Pi", chat=None, created_at=ago(9), updated_at=ago(9)),
        Row(
            "Weekly report on Mondays",
            chat=old,
            created_at=ago(9),
            updated_at=ago(9),
            is_archived=1,
            archived_at=ago(1),
        ),
    ]
    graph = store_of(data_dir_with(tmp_path, rows, chats=(CHAT, old))).read()
    first, pi, weekly = graph.notes
    assert [n["nuggetName"] for n in graph.notes] == ["telegram:555", "global", "chat-42"]
    assert first["id"] == "mc-1" and first["type"] == "PROFILE"
    assert first["title"] == "User's name is Alice and she lives in Tokyo"  # whole
    assert first["confidence"] == 0.95 and first["source"] == "reflector"
    assert first["lastAccessedAt"] == ago(2) and first["microclaw"]["expiresAt"] == ago(-5)
    assert first["microclaw"]["row"] == {
        "content": rows[0].content,
        "category": "PROFILE",
        "confidence": 0.95,
        "is_archived": 0,
        "updated_at": ago(3),
        "archived_at": None,
        "expires_at": ago(-5),
        "last_seen_at": ago(2),
    }
    assert pi["scope"] == "global" and pi["microclaw"]["chatId"] is None
    assert weekly["hidden"] is True and weekly["archivedAt"] == ago(1)


def test_a_rows_title_is_its_whole_text_on_one_line(tmp_path: Path) -> None:
    """No store-side cut: a long row keeps its last words (what tells it from its sibling),
    its line breaks and runs of spaces read as one space."""
    texts = [
        "The team deploys with Argo CD from the main branch every weekday at 10:00 UTC",
        "The team deploys with Argo CD from the main branch\n  every weekday  at 16:00 UTC",
    ]
    rows = [Row(text, chat=CHAT, created_at=ago(1)) for text in texts]
    graph = store_of(data_dir_with(tmp_path, rows, chats=(CHAT,))).read()
    assert [n["title"] for n in graph.notes] == [
        texts[0],
        "The team deploys with Argo CD from the main branch every weekday at 16:00 UTC",
    ]
    assert [n["content"] for n in graph.notes] == texts


def test_every_row_of_a_chat_is_in_one_nugget_when_some_lack_the_channel(tmp_path: Path) -> None:
    bare = Chat(7, "", "", "")  # rows the bot has not back-filled yet
    rows = [
        Row("one", chat=bare, created_at=ago(1)),
        Row("two", chat=CHAT, created_at=ago(1)),
        Row("three", chat=Chat(8, "", "", ""), created_at=ago(1)),
    ]
    data_dir = data_dir_with(tmp_path, rows, chats=(CHAT, Chat(8, "discord", "99", "")))
    names = [n["nuggetName"] for n in store_of(data_dir).read().notes]
    assert names == ["telegram:555", "telegram:555", "discord:99"]  # the last from `chats`


def test_supersede_edges_link_both_ways_and_triples_link_their_source_row(tmp_path: Path) -> None:
    data_dir = data_dir_with(tmp_path, simple_rows(3))
    conn = sqlite3.connect(database_path(data_dir))
    add_edge(conn, 1, 2, "duplicate", ago(1))
    add_triple(conn, ("Alice", "lives_in", "Tokyo"), CHAT, ago(1), memory=3)
    conn.commit()
    conn.close()
    shelf = store_of(data_dir).shelf()
    assert [(link["to"], link["reason"]) for link in shelf.note("mc-1")["links"]] == [
        ("mc-2", "superseded by: duplicate")
    ]
    assert [(link["to"], link["reason"]) for link in shelf.note("mc-2")["links"]] == [
        ("mc-1", "supersedes: duplicate")
    ]
    assert [(link["to"], link["reason"]) for link in shelf.note("mc-3")["links"]] == [
        ("kg-1", "knowledge graph: Alice lives_in Tokyo")
    ]
    assert [source["id"] for source, _ in shelf.backlinks("mc-2")] == ["mc-1"]


def test_an_older_schema_reads_what_is_there(tmp_path: Path) -> None:
    data_dir = tmp_path / "old"
    generate(database_path(data_dir), 300, NOW, chats=3, version=12)
    store = store_of(data_dir)
    assert any("schema version 12" in m for m in store.startup_messages())
    graph = store.read()
    assert len(graph.notes) == 300
    assert graph.doc["microclaw"]["knowledgeGraph"] is False
    assert all(n["microclaw"]["expiresAt"] is None for n in graph.notes)
    assert not any(link["to"].startswith("kg-") for n in graph.notes for link in n["links"])
    assert not any(c.detail.startswith("expired") for c in store.plan().result.changes)


def test_the_generated_current_schema_has_every_part(tmp_path: Path) -> None:
    data_dir = tmp_path / "new"
    made = generate(database_path(data_dir), 1000, NOW, chats=5)
    graph = store_of(data_dir).read()
    assert len(graph.notes) == 1000 and graph.doc["microclaw"]["schemaVersion"] == 43
    triples = sum(link["to"].startswith("kg-") for n in graph.notes for link in n["links"])
    assert made["triples"] > 0 and triples == 0  # the bot's triples name no memory row
    kinds = {c.detail.split(":")[0] for c in store_of(data_dir).plan().result.changes}
    assert {STEP_STALE, STEP_EXPIRED, OUR_SUGGESTION} <= kinds


def test_the_store_offers_every_method_of_the_interface(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    members = [name for name in dir(Store) if not name.startswith("_")]
    members += list(Store.__annotations__)
    assert [name for name in members if not hasattr(store, name)] == []
    assert store.graph_path == tmp_path / "runtime" / "microclaw.db"
    assert store.journal_home == tmp_path / "runtime" / "nuggets-review"
    assert store.log() == []


def test_the_data_dir_is_the_named_one_else_home_else_the_older_layout(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    assert resolve_data_dir(tmp_path / "x") == tmp_path / "x"
    assert resolve_data_dir(None, cwd, home) == home / ".microclaw"
    data_dir_with(cwd, simple_rows(1)).rename(cwd / "microclaw.data")
    assert resolve_data_dir(None, cwd, home) == cwd / "microclaw.data"


# -- file memory -------------------------------------------------------------------------------


def test_agents_and_user_files_are_found_per_scope_and_read(tmp_path: Path) -> None:
    data_dir = materialize_microclaw_demo(tmp_path / "demo", NOW)
    store = store_of(data_dir)

    def found(nugget: str) -> list[str]:
        groups = data_dir / "runtime" / "groups"
        return [str(f.path.relative_to(groups)) for f in store.memory_files(nugget)]

    assert found("global") == ["AGENTS.md"]
    assert found("telegram:123456789") == [
        "AGENTS.md",
        "telegram/AGENTS.md",
        "telegram/1/AGENTS.md",
        "telegram/1/USER.md",
    ]
    assert found("chat-42") == ["AGENTS.md", "42/AGENTS.md"]
    user = store.memory_files("telegram:123456789")[-1]
    assert user.name == "USER.md" and "Asia/Tokyo" in store.read_memory_file(user)
    with pytest.raises(MicroClawError, match="no chat 'nope'"):
        store.memory_files("nope")


def test_a_file_memory_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    data_dir = materialize_microclaw_demo(tmp_path / "demo", NOW)
    [agents] = store_of(data_dir).memory_files("global")
    agents.path.unlink()
    agents.path.mkdir()
    with pytest.raises(MicroClawError, match="not a regular file"):
        store_of(data_dir).read_memory_file(agents)


# -- nothing is ever written -------------------------------------------------------------------


@pytest.mark.parametrize("wal", [True, False])
def test_reading_and_planning_leave_the_database_as_it_was(tmp_path: Path, wal: bool) -> None:
    data_dir = data_dir_with(tmp_path, simple_rows(20), wal=wal)
    db = database_path(data_dir)
    before = state(db)
    store = store_of(data_dir)
    store.startup_messages()
    store.plan()
    store.shelf()
    digest, mtime, files = state(db)
    assert (digest, mtime) == before[:2]
    if wal:  # SQLite's own companions for any reader of a WAL database; the log stays empty
        assert set(files) <= {"microclaw.db", "microclaw.db-wal", "microclaw.db-shm"}
        wal_file = db.with_name("microclaw.db-wal")
        assert not wal_file.exists() or wal_file.stat().st_size == 0
    else:
        assert files == before[2]


def broken(tmp_path: Path, kind: str) -> Path:
    data_dir = data_dir_with(tmp_path, simple_rows(400), wal=False)
    db = database_path(data_dir)
    if kind == "not sqlite":
        db.write_text("this is a text file, not a database\n" * 10)
    elif kind == "empty":
        db.write_bytes(b"")
    elif kind == "truncated":
        db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    elif kind == "short header":
        db.write_bytes(db.read_bytes()[:40])
    else:
        conn = sqlite3.connect(db)
        conn.executescript(
            {
                "no memories": "DROP TABLE memories;",
                "no edges": "DROP TABLE memory_supersede_edges;",
                "no content column": "ALTER TABLE memories DROP COLUMN content;",
                "newer schema": "UPDATE db_meta SET value = '44';",
                "odd schema": "UPDATE db_meta SET value = 'forty-three';",
                "confidence declared text": "ALTER TABLE memories RENAME COLUMN confidence TO c;"
                "ALTER TABLE memories ADD COLUMN confidence TEXT;",
            }[kind]
        )
        conn.close()
    return data_dir


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("not sqlite", "is not an SQLite database"),
        ("empty", "is cut short"),
        ("short header", "is cut short"),
        ("truncated", "truncated"),
        ("no memories", "has no memories table"),
        ("no edges", "has no memory_supersede_edges table, which schema 43 has"),
        ("no content column", "table memories has no column content"),
        ("newer schema", "schema version 44 is newer than the 43 this tool knows"),
        ("odd schema", "schema_version 'forty-three', which is not a number"),
        ("confidence declared text", "column memories.confidence is declared TEXT, not REAL"),
    ],
)
def test_a_broken_database_is_one_line_and_left_untouched(
    tmp_path: Path, kind: str, message: str
) -> None:
    data_dir = broken(tmp_path, kind)
    db = database_path(data_dir)
    before = state(db)
    store = store_of(data_dir)
    assert store.startup_messages() == []  # reported by the command that reads it
    with pytest.raises(MicroClawError) as caught:
        store.plan()
    text = str(caught.value)
    assert message in text and "\n" not in text and str(db) in text
    assert state(db) == before


def _without_not_null_content(db: Path) -> None:
    """The table as a hand-made or damaged schema may have it: content may be NULL."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'content TEXT NOT NULL', "
        "'content TEXT') WHERE name = 'memories'"
    )
    conn.execute("PRAGMA writable_schema = OFF")
    conn.close()


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        ("content = NULL", "7: content is NULL"),
        ("content = x'00ff'", "7: content holds bytes data, not text"),
        ("confidence = 'high'", "7: confidence is 'high', not a number"),
        ("chat_id = 'x'", "7: chat_id is 'x', not a whole number"),
    ],
)
def test_a_row_the_store_cannot_handle_is_named_in_one_line_and_every_other_row_works(
    tmp_path: Path, edit: str, named: str
) -> None:
    data_dir = data_dir_with(tmp_path, simple_rows(12))
    db = database_path(data_dir)
    _without_not_null_content(db)
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE memories SET confidence = 0.1, last_seen_at = ? WHERE id IN (3, 7)", (ago(60),)
    )
    conn.execute(f"UPDATE memories SET {edit} WHERE id = 7")
    conn.commit()
    conn.close()
    store = store_of(data_dir)
    assert {n["id"] for n in store.read().notes} == {f"mc-{i}" for i in range(1, 13) if i != 7}
    [line] = [n for n in store.take_notices() if "skipped" in n]
    assert named in line and str(db) in line
    plan = store.plan()
    assert [op.note_id for op in plan.operations] == ["mc-3"]  # the stale row 7 is left alone
    assert store.apply(plan) is not None
    conn = sqlite3.connect(db)
    assert dict(conn.execute("SELECT id, is_archived FROM memories WHERE id IN (3, 7)")) == {
        3: 1,
        7: 0,
    }
    conn.close()


def test_a_missing_database_names_the_data_dir_option(tmp_path: Path) -> None:
    with pytest.raises(MicroClawError, match="no MicroClaw database here .* --microclaw DIR"):
        store_of(tmp_path).read()


def test_a_database_locked_by_a_writer_is_one_line_and_nothing_is_read(tmp_path: Path) -> None:
    data_dir = data_dir_with(tmp_path, simple_rows(5), wal=False)
    db = database_path(data_dir)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE memories SET confidence = 0.1")
    try:
        with pytest.raises(MicroClawError, match="is locked by another program") as caught:
            store_of(data_dir, busy_timeout=0.05).read()
        assert "\n" not in str(caught.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert len(store_of(data_dir).read().notes) == 5


def test_is_stale_sees_a_row_the_bot_changed_since_the_plan(tmp_path: Path) -> None:
    rows = simple_rows(3)
    rows[1].confidence, rows[1].last_seen_at = 0.1, ago(60)
    data_dir = data_dir_with(tmp_path, rows)
    store = store_of(data_dir)
    plan = store.plan()
    assert [d.note_id for d in plan.notes] == ["mc-2"] and not store.is_stale(plan)
    conn = sqlite3.connect(database_path(data_dir))
    conn.execute("UPDATE memories SET confidence = 0.1 WHERE id = 3")  # another row: fine
    conn.commit()
    assert not store.is_stale(plan)
    conn.execute(
        "UPDATE memories SET last_seen_at = ?, updated_at = ? WHERE id = 2", (ago(0), ago(0))
    )
    conn.commit()
    conn.close()
    assert store.is_stale(plan)


# -- the bot keeps writing ---------------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
    deadline = time.time() + float(sys.argv[2])
    i = 0
    while time.time() < deadline:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO memories (chat_id, content, category, created_at, updated_at,"
                     " confidence, source, last_seen_at, is_archived) VALUES (7, ?, 'EVENT',"
                     " '2026-11-24T08:00:00+00:00', '2026-11-24T08:00:00+00:00', 0.7, 'reflector',"
                     " '2026-11-24T08:00:00+00:00', 0)", (f"writer row {i}",))
        conn.execute("UPDATE memories SET last_seen_at = ? WHERE id = 1", (str(i),))
        conn.execute("COMMIT")
        i += 1
    print(i)
""")


def test_reading_goes_on_while_another_process_writes(tmp_path: Path) -> None:
    data_dir = data_dir_with(tmp_path, simple_rows(200))
    store = store_of(data_dir, busy_timeout=2)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(database_path(data_dir)), "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    counts = []
    try:
        time.sleep(0.3)
        while writer.poll() is None:
            graph = store.read()
            ids = [n["microclaw"]["rowId"] for n in graph.notes]
            assert ids == sorted(ids) and ids[:200] == list(range(1, 201))
            counts.append(len(ids))
            store.plan()
    finally:
        written = int(writer.communicate(timeout=30)[0])
    assert counts == sorted(counts) and len(counts) >= 2 and written > 0
    assert len(store.read().notes) == 200 + written


def test_is_stale_checks_rows_in_chunks_of_a_bounded_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = simple_rows(25)
    for stale_row in rows:
        stale_row.confidence, stale_row.last_seen_at = 0.1, ago(60)
    data_dir = data_dir_with(tmp_path, rows)
    monkeypatch.setattr("core.stores.microclaw.store.CHUNK", 7)
    store = store_of(data_dir)
    plan = store.plan()
    assert len(plan.notes) == 25 and not store.is_stale(plan)
    conn = sqlite3.connect(database_path(data_dir))
    conn.execute("UPDATE memories SET content = 'changed' WHERE id = 23")
    conn.commit()
    conn.close()
    assert store.changed_rows({d.note_id: d.before["microclaw"]["row"] for d in plan.notes}) == [
        "mc-23"
    ]


# -- the demo ----------------------------------------------------------------------------------


def demo_dump(data_dir: Path) -> list[tuple]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return [
            *conn.execute("SELECT * FROM memories"),
            *conn.execute("SELECT * FROM memory_supersede_edges"),
            *conn.execute("SELECT * FROM knowledge_graph"),
        ]
    finally:
        conn.close()


def test_the_demo_shows_every_rule_and_is_the_same_for_the_same_clock(tmp_path: Path) -> None:
    first = materialize_microclaw_demo(tmp_path / "one", NOW)
    second = materialize_microclaw_demo(tmp_path / "two", NOW)
    assert demo_dump(first) == demo_dump(second)
    plan = store_of(first).plan()
    rules = [(c.type, c.note_id, c.detail.split(":")[0]) for c in plan.result.changes]
    assert rules == [
        ("keep", "mc-6", STEP_EXPIRED),
        ("hide", "mc-4", STEP_STALE),
        ("hide", "mc-19", STEP_STALE),
        ("hide", "mc-22", STEP_STALE),
        ("hide", "mc-9", OUR_SUGGESTION),
        ("hide", "mc-15", OUR_SUGGESTION),
        ("hide", "mc-176", STEP_CHAT_CAP),
        ("hide", "mc-126", STEP_CHAT_CAP),
        ("hide", "mc-76", STEP_CHAT_CAP),
        ("hide", "mc-26", STEP_CHAT_CAP),
    ]
    assert plan.unkept_by_default == [1, 5, 6, 7, 8, 9, 10]
    shelf = store_of(first).shelf()
    assert {n.name: n.hidden for n in shelf.nuggets()} == {
        "chat-42": 0,
        "discord:987654321012": 1,
        "global": 0,
        "telegram:123456789": 1,
        "web:web-7f3a": 0,
    }
    assert shelf.note("mc-25")["links"][0]["reason"] == "superseded by: update"


def test_the_demo_is_made_once_and_again_on_reset(tmp_path: Path) -> None:
    data_dir = materialize_microclaw_demo(tmp_path / "demo", NOW)
    conn = sqlite3.connect(database_path(data_dir))
    conn.execute("UPDATE memories SET is_archived = 1 WHERE id = 1")
    conn.commit()
    conn.close()
    materialize_microclaw_demo(data_dir, NOW)
    assert store_of(data_dir).shelf().note("mc-1")["hidden"] is True
    materialize_microclaw_demo(data_dir, NOW, reset=True)
    assert store_of(data_dir).shelf().note("mc-1")["hidden"] is False


def test_a_wal_database_is_not_judged_by_the_page_count_in_its_file_header(tmp_path: Path) -> None:
    """While a checkpoint copies the log into a WAL database, its file's header may already
    count pages not yet written there (the log holds them): a live bot's database was refused
    as truncated. Only SQLite's own reads judge a WAL database."""
    data_dir = data_dir_with(tmp_path, simple_rows(30), wal=True)
    db = database_path(data_dir)
    bot = sqlite3.connect(db, isolation_level=None)
    bot.execute("PRAGMA wal_autocheckpoint = 0")  # the new pages stay in the log
    bot.execute(
        "INSERT INTO memories (chat_id, content, category, created_at, updated_at, "
        "last_seen_at) SELECT chat_id, content || ' again', category, created_at, "
        "updated_at, last_seen_at FROM memories"
    )
    bot.execute(
        "INSERT INTO memories (chat_id, content, category, created_at, updated_at, "
        "last_seen_at) SELECT chat_id, hex(randomblob(300)), category, created_at, "
        "updated_at, last_seen_at FROM memories"
    )
    try:
        data = bytearray(db.read_bytes())
        pages = int.from_bytes(data[28:32], "big")
        data[28:32] = (pages + 3).to_bytes(4, "big")  # page 1 copied, the others not yet
        with db.open("r+b") as file:
            file.write(bytes(data[:100]))
        assert len(store_of(data_dir).read().notes) == 120
    finally:
        bot.close()
