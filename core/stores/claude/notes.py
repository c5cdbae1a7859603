"""A Claude Code memory directory as the engine's notes (docs/CLAUDE_CODE.md, "Notes"): each
topic file a note (title from its frontmatter `name`, nugget from its `type`), MEMORY.md a note
whose links are its entries, and each file seen before and now gone an archived note holding its
last version. What hygiene finds is set on each note's `claude.flags`. Pure."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.clock import shown_time, to_iso
from core.models import RawNote
from core.notes.similar import similar_pairs
from core.notes.text import note_tokens
from core.promotion.claude_load import MAX_LINES, MAX_UNITS, Load
from core.promotion.screening import MAX_ENTRY_CHARS, screen
from core.stores.claude import frontmatter, index
from core.stores.claude.directory import TEAM, Files, folder_key, text_of
from core.stores.claude.paths import INDEX
from core.stores.claude.seen import Version

NEAR_DUPLICATE = 0.6  # token overlap (Jaccard) from which two topic files read as one
INDEX_NUGGET = "index"
# At most this much of a file is screened (64 screens): a 2 MB file is not 500 screens.
SCREENED_CHARS = 256_000
_REMEMBERED = 50_000  # texts whose screening is kept: a command screens each file once
_SCREENED: dict[bytes, tuple[str | None, bool]] = {}


@dataclass
class Gone:
    """A file seen before and now absent: its last version, and when it was last seen."""

    version: Version
    data: bytes


@dataclass
class Reading:
    notes: list[RawNote] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _iso(mtime: float | None) -> str:
    return to_iso(datetime.fromtimestamp(mtime or 0, UTC))


def screened(title: str, text: str) -> str | None:
    """Why text the agent reads as memory reads like instructions or holds a secret."""
    return screened_file(title, text)[0]


def screen_chunks(text: str) -> tuple[list[str], bool]:
    """The pieces of `text` the screens read: its distinct lines (a line repeated adds nothing
    to screen), in order, packed into pieces a screen takes, at most SCREENED_CHARS in all;
    and whether that is all of them."""
    chunks: list[str] = []
    piece, size, total = "", 0, 0
    for line in dict.fromkeys(text.split("\n")):
        for start in range(0, max(len(line), 1), MAX_ENTRY_CHARS - 1):
            part = line[start : start + MAX_ENTRY_CHARS - 1]
            if total + len(part) > SCREENED_CHARS:
                return [*chunks, piece] if piece else chunks, False
            total += len(part) + 1
            if size + len(part) + 1 > MAX_ENTRY_CHARS:
                chunks.append(piece)
                piece, size = "", 0
            piece += ("\n" if size else "") + part
            size += len(part) + 1
    return [*chunks, piece] if piece or not chunks else chunks, True


def forget_screened() -> None:
    """Screen every text afresh (what a new process does)."""
    _SCREENED.clear()


def screened_file(title: str, text: str) -> tuple[str | None, bool]:
    """`screened` over a whole file, the work bounded (`screen_chunks`): the reason, and
    whether all of it was read. Each text is screened once in a process."""
    key = hashlib.sha256(f"{title}\0{text}".encode("utf-8", "surrogatepass")).digest()
    if key not in _SCREENED:
        if len(_SCREENED) >= _REMEMBERED:
            _SCREENED.clear()
        chunks, whole = screen_chunks(text)
        found = next(filter(None, (screen(title, chunk, "") for chunk in chunks)), None)
        _SCREENED[key] = (found.reason if found else None, whole)
    return _SCREENED[key]


def topic_note(name: str, data: bytes, at: str, entry: index.Entry | None) -> RawNote:
    text = text_of(data)
    front = frontmatter.parse(text)
    kind = front.fields.get("type", "")
    title = front.fields.get("name") or (entry.title if entry else "") or name.removesuffix(".md")
    flags = [f"frontmatter: {p}" for p in front.problems]
    if entry is None and listed_in_index(name):
        flags.append("not in MEMORY.md")
    reason, whole = screened_file(title, f"{front.fields.get('description', '')}\n{front.body}")
    if reason:
        flags.append(f"screened: {reason}")
    if not whole:
        flags.append(f"only its first {SCREENED_CHARS:,} characters of distinct lines are screened")
    return _note(
        name,
        kind if kind in frontmatter.TYPES else "untyped",
        title,
        text,
        [],
        kind,
        at,
        {
            "file": name,
            "size": len(data),
            "description": front.fields.get("description", ""),
            "hook": entry.hook if entry else "",
            "indexLine": entry.line if entry else None,
            "flags": flags,
        },
    )


def _note(
    note_id: str,
    nugget: str,
    title: str,
    content: str,
    links: list[dict[str, Any]],
    kind: str,
    at: str,
    claude: dict[str, Any],
) -> RawNote:
    """A file as a note: what every file of the directory has in common, then its own."""
    return {
        "id": note_id,
        "nuggetName": nugget,
        "title": title,
        "content": content,
        "tags": [],
        "links": links,
        "hidden": False,
        "kind": "note",
        "hits": 0,
        "subject": "",
        "scope": "project",
        "type": kind,
        "source": "agent_reflection",
        "confidence": 0.7,
        "stability": "durable",
        "createdAt": at,
        "updatedAt": at,
        "lastAccessedAt": at,
        "claude": claude,
    }


def listed_in_index(name: str) -> bool:
    """Whether a file belongs in MEMORY.md: team/ files are the team's, never listed there."""
    return folder_key(name.split("/", 1)[0]) != TEAM or "/" not in name


def index_note(data: bytes, at: str, names: Iterable[str]) -> tuple[RawNote, list[str]]:
    text = text_of(data)
    known = index.Names(names)
    found = index.entries(text)
    cap = index.budget(data)
    hidden_from = index.first_hidden_line(text, cap)
    flags, warnings = [], []
    links = []
    for entry in found:
        target = known.of(entry.target)
        if target is None:
            continue
        links.append({"to": target, "reason": entry.hook or entry.title, "createdAt": at})
        if target not in known:
            flags.append(f"line {entry.line} names {target}, which is missing")
            warnings.append(
                f"{INDEX} line {entry.line} names {target}, which is not in the directory"
            )
        reason = screened(entry.title, entry.hook)
        if reason:
            flags.append(f"screened: line {entry.line} {reason}")
    if hidden_from is not None:
        past = [e for e in found if e.line >= hidden_from]
        flags.append(f"past the budget: {len(past)} entries from line {hidden_from}")
        warnings.append(budget_line(cap, hidden_from, len(past)))
    note = _note(
        INDEX,
        INDEX_NUGGET,
        "MEMORY.md (the index)",
        text,
        links,
        "index",
        at,
        {
            "file": INDEX,
            "size": len(data),
            "description": "",
            "hook": "",
            "indexLine": None,
            "flags": flags,
            "lines": cap.lines,
            "units": cap.units,
            "loadedLines": cap.shown_lines,
            "hiddenFrom": hidden_from,
            "claudeWarning": cap.warning,
        },
    )
    return note, warnings


def budget_line(cap: Load, hidden_from: int, past: int) -> str:
    """What Claude Code cuts, as it measures MEMORY.md (frontmatter and block comments out,
    trimmed; lines and UTF-16 units)."""
    return (
        f"{INDEX} is {cap.lines} lines, {cap.units:,} characters (UTF-16 units) as Claude "
        f"Code measures it: the model sees {cap.shown_lines} of those lines, cut from file "
        f"line {hidden_from} on (its budget: {MAX_LINES} lines, {MAX_UNITS:,} units); "
        f"{past} entries there are invisible to the agent. Claude Code tells the model: "
        f"{cap.warning}"
    )


def link_note(name: str, target: str, at: str, entry: index.Entry | None) -> RawNote:
    """A symbolic link in the directory: listed by where it points, never read."""
    flag = f"symbolic link, not read (it points to {target})"
    return _note(
        name,
        "untyped",
        name,
        "",
        [],
        "",
        at,
        {
            "file": name,
            "size": 0,
            "description": "",
            "hook": entry.hook if entry else "",
            "indexLine": entry.line if entry else None,
            "flags": [flag],
            "link": target,
        },
    )


def unread_note(name: str, why: str, at: str, entry: index.Entry | None) -> RawNote:
    """A topic file there but not read (too large, unreadable): listed, never taken for
    deleted."""
    note = link_note(name, "", at, entry)
    del note["claude"]["link"]
    note["claude"]["flags"] = [f"not read: {why}"]
    note["claude"]["unread"] = why
    return note


def gone_note(gone: Gone, entry: index.Entry | None) -> RawNote:
    note = topic_note(gone.version.name, gone.data, gone.version.at, entry)
    note["hidden"] = True
    note["archivedAt"] = gone.version.at
    note["claude"]["flags"] = [f"deleted: last seen {shown_time(gone.version.at)}"]
    note["claude"]["deleted"] = True
    return note


def _words(note: RawNote) -> list[str]:
    """What a topic file says: its description and body, never the frontmatter Claude Code
    stamps on every file (`node_type`, `originSessionId`, `modified`)."""
    front = frontmatter.parse(note["content"])
    return note_tokens(front.fields.get("description", ""), front.body)


def near_duplicates(notes: list[RawNote]) -> list[tuple[str, str, float]]:
    topics = [
        n
        for n in notes
        if not n["hidden"]
        and n["id"] != INDEX
        and "link" not in n["claude"]
        and "unread" not in n["claude"]
    ]
    tokens = [frozenset(_words(n)) for n in topics]  # the body: never the stamps
    return [
        (topics[i]["id"], topics[j]["id"], overlap)
        for i, j, overlap in similar_pairs(tokens, NEAR_DUPLICATE)
    ]


def read_notes(files: Files, gone: list[Gone], previous_lines: dict[str, index.Entry]) -> Reading:
    """The notes of the directory as read, and the warnings its hygiene gives."""
    found = Reading()
    names = set(files.data) - {INDEX}
    known = index.Names(names | set(files.links))
    entries: dict[str, index.Entry] = {}
    if INDEX in files.data:
        note, found.warnings = index_note(
            files.data[INDEX],
            _iso(files.mtimes.get(INDEX)),
            names | set(files.links) | set(files.unread),
        )
        found.notes.append(note)
        for entry in index.entries(text_of(files.data[INDEX])):
            target = known.of(entry.target)
            if target:
                entries.setdefault(target, entry)
    else:
        found.warnings.append(f"no {INDEX}: nothing of this directory reaches the model")
    for name in sorted(names):
        found.notes.append(
            topic_note(name, files.data[name], _iso(files.mtimes.get(name)), entries.get(name))
        )
    for name, target in sorted(files.links.items()):
        found.notes.append(link_note(name, target, _iso(files.mtimes.get(name)), entries.get(name)))
        found.warnings.append(f"{name} is a symbolic link to {target}: not read, never kept")
    for name, why in sorted(files.unread.items()):
        found.notes.append(unread_note(name, why, _iso(files.mtimes.get(name)), entries.get(name)))
    for item in gone:
        found.notes.append(
            gone_note(item, entries.get(item.version.name) or previous_lines.get(item.version.name))
        )
    _flag_duplicates(found)
    for note in found.notes:
        if (
            not note["hidden"]
            and note["id"] != INDEX
            and note["claude"]["indexLine"] is None
            and "link" not in note["claude"]
            and listed_in_index(note["id"])
        ):
            found.warnings.append(f"{note['id']} is not in {INDEX}: the agent never sees it listed")
    return found


def _flag_duplicates(found: Reading) -> None:
    by_id = {n["id"]: n for n in found.notes}
    for a, b, overlap in near_duplicates(found.notes):
        for one, other in ((a, b), (b, a)):
            by_id[one]["claude"]["flags"].append(f"near-duplicate of {other} ({overlap:.0%})")
            by_id[one]["links"].append(
                {"to": other, "reason": "near-duplicate", "createdAt": by_id[one]["updatedAt"]}
            )
        found.warnings.append(
            f"{a} and {b} overlap {overlap:.0%}: merge them into one topic "
            "(the plan offers it once the agent's changes to them and to "
            f"{INDEX} are reviewed)"
        )
