"""Opening the bot's database for reading, without ever writing it, and checking its shape.

The connection is read-only at every level: a `mode=ro` URI (SQLite refuses any write),
`PRAGMA query_only`, no schema changes, a short busy timeout. The bot keeps the database in WAL
mode, where readers never wait for its writer; a database in rollback-journal mode that the bot
is writing is "locked" for the busy timeout, then reported in one line.

What a read leaves on disk: the database file's bytes and times never change. A WAL database
whose `-wal`/`-shm` companions are absent (the bot is not running) gets them created by SQLite
itself, as for any reader: an empty `-wal` and a 32 KB `-shm` index; a read-only connection may
not remove them, and the bot reuses them when it starts. A rollback-journal database gets none.
Where they cannot be created (a read-only filesystem), the database is read in SQLite's
immutable mode, which needs neither (docs/MICROCLAW.md, "Reading without writing").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from core.errors import FileKindError, MicroClawError
from core.safeio.open_regular import open_regular

KNOWN_SCHEMA = 43  # the newest schema the engine reads and writes
BUSY_TIMEOUT_S = 2.0
HEADER = b"SQLite format 3\x00"

# Columns the engine needs in every schema, and the declared types it accepts for each known
# column (SQLite affinity words). Anything else in the table is kept, never read.
REQUIRED_MEMORY_COLUMNS = ("id", "chat_id", "content", "category", "created_at", "updated_at")
COLUMN_AFFINITIES = {
    "id": "INTEGER",
    "chat_id": "INTEGER",
    "content": "TEXT",
    "category": "TEXT",
    "created_at": "TEXT",
    "updated_at": "TEXT",
    "last_seen_at": "TEXT",
    "embedding_model": "TEXT",
    "confidence": "REAL",
    "source": "TEXT",
    "is_archived": "INTEGER",
    "archived_at": "TEXT",
    "chat_channel": "TEXT",
    "external_chat_id": "TEXT",
    "valid_from": "TEXT",
    "valid_to": "TEXT",
    "expires_at": "TEXT",
}
_LOOSE = {"REAL": "NUMERIC", "INTEGER": "NUMERIC"}  # a NUMERIC column holds numbers too
EDGE_COLUMNS = ("id", "from_memory_id", "to_memory_id", "reason", "created_at")
TRIPLE_COLUMNS = (
    "id",
    "subject",
    "predicate",
    "object",
    "chat_id",
    "valid_from",
    "valid_to",
    "confidence",
    "source",
    "source_memory_id",
    "created_at",
)
EDGES_SINCE = 4  # schema versions that created these tables
TRIPLES_SINCE = 20


@dataclass(frozen=True)
class Shape:
    """What this database holds: its schema version and the columns of the tables we read."""

    version: int
    memory_columns: tuple[str, ...]
    has_edges: bool
    has_triples: bool

    def has(self, column: str) -> bool:
        return column in self.memory_columns


def _affinity(declared: str) -> str:
    """SQLite's type affinity of a declared column type (its documented rules, in order)."""
    word = declared.upper()
    if "INT" in word:
        return "INTEGER"
    if any(w in word for w in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in word or not word:
        return "BLOB"
    if any(w in word for w in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def _head(path: Path) -> tuple[bytes, int]:
    """The first 100 bytes and the size of the database file (a regular file), or an error."""
    import os

    try:
        fd = open_regular(path, None)
    except FileNotFoundError:
        raise MicroClawError(
            f"{path}: no MicroClaw database here (is the data dir right? use --microclaw DIR)"
        ) from None
    except FileKindError as exc:
        raise MicroClawError(str(exc)) from None
    except OSError as exc:
        raise MicroClawError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        return os.read(fd, 100), os.fstat(fd).st_size
    finally:
        os.close(fd)


def check_file(path: Path) -> bool:
    """The database is a regular file that starts like SQLite, else a one-line error; whether
    it is in WAL mode (header bytes 18-19 are 2)."""
    head, size = _head(path)
    if not head.startswith(HEADER[: len(head)]) or (head and len(head) < len(HEADER)):
        raise MicroClawError(f"{path}: is not an SQLite database")
    if len(head) < 100:
        raise MicroClawError(
            f"{path}: is cut short ({size} bytes, less than an SQLite header); it may be truncated"
        )
    return head[18] == 2 or head[19] == 2


def check_size(path: Path) -> None:
    """A rollback-journal database whose header counts more pages than the file holds is
    truncated. Call with a read lock held (no writer is mid-way through the file then). A WAL
    database is not checked this way: a checkpoint may be writing its file while we read (its
    pages are read from the log), and SQLite reports a damaged page when it meets one."""
    head, size = _head(path)
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    header_valid = head[24:28] == head[92:96]
    if header_valid and pages and page * pages > size:
        raise MicroClawError(
            f"{path}: is truncated: its header counts {pages} pages of {page} "
            f"bytes, the file holds {size} bytes"
        )


def _begin_read(uri: str, busy_timeout: float) -> sqlite3.Connection:
    """A read-only connection holding the read lock of one transaction."""
    conn = sqlite3.connect(
        uri, uri=True, timeout=busy_timeout, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("PRAGMA query_only = 1")
        conn.execute("BEGIN")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # takes the read lock
    except BaseException:
        conn.close()
        raise
    return conn


def _companions_absent(path: Path) -> bool:
    return not any(path.with_name(path.name + s).exists() for s in ("-wal", "-shm"))


def immutable_notice(path: Path) -> str:
    return (
        f"{path}: read as an unchanging file (SQLite's immutable mode): its folder cannot "
        "be written, so the WAL index SQLite needs cannot be made; the bot is not running "
        "on it, and nothing can be written"
    )


def _connect_reading(
    path: Path, wal: bool, busy_timeout: float, said: list[str] | None
) -> sqlite3.Connection:
    """The read connection; a WAL database without its -wal/-shm whose folder SQLite cannot
    create them in (a read-only filesystem: the bot is stopped) is read in immutable mode,
    which needs neither, and `said` gets a notice."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        return _begin_read(uri, busy_timeout)
    except sqlite3.OperationalError as exc:
        if not (
            wal
            and getattr(exc, "sqlite_errorname", "") == "SQLITE_CANTOPEN"
            and _companions_absent(path)
        ):
            raise
    conn = _begin_read(uri + "&immutable=1", busy_timeout)
    if said is not None:
        said.append(immutable_notice(path))
    return conn


@contextmanager
def read_only(
    path: Path, busy_timeout: float = BUSY_TIMEOUT_S, said: list[str] | None = None
) -> Iterator[sqlite3.Connection]:
    """A read-only connection inside one read transaction (one consistent snapshot); what
    the reader should know about how it was read goes to `said`."""
    wal = check_file(path)
    try:
        conn = _connect_reading(path, wal, busy_timeout, said)
    except sqlite3.Error as exc:
        raise database_error(path, exc) from None
    try:
        if not wal:
            check_size(path)
        yield conn
    except sqlite3.Error as exc:
        raise database_error(path, exc) from None
    finally:
        try:
            conn.rollback()
        finally:
            conn.close()


def database_error(path: Path, exc: sqlite3.Error) -> MicroClawError:
    """SQLite's complaint as one line that says what to do."""
    text = str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return MicroClawError(
            f"{path}: is locked by another program (the bot writing?); "
            "nothing was read or written - try again in a moment"
        )
    if "not a database" in lowered or "encrypted" in lowered:
        return MicroClawError(f"{path}: is not an SQLite database")
    if "malformed" in lowered or "corrupt" in lowered:
        return MicroClawError(f"{path}: is damaged or truncated ({text}); nothing was written")
    if "unable to open" in lowered:
        return MicroClawError(f"{path}: cannot be opened ({text})")
    return MicroClawError(f"{path}: cannot be read: {text}")


def _columns(conn: sqlite3.Connection, table: str) -> dict[str, str]:
    return {row[1]: row[2] or "" for row in conn.execute(f"PRAGMA table_info({table})")}


def _version(conn: sqlite3.Connection, path: Path, tables: set[str]) -> int:
    if "db_meta" not in tables:
        return 0  # the bot's oldest databases: no migrations recorded yet
    row = conn.execute("SELECT value FROM db_meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        return 0
    try:
        return int(str(row[0]).strip())
    except ValueError:
        raise MicroClawError(
            f"{path}: db_meta holds schema_version {row[0]!r}, which is not a number"
        ) from None


def read_shape(conn: sqlite3.Connection, path: Path) -> Shape:
    """The schema version and columns; a one-line error for what the engine cannot read."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = _version(conn, path, tables)
    if version > KNOWN_SCHEMA:
        raise MicroClawError(
            f"{path}: schema version {version} is newer than the {KNOWN_SCHEMA} "
            "this tool knows; update nuggets before reviewing it"
        )
    if "memories" not in tables:
        raise MicroClawError(f"{path}: has no memories table; not a MicroClaw database?")
    columns = _columns(conn, "memories")
    missing = [c for c in REQUIRED_MEMORY_COLUMNS if c not in columns]
    if missing:
        raise MicroClawError(f"{path}: table memories has no column {', '.join(missing)}")
    for name, declared in columns.items():
        want = COLUMN_AFFINITIES.get(name)
        # Untyped columns take any value; each value is checked as it is read.
        if want and declared and _affinity(declared) not in (want, _LOOSE.get(want)):
            raise MicroClawError(
                f"{path}: column memories.{name} is declared {declared}, not {want}"
            )
    has_edges = _optional_table(
        conn, path, tables, "memory_supersede_edges", EDGE_COLUMNS, version, EDGES_SINCE
    )
    has_triples = _optional_table(
        conn, path, tables, "knowledge_graph", TRIPLE_COLUMNS, version, TRIPLES_SINCE
    )
    return Shape(version, tuple(columns), has_edges, has_triples)


def _optional_table(
    conn: sqlite3.Connection,
    path: Path,
    tables: set[str],
    table: str,
    needed: tuple[str, ...],
    version: int,
    since: int,
) -> bool:
    """Whether a table that newer schemas add is there to read; missing from a schema that
    has it is an error (the database is not what its version says)."""
    if table not in tables:
        if version >= since:
            raise MicroClawError(f"{path}: has no {table} table, which schema {version} has")
        return False
    missing = [c for c in needed if c not in _columns(conn, table)]
    if missing:
        raise MicroClawError(f"{path}: table {table} has no column {', '.join(missing)}")
    return True
