"""Walking the link graph: a note's edges both ways, orphans, and connected groups.

Links found in a file are kept as read (SPEC §1), so edges may dangle, repeat, or point at the
note itself; the walks below tolerate all of that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import fields
from .models import RawNote
from .shelf import Shelf

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
    back = [Edge("in", source["id"], link.get("reason", ""), True)
            for source, link in shelf.backlinks(note_id)]
    return out + back


def _in_scope(note: RawNote, nugget: str | None) -> bool:
    return not fields.hidden(note) and (nugget is None or fields.nugget(note) == nugget)


def orphans(shelf: Shelf, nugget: str | None = None) -> list[RawNote]:
    """Visible notes with no link to another existing note and no link from another note."""
    linked: set[str] = set()
    for note in shelf.notes:
        for target in fields.link_targets(note):
            if target != note["id"] and shelf.graph.get(target) is not None:
                linked.update((note["id"], target))
    return [n for n in shelf.notes if _in_scope(n, nugget) and n["id"] not in linked]


def groups(shelf: Shelf, nugget: str | None = None, minimum: int = 2) -> list[list[RawNote]]:
    """Connected groups of visible notes (links in either direction), largest first."""
    members = [n for n in shelf.notes if _in_scope(n, nugget)]
    position = {n["id"]: i for i, n in enumerate(members)}
    parent = list(range(len(members)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, note in enumerate(members):
        for target in fields.link_targets(note):
            j = position.get(target)
            if j is not None:
                parent[root(i)] = root(j)
    found: dict[int, list[RawNote]] = {}
    for i, note in enumerate(members):
        found.setdefault(root(i), []).append(note)
    big = [group for group in found.values() if len(group) >= minimum]
    return sorted(big, key=len, reverse=True)
