"""Writing rows of the bot's live `microclaw.db`: one short guarded transaction.

The bot owns the database and keeps writing it, so a write here is one `BEGIN IMMEDIATE`
transaction with a busy timeout that checks every row it touches against the image the
operator reviewed and refuses the whole write (StalePlanError, nothing written) when one
differs. It only UPDATEs `memories` rows and INSERTs `memory_supersede_edges` rows: never a
DELETE, never a schema change (an authorizer makes SQLite refuse them, triggers included), and
only columns the database has (older schemas lack some). A database whose `memories` has
triggers (the bot creates none) is refused whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from core.errors import GraphError, MicroClawError, StalePlanError
from core.safeio import crashpoints
from core.stores.microclaw.schema import BUSY_TIMEOUT_S, check_file, database_error

MEMORIES = "memories"
EDGES = "memory_supersede_edges"
# What must still be as the operator saw it (docs/MICROCLAW_WRITES.md, "One short transaction"),
# and what a run writes.
COMPARED = ("content", "category", "confidence", "is_archived", "updated_at", "expires_at")
IMAGED = (*COMPARED, "archived_at", "last_seen_at")
MARKS = ("is_archived", "archived_at", "expires_at")
CHUNK = 500  # row ids per query  # a run's own mark on a row: tells whether it landed

Row = dict[str, Any]  # column -> value, as SQLite gives it


@dataclass(frozen=True)
class RowChange:
    """One `memories` row: as the operator saw it, and as the run leaves it."""

    row_id: int
    before: Row
    after: Row


@dataclass(frozen=True)
class Edge:
    from_id: int
    to_id: int
    reason: str
    created_at: str


def archived(row: Row, now: str) -> Row:
    """The row archived, as the bot archives: is_archived 1, archived_at and updated_at now."""
    return {**row, "is_archived": 1, "archived_at": now, "updated_at": now}


def rescued(row: Row) -> Row:
    """The row kept from the bot's expiry: expires_at cleared (nothing else changes)."""
    return {**row, "expires_at": None}


def unarchived(row: Row, now: str) -> Row:
    """The row brought back: is_archived 0, archived_at NULL, updated_at and last_seen_at now
    (the bot's stale step goes by last_seen_at: an old one would archive it again)."""
    back = {**row, "is_archived": 0, "archived_at": None, "updated_at": now}
    if "last_seen_at" in row:
        back["last_seen_at"] = now
    return back


PROMPT_CONFIDENCE = 0.45  # the bot puts a row in its prompt only from this confidence on


def raised(row: Row, floor: float) -> Row:
    """The row with its confidence raised to `floor` when below it (a schema without the
    column, or a row at the floor already, is left as it is)."""
    confidence = row.get("confidence")
    if "confidence" not in row or (isinstance(confidence, int | float) and confidence >= floor):
        return row
    return {**row, "confidence": floor}


def unhide_warnings(rows: Mapping[int, Row]) -> list[str]:
    """What an operator should know about rows brought back: those the bot's prompt skips."""
    low = [
        f"mc-{i}"
        for i, row in rows.items()
        if isinstance(row.get("confidence"), int | float) and row["confidence"] < PROMPT_CONFIDENCE
    ]
    if not low:
        return []
    return [
        f"{', '.join(low[:10])}: confidence below {PROMPT_CONFIDENCE}, so the bot will not "
        "put it in its prompt (below 0.35 its stale step archives it again after 30 days "
        "unseen)"
    ]


def connect(db: Path, timeout: float = BUSY_TIMEOUT_S) -> sqlite3.Connection:
    """A connection to an existing SQLite database (never creates one: a file that is not
    one is refused before SQLite opens it), in autocommit mode so that no transaction is open
    unless we begin one."""
    check_file(db)
    uri = f"file:{quote(str(db.absolute()))}?mode=rw"
    try:
        return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise database_error(db, exc) from None


def write_error(db: Path, exc: sqlite3.Error) -> GraphError:
    """SQLite's complaint while writing, as one line (nothing was written)."""
    found = database_error(db, exc)
    if str(found).startswith(f"{db}: cannot be read"):
        return MicroClawError(f"{db}: cannot be written: {exc}; nothing was written")
    return found


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    """The table's columns (none when it does not exist)."""
    return [r[1] for r in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))]


def read_rows(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, Row]:
    """The imaged columns (those the database has) of these rows, plus chat scope; rows that
    do not exist are absent."""
    have = columns(conn, MEMORIES)
    wanted = [
        c for c in ("id", *IMAGED, "chat_id", "chat_channel", "external_chat_id") if c in have
    ]
    found: dict[int, Row] = {}
    numbers = list(dict.fromkeys(ids))
    for start in range(0, len(numbers), CHUNK):  # SQLite bounds a query's parameters
        chunk = numbers[start : start + CHUNK]
        cursor = conn.execute(
            f"SELECT {', '.join(wanted)} FROM {MEMORIES} "
            f"WHERE id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        found.update((values[0], dict(zip(wanted, values, strict=True))) for values in cursor)
    return found


def same(row: Row | None, image: Row, names: Iterable[str]) -> bool:
    """Whether the row holds the image's values in these columns (those both have: an older
    schema lacks some)."""
    if row is None:
        return False
    return all(_equal(row[n], image[n]) for n in names if n in image and n in row)


_SIMPLE = frozenset((str, type(None)))  # compared as they are, by the fast path below
_PLAIN = frozenset((str, int, float, type(None), bytes))  # already plain


def _equal(left: Any, right: Any) -> bool:
    if type(left) in _SIMPLE and type(right) in _SIMPLE:
        return type(left) is type(right) and left == right
    if isinstance(left, bool | int | float) and isinstance(right, bool | int | float):
        return float(left) == float(right)
    return type(left) is type(right) and left == right


def stale_rows(conn: sqlite3.Connection, changes: list[RowChange]) -> list[int]:
    """The rows no longer as their before-image (or gone)."""
    rows = read_rows(conn, (c.row_id for c in changes))
    return [c.row_id for c in changes if not same(rows.get(c.row_id), c.before, COMPARED)]


def missing_rows(conn: sqlite3.Connection, edges: list[Edge]) -> list[int]:
    """The rows an edge would join that are gone (the bot deletes expired rows)."""
    ends = list(dict.fromkeys(i for e in edges for i in (e.from_id, e.to_id)))
    there = read_rows(conn, ends)
    return [i for i in ends if i not in there]


def write_rows(
    db: Path, changes: list[RowChange], edges: list[Edge], timeout: float = BUSY_TIMEOUT_S
) -> None:
    """Update the rows and insert the edges in one transaction, if every row is still as its
    before-image; StalePlanError (nothing written) otherwise."""
    conn = connect(db, timeout)
    try:
        conn.set_authorizer(_authorize)
        _begin(conn, db)
        try:
            triggers = foreign_triggers(conn)
            if triggers:
                raise MicroClawError(
                    f"{db}: cannot be written: {MEMORIES} has triggers the bot never creates "
                    f"({', '.join(triggers[:5])}); nothing was written"
                )
            stale = stale_rows(conn, changes) + missing_rows(conn, edges)
            if stale:
                raise StalePlanError(
                    f"stale plan: {', '.join(f'mc-{i}' for i in stale[:10])} changed in {db} "
                    "since the plan was made; plan again"
                )
            _update(conn, changes, set(columns(conn, MEMORIES)))
            _insert_edges(conn, edges)
            crashpoints.step("db transaction open")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        crashpoints.step("db committed")
    except sqlite3.Error as exc:
        raise write_error(db, exc) from None
    finally:
        conn.close()


# What our writes may never do to the bot's database, enforced by SQLite itself on every
# statement we run and every trigger it fires: delete a row, create, drop or alter anything.
FORBIDDEN = frozenset(
    [sqlite3.SQLITE_DELETE, sqlite3.SQLITE_ALTER_TABLE]
    + [
        getattr(sqlite3, n)
        for n in dir(sqlite3)
        if n.startswith(("SQLITE_CREATE_", "SQLITE_DROP_"))
    ]
)


def _authorize(action: int, *_: object) -> int:
    return sqlite3.SQLITE_DENY if action in FORBIDDEN else sqlite3.SQLITE_OK


def foreign_triggers(conn: sqlite3.Connection) -> list[str]:
    """Triggers on the tables we write: the bot creates none, so any would turn our UPDATE
    into something else."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (?, ?) "
            "ORDER BY name",
            (MEMORIES, EDGES),
        )
    ]


def _begin(conn: sqlite3.Connection, db: Path) -> None:
    try:
        conn.execute("BEGIN IMMEDIATE")  # waits for the bot up to the busy timeout
    except sqlite3.OperationalError as exc:
        raise write_error(db, exc) from None


def _update(conn: sqlite3.Connection, changes: list[RowChange], have: set[str]) -> None:
    """Each row's changed columns (those the database has), rows changing the same columns
    in one statement."""
    batches: dict[tuple[str, ...], list[list[Any]]] = {}
    for change in changes:
        names = tuple(
            n
            for n in IMAGED
            if n in have
            and n in change.after
            and not (n in change.before and _equal(change.before[n], change.after[n]))
        )
        if names:
            batches.setdefault(names, []).append([*(change.after[n] for n in names), change.row_id])
    for names, params in batches.items():
        assignments = ", ".join(f"{n} = ?" for n in names)
        conn.executemany(f"UPDATE {MEMORIES} SET {assignments} WHERE id = ?", params)


def _insert_edges(conn: sqlite3.Connection, edges: list[Edge]) -> None:
    have = set(columns(conn, EDGES))
    if not edges or not have:
        return
    for edge in edges:
        values = {
            "from_memory_id": edge.from_id,
            "to_memory_id": edge.to_id,
            "reason": edge.reason,
            "created_at": edge.created_at,
        }
        names = [n for n in values if n in have]
        conn.execute(
            f"INSERT INTO {EDGES} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
            [values[n] for n in names],
        )


def edges_table_exists(conn: sqlite3.Connection) -> bool:
    return bool(columns(conn, EDGES))


def edges_present(conn: sqlite3.Connection, edges: list[Edge]) -> list[bool]:
    """For each edge, whether a row of exactly it is in the edges table."""
    have = set(columns(conn, EDGES))
    if not have:
        return [False for _ in edges]
    found = []
    for edge in edges:
        clauses = {
            "from_memory_id": edge.from_id,
            "to_memory_id": edge.to_id,
            "reason": edge.reason,
            "created_at": edge.created_at,
        }
        names = [n for n in clauses if n in have]
        where = " AND ".join(f"{n} = ?" for n in names)
        cursor = conn.execute(
            f"SELECT 1 FROM {EDGES} WHERE {where} LIMIT 1", [clauses[n] for n in names]
        )
        found.append(cursor.fetchone() is not None)
    return found


def landed(db: Path, changes: list[RowChange], edges: list[Edge]) -> bool | None:
    """Whether a write of these changes committed, judged from the rows it marked (their
    is_archived/archived_at), else from its edges; None when nothing tells (every marked row
    gone or changed by the bot since, and no edge to look for)."""
    conn = connect(db)
    try:
        marked = [c for c in changes if not same(c.after, c.before, MARKS)]
        rows = read_rows(conn, (c.row_id for c in marked))
        for change in marked:
            row = rows.get(change.row_id)
            if same(row, change.after, MARKS):
                return True
            if same(row, change.before, MARKS):
                return False
        if edges and edges_table_exists(conn):  # an older schema: no edge was written
            return all(edges_present(conn, edges))
        return None if marked else True
    except sqlite3.Error as exc:
        raise database_error(db, exc) from None
    finally:
        conn.close()


def row_image(values: Mapping[str, Any]) -> Row:
    """The imaged columns of a row, numbers as plain Python numbers (a journal read back
    spells them in its own number types)."""
    return {n: _plain(values[n]) for n in IMAGED if n in values}


def _plain(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return int(value) if isinstance(value, int) else float(value)
