"""Our MicroClaw data and rules against the bot's own (MicroClaw at commit ab19255).

The databases here are made with the bot's DDL and insert statements
(core/stores/microclaw/bot_sql.py). What the bot's functions compute is transcribed below from its
source, each with its file and line, and compared with ours; the last tests run the bot's next
tick, its SQL transcribed statement by statement, after our `reflect --apply`.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.stores.microclaw import bot_sql
from core.stores.microclaw.demo import materialize_microclaw_demo
from core.stores.microclaw.generate import Chat, Row, add_triple, create, generate, insert
from core.stores.microclaw.paths import database_path
from core.stores.microclaw.rows import read_graph, rfc3339
from core.stores.microclaw.topics import microclaw_key, microclaw_token_sets
from nuggets_tui.cli import main
from tests.support.microclaw_support import NOW, ago

# The columns of `memories` in a fresh bot's database, in order: the CREATE TABLE of
# crates/microclaw-storage/src/db/mod.rs:162-177, then ensure_memory_schema's expires_at
# (crates/microclaw-storage/src/db/schema.rs:61-63), then migration 20's validity
# (schema.rs:593-598). (name, declared type, NOT NULL, default)
BOT_MEMORY_COLUMNS = [
    ("id", "INTEGER", 0, None),
    ("chat_id", "INTEGER", 0, None),
    ("content", "TEXT", 1, None),
    ("category", "TEXT", 1, None),
    ("created_at", "TEXT", 1, None),
    ("updated_at", "TEXT", 1, None),
    ("embedding_model", "TEXT", 0, None),
    ("confidence", "REAL", 1, "0.70"),
    ("source", "TEXT", 1, "'legacy'"),
    ("last_seen_at", "TEXT", 1, None),
    ("is_archived", "INTEGER", 1, "0"),
    ("archived_at", "TEXT", 0, None),
    ("chat_channel", "TEXT", 0, None),
    ("external_chat_id", "TEXT", 0, None),
    ("expires_at", "TEXT", 0, None),
    ("valid_from", "TEXT", 0, None),
    ("valid_to", "TEXT", 0, None),
]
# mod.rs:178, 283-294; schema.rs:715 (partial), 613-617, 315-318, 141-147
BOT_INDEXES = {
    "idx_memories_chat",
    "idx_memories_active_updated",
    "idx_memories_confidence",
    "idx_memories_chat_active_confidence",
    "idx_memories_expires",
    "idx_kg_subject",
    "idx_kg_object",
    "idx_kg_predicate",
    "idx_kg_chat",
    "idx_kg_valid_range",
    "idx_memory_supersede_from",
    "idx_memory_supersede_to",
    "idx_chats_channel_external",
    "idx_chats_channel_title",
    "idx_messages_chat_timestamp",
}


def _shape(db: Path) -> tuple[list[tuple], set[str]]:
    conn = sqlite3.connect(db)
    try:
        columns = [tuple(r[1:5]) for r in conn.execute("PRAGMA table_info(memories)")]
        indexes = {
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    finally:
        conn.close()
    return columns, indexes


def test_the_generator_makes_memories_with_the_bots_columns_constraints_and_indexes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "runtime" / "microclaw.db"
    generate(db, 200, NOW, chats=3)
    columns, indexes = _shape(db)
    assert columns == [(n, t, nn, d) for n, t, nn, d in BOT_MEMORY_COLUMNS]
    assert indexes >= BOT_INDEXES


def test_the_demo_is_made_with_the_bots_schema(tmp_path: Path) -> None:
    data_dir = materialize_microclaw_demo(tmp_path / "demo", NOW)
    columns, indexes = _shape(database_path(data_dir))
    assert columns == [(n, t, nn, d) for n, t, nn, d in BOT_MEMORY_COLUMNS]
    assert indexes >= BOT_INDEXES


def test_a_row_written_the_bots_way_has_every_time_the_bot_sets(tmp_path: Path) -> None:
    """The bot's insert sets created, updated and last seen to one moment, and its archive
    sets updated_at with archived_at (crates/microclaw-storage/src/db/memory.rs:181-185,
    634-636): a hand-made DDL with a nullable last_seen_at let rows the bot never makes in."""
    chat = Chat(7, "telegram", "555", "a chat")
    db = tmp_path / "microclaw.db"
    conn = create(db)
    try:
        insert(
            conn,
            [
                Row("User likes tea", chat=chat, created_at=ago(9)),
                Row(
                    "User likes coffee",
                    chat=chat,
                    created_at=ago(9),
                    is_archived=1,
                    archived_at=ago(2),
                ),
            ],
            [chat],
        )
        got = conn.execute(
            "SELECT created_at, updated_at, last_seen_at, archived_at, "
            "chat_channel, external_chat_id FROM memories ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    assert got == [
        (ago(9), ago(9), ago(9), None, "telegram", "555"),
        (ago(9), ago(2), ago(9), ago(2), "telegram", "555"),
    ]


# -- times ------------------------------------------------------------------------------------

# chrono's to_rfc3339 (SecondsFormat::AutoSi, offset +00:00): the fraction in groups of three
# digits, as many as the value needs.
CHRONO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?\+00:00$")


@pytest.mark.parametrize(
    ("micros", "written"),
    [
        (123456, "2026-11-24T09:00:00.123456+00:00"),
        (120000, "2026-11-24T09:00:00.120+00:00"),
        (0, "2026-11-24T09:00:00+00:00"),
        (5, "2026-11-24T09:00:00.000005+00:00"),
    ],
)
def test_times_are_written_as_chrono_prints_them(micros: int, written: str) -> None:
    assert rfc3339(NOW.replace(microsecond=micros)) == written


def test_every_time_an_apply_and_an_unhide_write_is_in_the_bots_format(tmp_path: Path) -> None:
    data_dir = _bot_data_dir(tmp_path, rows=400)
    now = "2026-11-24T09:00:00.123456Z"
    code, out, err = _run(data_dir, "reflect", "--apply", now=now)
    assert code == 0, err
    conn = sqlite3.connect(database_path(data_dir))
    try:
        ours = conn.execute(
            "SELECT id, archived_at, updated_at FROM memories "
            "WHERE archived_at = '2026-11-24T09:00:00.123456+00:00'"
        ).fetchall()
        assert ours
        code, out, err = _run(data_dir, "unhide", f"mc-{ours[0][0]}", now=now)
        assert code == 0, err
        row = conn.execute(
            "SELECT last_seen_at, updated_at FROM memories WHERE id = ?", (ours[0][0],)
        ).fetchone()
    finally:
        conn.close()
    assert all(CHRONO.match(t) for t in row) and row[0] == "2026-11-24T09:00:00.123456+00:00"
    assert all(CHRONO.match(t) for _, a, u in ours for t in (a, u))


# -- the topic key and the Jaccard ---------------------------------------------------------------


def rust_is_whitespace(c: str) -> bool:
    """Rust's char::is_whitespace (Unicode White_Space)."""
    return c in (
        "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
        "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
    )


def rust_split_whitespace(text: str) -> list[str]:
    words, word = [], ""
    for c in text:
        if rust_is_whitespace(c):
            if word:
                words.append(word)
            word = ""
        else:
            word += c
    return [*words, word] if word else words


def bot_memory_topic_key(content: str) -> str:
    """crates/microclaw-storage/src/memory_quality.rs:92-117, transcribed (its
    `char::is_alphanumeric` read as str.isalnum, which agrees on every text of TEXTS; where the
    two differ, on marks, BOT_KEYS holds the keys the bot itself printed)."""
    lower = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in content)
    if "port" in lower and ("db" in lower or "database" in lower):
        return "db_port"
    if "deadline" in lower or "due date" in lower:
        return "deadline"
    if "timezone" in lower or "time zone" in lower:
        return "timezone"
    if "server ip" in lower or "ip address" in lower:
        return "server_ip"
    words = ["".join(c for c in w if c.isalnum()) for w in rust_split_whitespace(lower)]
    return "_".join([w for w in words if w][:4])


def bot_jaccard_similar(a: str, b: str, threshold: float) -> bool:
    """src/memory_service.rs:90-99, transcribed."""
    a_words, b_words = set(rust_split_whitespace(a)), set(rust_split_whitespace(b))
    intersection = len(a_words & b_words)
    union = len(a_words) + len(b_words) - intersection
    if union == 0:
        return True
    return intersection / union >= threshold


TEXTS = [
    "Production database port is 5433",
    "ÄRGER über Äpfel im Büro",
    "İstanbul office opens",
    "User's ΣΟΦΙΑ project",
    "KELVIN \u212a scale",
    "a\x1cb c d e",
    "  ",
    "",
    "Release deadline is Friday",
    "Server IP is 10.0.0.1",
    "A B C D E F",
    "naïve Café owner",
    "STRASSE ß Straße",
    "port of DB",
    "x\u00a0y z",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_topic_key_is_the_bots(text: str) -> None:
    assert microclaw_key(text) == bot_memory_topic_key(text)


@pytest.mark.parametrize("texts", [TEXTS, [t for t in TEXTS if "\x1c" not in t]])
def test_the_words_of_the_bots_jaccard_are_its_whitespace_split(texts: list[str]) -> None:
    """Whether or not one text of a chat holds U+001C, every text splits as Rust's does."""
    assert microclaw_token_sets(texts) == [frozenset(rust_split_whitespace(t)) for t in texts]


# The bot's own keys, printed by its memory_topic_key compiled and run (MicroClaw ab19255):
# Devanagari vowel signs (U+093F, U+093E, U+0947, U+0948: Other_Alphabetic) stay, the nukta
# (U+093C) and a combining acute go; Python's str.isalnum drops all of them.
BOT_KEYS = [
    (
        "\u0915\u093f\u0924\u093e\u092c \u092e\u0947\u091c\u093c \u092a\u0930 \u0939\u0948",
        "\u0915\u093f\u0924\u093e\u092c_\u092e\u0947\u091c_\u092a\u0930_\u0939\u0948",
    ),
    ("Stra\u00dfe", "stra\u00dfe"),
    ("\u00dcn\u00efcode", "\u00dcn\u00efcode"),
    ("\u00fcN\u00cfCODE", "\u00fcn\u00cfcode"),
    ("\u7528\u6237 \u559c\u6b22 \u559d\u8336", "\u7528\u6237_\u559c\u6b22_\u559d\u8336"),
]


@pytest.mark.parametrize(("text", "key"), BOT_KEYS)
def test_the_topic_key_is_the_one_the_bot_printed(text: str, key: str) -> None:
    assert microclaw_key(text) == key


def test_the_topic_key_keeps_marks_rust_calls_alphabetic() -> None:
    """Rust's is_alphanumeric is Alphabetic (with its marks) or Numeric: a Tamil vowel sign
    and a circled letter stay, a combining acute and a nukta go."""
    assert microclaw_key("\u0b95\u0bbe x") == "\u0b95\u0bbe_x"
    assert microclaw_key("\u24b6\u24b7 e\u0301 \u091c\u093c") == "\u24b6\u24b7_e_\u091c"


def test_the_topic_key_lowers_ascii_only() -> None:
    assert microclaw_key("ÄRGER über Äpfel im Büro") == "Ärger_über_Äpfel_im"
    assert microclaw_key("a\x1cb c d e") == "ab_c_d_e"  # U+001C is no whitespace in Rust


def test_rows_differing_in_punctuation_are_a_duplicate_set_not_a_contradiction(
    tmp_path: Path,
) -> None:
    """docs/VERDICTS.md: the queue folds case and punctuation for every store. The bot's
    reflector compares the texts as stored and would call these two a conflict; the queue
    shows them as the copies they are."""
    chat = Chat(7, "telegram", "555", "a chat")
    data_dir = tmp_path / "mc"
    conn = create(database_path(data_dir))
    try:
        insert(
            conn,
            [
                Row("Production DB port is 5432.", chat=chat, created_at=ago(3)),
                Row("production db port is 5432!", chat=chat, created_at=ago(2)),
            ],
            [chat],
        )
    finally:
        conn.close()
    code, out, err = _run(data_dir, "conflicts")
    assert code == 0, err
    assert "duplicate" in out.lower() and "db_port" in out


def _conflicts_of(tmp_path: Path, first: str, second: str) -> str:
    chat = Chat(7, "telegram", "555", "a chat")
    data_dir = tmp_path / "mc"
    conn = create(database_path(data_dir))
    try:
        insert(
            conn,
            [Row(first, chat=chat, created_at=ago(3)), Row(second, chat=chat, created_at=ago(2))],
            [chat],
        )
    finally:
        conn.close()
    code, out, err = _run(data_dir, "conflicts")
    assert code == 0, err
    return out


def bot_eq_ignore_ascii_case(a: str, b: str) -> bool:
    """str::eq_ignore_ascii_case (library core, str/mod.rs): the same byte length and every
    byte equal once A-Z are lowered; any other byte must be identical."""
    left, right = a.encode(), b.encode()
    lower = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
    return len(left) == len(right) and left.translate(lower) == right.translate(lower)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Straße deadline is Friday", "STRASSE DEADLINE IS FRIDAY"),
        ("Ünïcode deadline is Friday", "üNÏCODE DEADLINE IS FRIDAY"),
        ("Die Frist endet am Freitag in München", "DIE FRIST ENDET AM FREITAG IN MÜNCHEN"),
    ],
)
def test_rows_differing_in_non_ascii_case_are_no_duplicate_set_as_for_the_bot(
    tmp_path: Path, first: str, second: str
) -> None:
    """The bot lowers A-Z alone and compares bytes (eq_ignore_ascii_case, its reflector's
    conflict test and should_merge_duplicate, src/memory_service.rs:144-159,825-856): these
    rows are no copies for it, and the word Jaccard, case-sensitive, is far below 0.85. Python's
    casefold would call them the same (the queue offered to merge them); the queue folds as the
    bot does, so they are no duplicate set. Nor do they disagree (no value differs): at most
    two positions of one group, never a set to merge."""
    assert not bot_eq_ignore_ascii_case(first, second)
    assert first.casefold() == second.casefold()
    out = _conflicts_of(tmp_path, first, second)
    assert "duplicate" not in out.lower()


def test_rows_differing_in_ascii_case_only_stay_a_duplicate_set(tmp_path: Path) -> None:
    """A-Z case is what the bot folds too: `Café …` and `CAFé …` are ASCII-equal for it."""
    first, second = "Café deadline is Friday", "CAFé DEADLINE IS FRIDAY"
    assert bot_eq_ignore_ascii_case(first, second)
    out = _conflicts_of(tmp_path, first, second)
    assert "duplicate" in out.lower()


# -- the knowledge graph --------------------------------------------------------------------------


def test_triples_the_bot_inserts_link_to_no_row(tmp_path: Path) -> None:
    """Every production insert of a triple leaves source_memory_id NULL (src/scheduler.rs:2152,
    src/tools/knowledge_graph.rs:249-258): nothing relates a triple to a row, so no link is
    made; a hand-set source_memory_id still links."""
    chat = Chat(7, "telegram", "555", "a chat")
    db = tmp_path / "microclaw.db"
    conn = create(db)
    try:
        ids = insert(conn, [Row("Alice lives in Tokyo", chat=chat, created_at=ago(3))], [chat])
        conn.execute("BEGIN")
        add_triple(conn, ("Alice", "lives_in", "Tokyo"), chat, ago(3))
        add_triple(conn, ("Alice", "works_on", "billing"), chat, ago(3), memory=ids[0])
        conn.execute("COMMIT")
        stored = conn.execute(
            "SELECT source_memory_id, confidence, source FROM knowledge_graph ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    assert stored[0] == (None, 0.72, "reflector")
    links = read_graph(db).notes[0]["links"]
    assert [link["to"] for link in links] == ["kg-2"]


# -- our apply, then the bot's next tick -------------------------------------------------------

TICK_NOW = datetime(2026, 11, 24, 9, 0, 0, 250000, tzinfo=UTC)


def _run(data_dir: Path, *args: str, now: str = "2026-11-24T09:00:00.250Z") -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main,
        ["--microclaw", str(data_dir), *args],
        env={"NUGGETS_NOW": now, "NUGGETS_JOURNAL_KEEP": "100", "MICROCLAW_CONFIG": ""},
    )
    return result.exit_code, result.stdout, result.stderr


def _bot_data_dir(tmp_path: Path, rows: int = 6000, consolidation: bool = False) -> Path:
    """A data dir made the bot's way: its DDL, its inserts (6000 rows: 600 global, past the
    global cap), and messages (its store_message): chats 1000 and 1001 idle for two days,
    chat 1002 last spoken to an hour ago."""
    data_dir = tmp_path / "mc"
    db = database_path(data_dir)
    generate(db, rows, TICK_NOW, chats=4)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for n, (chat, hours) in enumerate(((1000, 48), (1001, 50), (1002, 1))):
            conn.execute(
                bot_sql.INSERT_MESSAGE,
                (f"m{n}", chat, "Alice", "hello", 0, rfc3339(TICK_NOW - timedelta(hours=hours))),
            )
    finally:
        conn.close()
    if consolidation:
        (data_dir / "microclaw.config.yaml").write_text("sleep_time:\n  enabled: true\n")
    return data_dir


def bot_tick(db: Path, now: datetime, consolidation: bool) -> set[int]:
    """The bot's next run over the database: its reflector tick (src/scheduler.rs:1789-1850;
    no chat is active, so no per-chat cap), then, when enabled, one sleep-time consolidation
    pass (src/scheduler.rs:1314-1407). Each statement is the bot's; the ids it deleted."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        at = rfc3339(now)
        # archive_stale_memories(30): crates/microclaw-storage/src/db/memory.rs:642-657
        conn.execute(
            """UPDATE memories
             SET is_archived = 1, archived_at = ?1, updated_at = ?1
             WHERE is_archived = 0
               AND confidence < 0.35
               AND COALESCE(last_seen_at, updated_at, created_at) < ?2""",
            (at, rfc3339(now - timedelta(days=30))),
        )
        expired = {
            r[0]
            for r in conn.execute(
                "SELECT id FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?1", (at,)
            )
        }
        # prune_expired_memories: memory.rs:356-363 (scheduler.rs:1797-1799)
        conn.execute(
            "DELETE FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?1", (at,)
        )
        # archive_excess_memories(None, 500): memory.rs:660-709 (scheduler.rs:1836-1849)
        count = conn.execute(
            "SELECT COUNT(*) FROM memories WHERE is_archived = 0 AND chat_id IS NULL"
        ).fetchone()[0]
        if count > 500:
            conn.execute(
                """UPDATE memories SET is_archived = 1, archived_at = ?1, updated_at = ?1
                 WHERE is_archived = 0 AND chat_id IS NULL
                   AND id IN (
                     SELECT id FROM memories
                     WHERE is_archived = 0 AND chat_id IS NULL
                     ORDER BY confidence ASC, COALESCE(last_seen_at, updated_at, created_at) ASC
                     LIMIT ?2
                   )""",
                (at, count - 500),
            )
        if consolidation:
            _consolidation_pass(conn, now)
    finally:
        conn.close()
    return expired


def _consolidation_pass(conn: sqlite3.Connection, now: datetime) -> None:
    at = rfc3339(now)
    # list_idle_chats: crates/microclaw-storage/src/db/chats.rs:647-660 (6 hours, 100 chats)
    chats = [
        r[0]
        for r in conn.execute(
            """SELECT chat_id FROM messages
             GROUP BY chat_id
             HAVING MAX(timestamp) < ?1
             LIMIT ?2""",
            (rfc3339(now - timedelta(hours=6)), 100),
        )
    ]
    for chat in chats:
        # get_all_memories_for_chat: memory.rs:245-250
        rows = conn.execute(
            """SELECT id, chat_id, content, category, created_at, updated_at, embedding_model,
                    confidence, source, last_seen_at, is_archived, archived_at, expires_at
             FROM memories
             WHERE (chat_id = ?1 OR (?1 IS NULL AND chat_id IS NULL))""",
            (chat,),
        ).fetchall()  # noqa: E501
        # scheduler.rs:1353-1368: active, not expired, confidence then last seen, descending
        active = [r for r in rows if not r[10] and (r[12] is None or r[12] > at)]
        active.sort(key=lambda r: r[9] or "", reverse=True)
        active.sort(key=lambda r: r[7], reverse=True)
        kept: list[tuple] = []
        archive: list[int] = []
        # select_duplicate_memories_to_archive: src/memory_service.rs:116-141 (0.82, 20)
        for item in active:
            if item[3] == "PROFILE":
                kept.append(item)
                continue
            if any(k[3] == item[3] and bot_jaccard_similar(k[2], item[2], 0.82) for k in kept):
                archive.append(item[0])
                if len(archive) >= 20:
                    break
            else:
                kept.append(item)
        for row_id in archive:  # archive_memory: memory.rs:630-640
            conn.execute(bot_sql.ARCHIVE, (at, row_id))


def _state(db: Path) -> dict[int, int]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute("SELECT id, is_archived FROM memories").fetchall())
    finally:
        conn.close()


def _images(db: Path) -> dict[int, tuple]:
    conn = sqlite3.connect(db)
    try:
        return {
            r[0]: r[1:]
            for r in conn.execute(
                "SELECT id, content, category, confidence, is_archived, expires_at FROM memories"
            )
        }
    finally:
        conn.close()


@pytest.mark.parametrize(
    "consolidation",
    [
        pytest.param(False, id="default"),
        pytest.param(True, id="consolidation", marks=pytest.mark.slow),
    ],
)
def test_our_apply_then_the_bots_tick_is_the_bots_tick_alone(
    tmp_path: Path, consolidation: bool
) -> None:
    data_dir = _bot_data_dir(tmp_path / "ours", consolidation=consolidation)
    db = database_path(data_dir)
    alone = tmp_path / "alone.db"
    shutil.copyfile(db, alone)
    before = _images(db)
    bot_tick(alone, TICK_NOW, consolidation)

    code, out, err = _run(data_dir, "reflect", "--all", "--apply")
    assert code == 0 and "Applied as run" in out, err
    ours = {i for i, archived in _state(db).items() if archived and not before[i][3]}
    assert ours
    deleted = bot_tick(db, TICK_NOW, consolidation)

    after = _state(db)
    assert after == _state(alone)  # the same rows, archived the same: what the bot does alone
    assert all(after[i] == 1 for i in ours)  # every change we applied is still there
    assert deleted and not deleted & ours  # nothing the bot deletes was archived by us

    run_id = out.rsplit("nuggets undo ", 1)[1].strip(" )\n")
    code, out, err = _run(data_dir, "undo", run_id)
    assert code == 0, err
    restored = _images(db)
    assert all(restored[i] == before[i] for i in ours)
