"""The bot's rows as the engine's notes: one consistent read of the database, turned into a
`Graph` snapshot (a note per memory row, links from supersede edges and triples).

A note carries the usual note fields (so the shelf, the console and search work unchanged) and,
under `microclaw`, what only MicroClaw has: the row id, the chat, last seen, expiry, validity,
and `row`, the row's before-image exactly as read (the columns the write side checks before
it writes: content, category, confidence, is_archived, updated_at, expires_at, archived_at,
last_seen_at - those this schema has).
"""

from __future__ import annotations

import hashlib
import marshal
import sqlite3
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.models import RawNote
from core.notes.snapshot import Graph
from core.stores.microclaw.paths import GLOBAL_NUGGET, Scope, nugget_of
from core.stores.microclaw.schema import BUSY_TIMEOUT_S, Shape, read_only, read_shape

NOTE_PREFIX = "mc-"
TRIPLE_PREFIX = "kg-"
DEFAULT_CONFIDENCE = 0.70  # the bot's column default
# The before-image a write compares against: what must still hold for the plan to apply.
IMAGE_COLUMNS = (
    "content",
    "category",
    "confidence",
    "is_archived",
    "updated_at",
    "expires_at",
    "archived_at",
    "last_seen_at",
)
OPTIONAL_COLUMNS = (
    "last_seen_at",
    "embedding_model",
    "confidence",
    "source",
    "is_archived",
    "archived_at",
    "chat_channel",
    "external_chat_id",
    "valid_from",
    "valid_to",
    "expires_at",
)
_TEXT_COLUMNS = (
    "content",
    "category",
    "created_at",
    "updated_at",
    "last_seen_at",
    "embedding_model",
    "source",
    "archived_at",
    "chat_channel",
    "external_chat_id",
    "valid_from",
    "valid_to",
    "expires_at",
)


def note_id(row_id: int) -> str:
    return f"{NOTE_PREFIX}{row_id}"


def row_id(note_id_: str) -> int | None:
    """The row id of `mc-<id>`; None for anything else."""
    if not note_id_.startswith(NOTE_PREFIX):
        return None
    digits = note_id_[len(NOTE_PREFIX) :]
    return int(digits) if digits.isdigit() else None


def rfc3339(moment: datetime) -> str:
    """A timestamp as the bot writes them: chrono's `to_rfc3339` of a UTC time (offset
    `+00:00`, the fraction in as many groups of three digits as it needs: none, 3, 6 or 9). A
    Python time holds microseconds, so 6 digits at most: what chrono prints for that instant."""
    utc = moment.astimezone(UTC)
    micros = utc.microsecond
    if micros == 0:
        fraction = ""
    elif micros % 1000 == 0:
        fraction = f".{micros // 1000:03d}"
    else:
        fraction = f".{micros:06d}"
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "+00:00"


def title_of(content: str) -> str:
    """A row has no title of its own: its whole text on one line. Only a front end that runs
    out of room cuts it, where the room ends."""
    return " ".join(content.split())


# Every column a row is read with, in this order (a row is a tuple of them).
COLUMNS = ("id", "chat_id", "content", "category", "created_at", "updated_at", *OPTIONAL_COLUMNS)


def _select(shape: Shape) -> str:
    """Every column of COLUMNS, NULL for those this schema lacks."""
    picked = (c if shape.has(c) else f"NULL AS {c}" for c in COLUMNS)
    return f"SELECT {', '.join(picked)} FROM memories ORDER BY id"


_NONE = type(None)
_KINDS: dict[str, frozenset[type]] = {
    "id": frozenset((int,)),
    "chat_id": frozenset((int, _NONE)),
    "content": frozenset((str,)),
    "confidence": frozenset((int, float, _NONE)),
    "is_archived": frozenset((int, _NONE)),
    "external_chat_id": frozenset((str, int, _NONE)),
}
_TEXT: frozenset[type] = frozenset((str, _NONE))


# The value types each column of COLUMNS may hold, for a quick check of every row.
_COLUMN_KINDS = tuple(_KINDS.get(name, _TEXT) for name in COLUMNS)


def row_problems(rows: list[tuple[Any, ...]]) -> dict[int, str]:
    """The rows (tuples of COLUMNS) holding a value of a type their column may not hold, by
    position, each with its problem (a column at a time first: the types found in it, so a
    sound table costs one pass)."""
    if all(
        {type(values[column]) for values in rows} <= kinds
        for column, kinds in enumerate(_COLUMN_KINDS)
    ):
        return {}
    found = {}
    for position, values in enumerate(rows):
        problem = _value_problem(dict(zip(COLUMNS, values, strict=True)))
        if problem:
            found[position] = problem
    return found


def _value_problem(row: dict[str, Any]) -> str | None:
    if type(row["id"]) is not int:
        return f"id is {row['id']!r}, not a whole number"
    if row["chat_id"] is not None and type(row["chat_id"]) is not int:
        return f"chat_id is {row['chat_id']!r}, not a whole number or NULL"
    for name in _TEXT_COLUMNS:
        value = row.get(name)
        if value is not None and type(value) is not str:
            if name == "external_chat_id" and type(value) is int:
                continue
            return f"{name} holds {type(value).__name__} data, not text"
    if type(row["content"]) is not str:
        return "content is NULL"
    confidence = row.get("confidence")
    if confidence is not None and type(confidence) not in (int, float):
        return f"confidence is {confidence!r}, not a number"
    archived = row.get("is_archived")
    if archived is not None and type(archived) is not int:
        return f"is_archived is {archived!r}, not 0 or 1"
    return None


Identity = tuple[str | None, str | None]  # a chat's channel and external chat id


def _identity(channel: Any, external: Any) -> Identity:
    return (
        channel if isinstance(channel, str) and channel.strip() else None,
        str(external) if external is not None and str(external).strip() else None,
    )


def note_of(
    row: dict[str, Any], links: list[dict[str, str]], identity: Identity | None = None
) -> RawNote:
    """One row as a note (pure: the row as read, its links, and its chat's channel and
    external id when known from elsewhere - another row of the chat, the chats table). The
    row's image holds the IMAGE_COLUMNS the row has."""
    image = tuple(c for c in IMAGE_COLUMNS if c in row)
    return _note(tuple(row.get(c) for c in COLUMNS), links, identity, image)


def _note(
    values: tuple[Any, ...],
    links: list[dict[str, str]],
    identity: Identity | None,
    image: tuple[str, ...],
) -> RawNote:
    """A row read as a tuple of COLUMNS as a note; `image`: the IMAGE_COLUMNS its table has."""
    (
        row_id_,
        chat_id,
        content,
        category,
        created,
        updated,
        last_seen,
        embedding_model,
        confidence,
        source,
        archived,
        archived_at,
        channel,
        external,
        valid_from,
        valid_to,
        expires,
    ) = values
    channel, external = identity or _identity(channel, external)
    nugget = nugget_of(chat_id, channel, external)
    created = created or ""
    updated = updated or created
    note: RawNote = {
        "id": f"{NOTE_PREFIX}{row_id_}",
        "nuggetName": nugget,
        "title": title_of(content),
        "content": content,
        "tags": [],
        "links": links,
        "hidden": bool(archived),
        "kind": "note",
        "hits": 0,
        "subject": nugget,
        "scope": GLOBAL_NUGGET if chat_id is None else "chat",
        "type": category or "",
        "source": source or "",
        "confidence": float(DEFAULT_CONFIDENCE if confidence is None else confidence),
        "stability": "durable",
        "createdAt": created,
        "updatedAt": updated,
        "lastAccessedAt": last_seen or updated,
    }
    if archived_at is not None:
        note["archivedAt"] = archived_at
    before = {
        "content": content,
        "category": category,
        "confidence": confidence,
        "is_archived": archived,
        "updated_at": values[5],
        "expires_at": expires,
        "archived_at": archived_at,
        "last_seen_at": last_seen,
    }
    note["microclaw"] = {
        "rowId": row_id_,
        "chatId": chat_id,
        "chatChannel": channel,
        "externalChatId": external,
        "lastSeenAt": last_seen,
        "expiresAt": expires,
        "validFrom": valid_from,
        "validTo": valid_to,
        "embeddingModel": embedding_model,
        "row": before if len(image) == len(IMAGE_COLUMNS) else {c: before[c] for c in image},
    }
    return note


def scope_of(note: RawNote) -> Scope:
    mc = note["microclaw"]
    return Scope(note["nuggetName"], mc["chatId"], mc["chatChannel"], mc["externalChatId"])


def _edge_links(conn: sqlite3.Connection) -> dict[int, list[dict[str, str]]]:
    links: dict[int, list[dict[str, str]]] = defaultdict(list)
    query = (
        "SELECT id, from_memory_id, to_memory_id, reason, created_at "
        "FROM memory_supersede_edges ORDER BY id"
    )
    for edge_id, source, target, reason, created in conn.execute(query):
        why = reason if isinstance(reason, str) and reason else "no reason given"
        when = created if isinstance(created, str) else ""
        edge = f"supersede:{edge_id}"
        if type(source) is int and type(target) is int:
            links[source].append(
                {
                    "to": note_id(target),
                    "reason": f"superseded by: {why}",
                    "createdAt": when,
                    "edge": edge,
                }
            )
            links[target].append(
                {
                    "to": note_id(source),
                    "reason": f"supersedes: {why}",
                    "createdAt": when,
                    "edge": edge,
                }
            )
    return links


def _triple_links(conn: sqlite3.Connection, links: dict[int, list[dict[str, str]]]) -> None:
    query = (
        "SELECT id, subject, predicate, object, created_at, source_memory_id "
        "FROM knowledge_graph WHERE source_memory_id IS NOT NULL ORDER BY id"
    )
    for triple_id, subject, predicate, obj, created, source in conn.execute(query):
        if type(source) is not int:
            continue
        links[source].append(
            {
                "to": f"{TRIPLE_PREFIX}{triple_id}",
                "reason": f"knowledge graph: {subject} {predicate} {obj}",
                "createdAt": created if isinstance(created, str) else "",
                "edge": "triple",
            }
        )


_UNNAMED = "an id this tool cannot name (not a whole number of 0 or more)"


def mappable(row_id_: object) -> bool:
    """Whether a row's id survives the round trip through its note id (`mc-<id>`): a whole
    number of 0 or more does; a negative id, which only a hand edit makes, does not, and such
    a row is skipped, not every row."""
    return type(row_id_) is int and row_id_ >= 0


Skipped = list[tuple[object, str]]  # a row the store leaves out: its id, and why
_NAMED = 10  # the skipped rows a notice names one by one


def skipped_rows(path: Path, skipped: Skipped) -> str:
    """The one line naming the rows the store cannot handle and leaves out."""
    named = "; ".join(f"{row_id!r}: {why}" for row_id, why in skipped[:_NAMED])
    more = f"; and {len(skipped) - _NAMED} more" if len(skipped) > _NAMED else ""
    return (
        f"{path}: skipped memories row(s) {named}{more}; every other row is read and "
        "written as usual"
    )


def read_notes(
    path: Path, busy_timeout: float = BUSY_TIMEOUT_S, said: list[str] | None = None
) -> tuple[Shape, list[RawNote], str, dict[int, tuple[str, str | None]], Skipped]:
    """Every row as a note, read in one transaction; the shape, a fingerprint of what was
    read (it changes whenever a row, an edge or a triple does), each chat's activity, and the
    rows left out, each with why (a value of a type its column may not hold, an id
    `mappable` refuses); `said` gets what a reader should know about
    how it was read."""
    with read_only(path, busy_timeout, said) as conn:
        shape = read_shape(conn, path)
        rows = conn.execute(_select(shape)).fetchall()
        links = _edge_links(conn) if shape.has_edges else defaultdict(list)
        if shape.has_triples:
            _triple_links(conn, links)
        chats = _chats_table(conn)
        activity = chat_activity(conn)
    # marshal's version 0 has no references and no interning marks: its bytes depend on the
    # values alone, and it is several times faster than repr on 100k rows
    digest = hashlib.sha256(marshal.dumps(rows, 0))
    digest.update(repr(sorted(links.items())).encode("utf-8", "surrogatepass"))
    problems = row_problems(rows)
    skipped: Skipped = []
    if problems or not all(mappable(values[0]) for values in rows):
        for position, values in enumerate(rows):
            why = problems.get(position) or (None if mappable(values[0]) else _UNNAMED)
            if why:
                skipped.append((values[0], why))
        rows = [v for n, v in enumerate(rows) if n not in problems and mappable(v[0])]
    identities = _chat_identities(rows, chats)
    image = tuple(c for c in IMAGE_COLUMNS if shape.has(c))
    notes = [
        _note(values, links.get(values[0], []), identities.get(values[1]), image) for values in rows
    ]
    return shape, notes, digest.hexdigest(), activity, skipped


def chat_activity(conn: sqlite3.Connection) -> dict[int, tuple[str, str | None]]:
    """Each chat's last message time, and its last user message's (the bot's `messages`
    table; none when it has no such table)."""
    have = {r[1] for r in conn.execute("PRAGMA table_info(messages)")}
    if not {"chat_id", "timestamp", "is_from_bot"} <= have:
        return {}
    query = (
        "SELECT chat_id, MAX(timestamp), MAX(CASE WHEN is_from_bot = 0 THEN timestamp END) "
        "FROM messages GROUP BY chat_id"
    )
    return {
        chat: (last, user)
        for chat, last, user in conn.execute(query)
        if type(chat) is int and isinstance(last, str) and (user is None or isinstance(user, str))
    }


_CHANNEL, _EXTERNAL = COLUMNS.index("chat_channel"), COLUMNS.index("external_chat_id")


def _chat_identities(
    rows: list[tuple[Any, ...]], chats: dict[int, Identity]
) -> dict[int, Identity]:
    """Each chat's channel and external id: from its rows (tuples of COLUMNS; the first that
    has both), else from the chats table; so every row of one chat is in one nugget even when
    some rows lack the columns (the bot fills them in later)."""
    found: dict[int, Identity] = {}
    for values in rows:
        chat_id = values[1]
        if chat_id is None or chat_id in found:
            continue
        identity = _identity(values[_CHANNEL], values[_EXTERNAL])
        if None not in identity:
            found[chat_id] = identity
    for chat_id, identity in chats.items():
        if None not in identity:
            found.setdefault(chat_id, identity)
    return found


def _chats_table(conn: sqlite3.Connection) -> dict[int, Identity]:
    """The chats table's channel and external id per chat, when it has them."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(chats)")}
    if not {"chat_id", "channel", "external_chat_id"} <= columns:
        return {}
    query = "SELECT chat_id, channel, external_chat_id FROM chats"
    return {
        chat_id: _identity(channel, external)
        for chat_id, channel, external in conn.execute(query)
        if type(chat_id) is int
    }


def read_graph(path: Path, busy_timeout: float = BUSY_TIMEOUT_S) -> Graph:
    said: list[str] = []
    shape, notes, fingerprint, activity, skipped = read_notes(path, busy_timeout, said)
    if skipped:
        said.append(skipped_rows(path, skipped))
    doc = {
        "version": 3,
        "notes": notes,
        "microclaw": {
            "schemaVersion": shape.version,
            "columns": list(shape.memory_columns),
            "supersedeEdges": shape.has_edges,
            "knowledgeGraph": shape.has_triples,
            "activity": activity,
            "notices": said,
        },
    }
    return Graph(path=path, doc=doc, fingerprint=fingerprint)
