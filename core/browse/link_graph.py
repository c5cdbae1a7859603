"""Walking the link graph: a note's edges both ways, orphans, and connected groups.

Links found in a file are kept as read (docs/FORMATS.md, "Odd links"), so edges may dangle,
repeat, or point at the note itself; the walks below tolerate all of that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.browse.shelf import Shelf
from core.gc_pause import paused_gc
from core.models import RawNote
from core.notes import fields

Direction = Literal["out", "in"]


@dataclass(frozen=True)
class Edge:
    direction: Direction
    note_id: str  # the note at the other end
    reason: str
    exists: bool


def edges(shelf: Shelf, note_id: str) -> list[Edge]:
    """The note's links (out) then its backlinks (in), as stored."""
    note = shelf.note(note_id)
    out = [
        Edge("out", link["to"], link.get("reason", ""), shelf.graph.get(link["to"]) is not None)
        for link in fields.links(note)
    ]
    back = [
        Edge("in", source["id"], link.get("reason", ""), True)
        for source, link in shelf.backlinks(note_id)
    ]
    return out + back


def orphans(shelf: Shelf, nugget: str | None = None) -> list[RawNote]:
    """Visible notes with no link to another existing note and no link from another note."""
    exists = shelf.graph.index
    with paused_gc():  # the lists hold no cycles; a collection would walk all 100k notes
        pairs = [
            (note["id"], link["to"])
            for note in shelf.notes
            if note.get("links")
            for link in note["links"]
        ]
        linked = {end for pair in pairs if pair[0] != pair[1] and pair[1] in exists for end in pair}
        return [n for n in shelf.list_notes(nugget) if n["id"] not in linked]


def groups(shelf: Shelf, nugget: str | None = None, minimum: int = 2) -> list[list[RawNote]]:
    """Connected groups of visible notes (links in either direction), largest first."""
    with paused_gc():
        return _groups(shelf, nugget, minimum)


def _groups(shelf: Shelf, nugget: str | None, minimum: int) -> list[list[RawNote]]:
    members = shelf.list_notes(nugget)
    position = {n["id"]: i for i, n in enumerate(members)}
    ends = [
        (i, position.get(link["to"]))
        for i, note in enumerate(members)
        if note.get("links")
        for link in note["links"]
    ]
    parent = list(range(len(members)))
    for i, j in ends:  # union-find with path halving, inline: 100k notes call it 300k times
        if j is None:
            continue
        while (up := parent[i]) != i:
            parent[i] = i = parent[up]
        while (up := parent[j]) != j:
            parent[j] = j = parent[up]
        if i != j:
            parent[i] = j
    linked = (
        range(len(members))
        if minimum < 2
        else sorted({end for i, j in ends if j is not None for end in (i, j)})
    )
    found: dict[int, list[RawNote]] = {}
    for i in linked:
        root = i
        while (up := parent[root]) != root:
            parent[root] = root = parent[up]
        found.setdefault(root, []).append(members[i])
    big = [group for group in found.values() if len(group) >= minimum]
    return sorted(big, key=len, reverse=True)
