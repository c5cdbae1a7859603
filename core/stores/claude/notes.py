"""A Claude Code memory directory as the engine's notes (docs/CLAUDE_CODE.md, "Notes"): each
topic file a note (title from its frontmatter `name`, nugget from its `type`), MEMORY.md a note
whose links are its entries, and each file seen before and now gone an archived note holding its
last version. What hygiene finds is set on each note's `claude.flags`. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.clock import to_iso
from core.models import RawNote
from core.notes.text import jaccard, note_tokens
from core.promotion.budget import Loaded
from core.promotion.screening import MAX_ENTRY_CHARS, screen
from core.stores.claude import frontmatter, index
from core.stores.claude.directory import TEAM, Files, folder_key, text_of
from core.stores.claude.paths import INDEX
from core.stores.claude.seen import Version

NEAR_DUPLICATE = 0.6  # token overlap (Jaccard) from which two topic files read as one
INDEX_NUGGET = "index"


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
    for start in range(0, max(len(text), 1), MAX_ENTRY_CHARS):
        found = screen(title, text[start : start + MAX_ENTRY_CHARS], "")
        if found:
            return found.reason
    return None


def topic_note(name: str, data: bytes, at: str, entry: index.Entry | None) -> RawNote:
    text = text_of(data)
    front = frontmatter.parse(text)
    kind = front.fields.get("type", "")
    title = front.fields.get("name") or (entry.title if entry else "") or name.removesuffix(".md")
    flags = [f"frontmatter: {p}" for p in front.problems]
    if entry is None and listed_in_index(name):
        flags.append("not in MEMORY.md")
    reason = screened(title, f"{front.fields.get('description', '')}\n{front.body}")
    if reason:
        flags.append(f"screened: {reason}")
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
    if cap.over:
        past = [e for e in found if e.line > cap.loaded_lines]
        flags.append(f"past the budget: {len(past)} entries after line {cap.loaded_lines}")
        warnings.append(budget_line(cap, len(past)))
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
            "loadedLines": cap.loaded_lines,
        },
    )
    return note, warnings


def budget_line(cap: Loaded, past: int) -> str:
    limit = f"{index.MAX_LINES} lines" if cap.cut_by == "lines" else f"{index.MAX_BYTES:,} bytes"
    return (
        f"{INDEX} is {cap.lines} lines, {cap.size:,} bytes: only its first "
        f"{cap.loaded_lines} lines reach the model (the {limit} budget); {past} entries "
        "past it are invisible to the agent"
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


def gone_note(gone: Gone, entry: index.Entry | None) -> RawNote:
    note = topic_note(gone.version.name, gone.data, gone.version.at, entry)
    note["hidden"] = True
    note["archivedAt"] = gone.version.at
    note["claude"]["flags"] = [f"deleted: last seen {gone.version.at}"]
    note["claude"]["deleted"] = True
    return note


def _words(note: RawNote) -> list[str]:
    """What a topic file says: its description and body, never the frontmatter Claude Code
    stamps on every file (`node_type`, `originSessionId`, `modified`)."""
    front = frontmatter.parse(note["content"])
    return note_tokens(front.fields.get("description", ""), front.body)


def near_duplicates(notes: list[RawNote]) -> list[tuple[str, str, float]]:
    topics = [
        n for n in notes if not n["hidden"] and n["id"] != INDEX and "link" not in n["claude"]
    ]
    tokens = {n["id"]: _words(n) for n in topics}
    pairs = []
    for i, a in enumerate(topics):
        for b in topics[i + 1 :]:
            overlap = jaccard(tokens[a["id"]], tokens[b["id"]])
            if overlap >= NEAR_DUPLICATE:
                pairs.append((a["id"], b["id"], overlap))
    return pairs


def read_notes(files: Files, gone: list[Gone], previous_lines: dict[str, index.Entry]) -> Reading:
    """The notes of the directory as read, and the warnings its hygiene gives."""
    found = Reading()
    names = set(files.data) - {INDEX}
    known = index.Names(names | set(files.links))
    entries: dict[str, index.Entry] = {}
    if INDEX in files.data:
        note, found.warnings = index_note(
            files.data[INDEX], _iso(files.mtimes.get(INDEX)), names | set(files.links)
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
