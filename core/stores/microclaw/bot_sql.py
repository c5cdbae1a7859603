"""The bot's own SQL for the databases we make (the generator, the demo, the tests): the DDL a
fresh MicroClaw runs for the tables the engine reads, in the bot's order, and the statements it
writes memory rows with. Transcribed statement by statement from MicroClaw at commit ab19255
(file and line beside each), so a database made here has the bot's column order, NOT NULL
constraints, defaults and indexes. Tables the engine never reads (tasks, sessions, auth, usage,
the message search index) are left out.
"""

from __future__ import annotations

import sqlite3

# crates/microclaw-storage/src/db/mod.rs:54
PRAGMAS = "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"

# crates/microclaw-storage/src/db/mod.rs:57-78 and 162-214 (the first execute_batch of
# Database::new, the memory part of it)
BASE_TABLES = """
CREATE TABLE IF NOT EXISTS chats (
    chat_id INTEGER PRIMARY KEY,
    chat_title TEXT,
    chat_type TEXT NOT NULL DEFAULT 'private',
    last_message_time TEXT NOT NULL,
    channel TEXT,
    external_chat_id TEXT
);

CREATE TABLE IF NOT EXISTS messages (
    id TEXT NOT NULL,
    chat_id INTEGER NOT NULL,
    sender_name TEXT NOT NULL,
    content TEXT NOT NULL,
    is_from_bot INTEGER NOT NULL DEFAULT 0,
    timestamp TEXT NOT NULL,
    PRIMARY KEY (id, chat_id)
);

CREATE INDEX IF NOT EXISTS idx_messages_chat_timestamp
    ON messages(chat_id, timestamp);

CREATE TABLE IF NOT EXISTS memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    embedding_model TEXT,
    confidence REAL NOT NULL DEFAULT 0.70,
    source TEXT NOT NULL DEFAULT 'legacy',
    last_seen_at TEXT NOT NULL,
    is_archived INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    chat_channel TEXT,
    external_chat_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_memories_chat ON memories(chat_id);

CREATE TABLE IF NOT EXISTS memory_reflector_state (
    chat_id INTEGER PRIMARY KEY,
    last_reflected_ts TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS memory_reflector_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    extracted_count INTEGER NOT NULL DEFAULT 0,
    inserted_count INTEGER NOT NULL DEFAULT 0,
    updated_count INTEGER NOT NULL DEFAULT 0,
    skipped_count INTEGER NOT NULL DEFAULT 0,
    dedup_method TEXT NOT NULL,
    parse_ok INTEGER NOT NULL DEFAULT 1,
    error_text TEXT
);
CREATE INDEX IF NOT EXISTS idx_memory_reflector_runs_chat_started
    ON memory_reflector_runs(chat_id, started_at);

CREATE TABLE IF NOT EXISTS memory_injection_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    retrieval_method TEXT NOT NULL,
    candidate_count INTEGER NOT NULL DEFAULT 0,
    selected_count INTEGER NOT NULL DEFAULT 0,
    omitted_count INTEGER NOT NULL DEFAULT 0,
    tokens_est INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS idx_memory_injection_logs_chat_created
    ON memory_injection_logs(chat_id, created_at);
"""

# crates/microclaw-storage/src/db/schema.rs:141-150 (ensure_chat_identity_schema's indexes;
# its ALTERs and UPDATEs change nothing on a fresh database)
CHAT_INDEXES = """
CREATE INDEX IF NOT EXISTS idx_chats_channel_external
    ON chats(channel, external_chat_id);
CREATE INDEX IF NOT EXISTS idx_chats_channel_title
    ON chats(channel, chat_title);
"""

# crates/microclaw-storage/src/db/schema.rs:61-63 (ensure_memory_schema: the one column a fresh
# `memories` lacks; a bot older than schema 24 did not add it)
ADD_EXPIRES_AT = "ALTER TABLE memories ADD COLUMN expires_at TEXT"

# crates/microclaw-storage/src/db/mod.rs:283-299
MEMORY_INDEXES = """
CREATE INDEX IF NOT EXISTS idx_memories_active_updated ON memories(is_archived, updated_at);
CREATE INDEX IF NOT EXISTS idx_memories_confidence ON memories(confidence);
CREATE INDEX IF NOT EXISTS idx_memories_chat_active_confidence ON memories(chat_id, is_archived, confidence, last_seen_at);
CREATE TABLE IF NOT EXISTS db_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""  # noqa: E501 - one statement, as the bot writes it

# crates/microclaw-storage/src/db/schema.rs:231-251 (set_schema_version)
SET_VERSION = """INSERT INTO db_meta(key, value) VALUES('schema_version', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value"""
MIGRATIONS_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            applied_at TEXT NOT NULL,
            note TEXT
        )"""
LOG_MIGRATION = """INSERT OR REPLACE INTO schema_migrations(version, applied_at, note)
         VALUES(?1, ?2, ?3)"""

# The migrations that touch the tables the engine reads, by the version that adds them.
MIGRATIONS: dict[int, str] = {
    # crates/microclaw-storage/src/db/schema.rs:306-319
    4: """CREATE TABLE IF NOT EXISTS memory_supersede_edges (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            from_memory_id INTEGER NOT NULL,
            to_memory_id INTEGER NOT NULL,
            reason TEXT,
            created_at TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS idx_memory_supersede_from
            ON memory_supersede_edges(from_memory_id, created_at);
        CREATE INDEX IF NOT EXISTS idx_memory_supersede_to
            ON memory_supersede_edges(to_memory_id, created_at);""",
    # crates/microclaw-storage/src/db/schema.rs:591-617
    20: """ALTER TABLE memories ADD COLUMN valid_from TEXT;
        ALTER TABLE memories ADD COLUMN valid_to TEXT;
        CREATE TABLE IF NOT EXISTS knowledge_graph (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            subject TEXT NOT NULL,
            predicate TEXT NOT NULL,
            object TEXT NOT NULL,
            chat_id INTEGER,
            valid_from TEXT NOT NULL,
            valid_to TEXT,
            confidence REAL NOT NULL DEFAULT 0.70,
            source TEXT NOT NULL DEFAULT 'reflector',
            source_memory_id INTEGER,
            created_at TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS idx_kg_subject ON knowledge_graph(subject);
        CREATE INDEX IF NOT EXISTS idx_kg_object ON knowledge_graph(object);
        CREATE INDEX IF NOT EXISTS idx_kg_predicate ON knowledge_graph(predicate);
        CREATE INDEX IF NOT EXISTS idx_kg_chat ON knowledge_graph(chat_id);
        CREATE INDEX IF NOT EXISTS idx_kg_valid_range ON knowledge_graph(valid_from, valid_to);""",
    # crates/microclaw-storage/src/db/schema.rs:707-721 (expires_at exists already: added above)
    24: """CREATE INDEX IF NOT EXISTS idx_memories_expires ON memories(expires_at)
             WHERE expires_at IS NOT NULL;""",
}

# -- the statements the bot writes rows with ------------------------------------------------------

# crates/microclaw-storage/src/db/chats.rs:94-95 (resolve_or_create_chat_id, a new chat)
INSERT_CHAT = """INSERT INTO chats(chat_id, chat_title, chat_type, last_message_time, channel, external_chat_id)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6)"""  # noqa: E501
# crates/microclaw-storage/src/db/chats.rs:113-114 (store_message)
INSERT_MESSAGE = """INSERT OR REPLACE INTO messages (id, chat_id, sender_name, content, is_from_bot, timestamp)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)"""  # noqa: E501
# crates/microclaw-storage/src/db/memory.rs:166, 181-185 (insert_memory_with_metadata; the chat's
# channel and external id are read from `chats` first)
CHAT_IDENTITY = "SELECT channel, external_chat_id FROM chats WHERE chat_id = ?1"
INSERT_MEMORY = """INSERT INTO memories (
                chat_id, content, category, created_at, updated_at, embedding_model,
                confidence, source, last_seen_at, is_archived, archived_at,
                chat_channel, external_chat_id
            ) VALUES (?1, ?2, ?3, ?4, ?4, NULL, ?5, ?6, ?4, 0, NULL, ?7, ?8)"""
# crates/microclaw-storage/src/db/memory.rs:400-411 (update_memory_with_metadata: the reflector
# saving a row again)
UPDATE_MEMORY = """UPDATE memories
             SET content = ?1,
                 category = ?2,
                 updated_at = ?3,
                 embedding_model = NULL,
                 confidence = ?4,
                 source = ?5,
                 last_seen_at = ?3,
                 is_archived = 0,
                 archived_at = NULL
             WHERE id = ?6"""
# crates/microclaw-storage/src/db/memory.rs:347 (set_memory_expires_at)
SET_EXPIRES_AT = "UPDATE memories SET expires_at = ?1 WHERE id = ?2"
# crates/microclaw-storage/src/db/memory.rs:623 (touch_memory_last_seen, no floor)
TOUCH_LAST_SEEN = "UPDATE memories SET last_seen_at = ?1 WHERE id = ?2"
# crates/microclaw-storage/src/db/memory.rs:634-636 (archive_memory)
ARCHIVE = """UPDATE memories
             SET is_archived = 1, archived_at = ?1, updated_at = ?1
             WHERE id = ?2"""
# crates/microclaw-storage/src/db/memory.rs:759-760 (supersede_memory's edge)
INSERT_EDGE = """INSERT INTO memory_supersede_edges(from_memory_id, to_memory_id, reason, created_at)
             VALUES(?1, ?2, ?3, ?4)"""  # noqa: E501
# crates/microclaw-storage/src/db/memory.rs:785-786 (kg_insert_triple)
INSERT_TRIPLE = """INSERT INTO knowledge_graph (subject, predicate, object, chat_id, valid_from, valid_to, confidence, source, source_memory_id, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?7, ?8, ?9)"""  # noqa: E501


def clamp(value: float) -> float:
    """Rust's `f64::clamp(0.0, 1.0)`, as the bot applies it to every confidence it writes."""
    return min(max(value, 0.0), 1.0)


def create_schema(conn: sqlite3.Connection, version: int, applied_at: str) -> None:
    """The bot's tables as a fresh bot at schema `version` makes them (Database::new, then
    apply_schema_migrations up to `version`), on an autocommit connection."""
    conn.executescript(PRAGMAS)
    conn.executescript(BASE_TABLES + CHAT_INDEXES)
    if version >= 24:
        conn.execute(ADD_EXPIRES_AT)
    conn.executescript(MEMORY_INDEXES)
    for step in range(1, version + 1):
        if step in MIGRATIONS:
            conn.executescript(MIGRATIONS[step])
        conn.execute(SET_VERSION, (str(step),))
        conn.execute(MIGRATIONS_TABLE)
        conn.execute(LOG_MIGRATION, (step, applied_at, "applied"))
