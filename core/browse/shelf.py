"""The shelf: nuggets with counts, filtered note lists, one note with its links and backlinks."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from core.errors import UnknownNoteError
from core.models import RawNote
from core.notes import fields
from core.notes.snapshot import Graph


@dataclass(frozen=True)
class NuggetSummary:
    name: str
    notes: int = 0
    visible: int = 0
    hidden: int = 0
    facts: int = 0


@dataclass
class NoteDetail:
    note: RawNote
    links: list[tuple[dict[str, Any], RawNote | None]]
    # None: not counted yet (see Shelf.prepare)
    backlinks: list[tuple[RawNote, dict[str, Any]]] | None
    merged_into: str | None
    winner: RawNote | None = None  # the note `merged_into` names, when it exists


def haystack(note: RawNote) -> str:
    """What a text search looks in: title, content and tags, case-folded, one per line."""
    parts = (fields.text(note, "title"), fields.text(note, "content"), *fields.tags(note))
    return "\n".join(parts).casefold()


@dataclass(repr=False)
class Shelf:
    graph: Graph
    _backlinks: dict[str, list[int]] | None = None
    _haystacks: list[str] | None = None
    _views: dict[tuple[str | None, bool], list[int]] = field(default_factory=dict)
    _nuggets: list[NuggetSummary] | None = None

    def __repr__(self) -> str:
        return f"Shelf({self.graph!r})"

    @property
    def notes(self) -> list[RawNote]:
        return self.graph.notes

    def nuggets(self) -> list[NuggetSummary]:
        if self._nuggets is None:
            counts: dict[str, list[int]] = {name: [0, 0, 0, 0] for name in self.graph.groups}
            for note in self.notes:
                row = counts.setdefault(fields.nugget(note), [0, 0, 0, 0])
                row[0] += 1
                row[2 if fields.hidden(note) else 1] += 1
                row[3] += note.get("kind") == "fact"
            self._nuggets = [NuggetSummary(name, *row) for name, row in sorted(counts.items())]
        return list(self._nuggets)

    def list_notes(
        self, nugget: str | None = None, include_hidden: bool = False, query: str | None = None
    ) -> list[RawNote]:
        """Notes in file order: one nugget or all, archived ones only when asked, and those
        whose title, content or tags contain `query` (case-insensitive)."""
        needle = query.replace("\n", " ").casefold() if query else ""
        positions, notes = self._view(nugget, include_hidden), self.notes
        if not needle:
            return [notes[p] for p in positions]
        haystacks = self._haystack_index()
        return [notes[p] for p in positions if needle in haystacks[p]]

    def _view(self, nugget: str | None, include_hidden: bool) -> list[int]:
        """Positions of the notes of one nugget (or all), archived ones or not; kept, so that
        each keystroke of a search only looks for its text."""
        found = self._views.get((nugget, include_hidden))
        if found is None:
            found = self._views[(nugget, include_hidden)] = [
                position
                for position, note in enumerate(self.notes)
                if (nugget is None or fields.nugget(note) == nugget)
                and (include_hidden or not fields.hidden(note))
            ]
        return found

    def note(self, note_id: str) -> RawNote:
        note = self.graph.get(note_id)
        if note is None:
            raise UnknownNoteError(f"no note {note_id!r} in {self.graph.path}")
        return note

    def prepare(self) -> None:
        """Build the backlink and search indexes now, so that a front end can do it off its
        event loop; each is assigned whole, so readers on other threads never see half."""
        self._backlink_index()
        self._haystack_index()

    @property
    def prepared(self) -> bool:
        return self._backlinks is not None and self._haystacks is not None

    def _haystack_index(self) -> list[str]:
        if self._haystacks is None:
            self._haystacks = [haystack(note) for note in self.notes]
        return self._haystacks

    def _backlink_index(self) -> dict[str, list[int]]:
        if self._backlinks is None:
            index: dict[str, list[int]] = defaultdict(list)
            for position, note in enumerate(self.notes):
                for target in dict.fromkeys(link["to"] for link in fields.links(note)):
                    index[target].append(position)
            self._backlinks = index
        return self._backlinks

    def backlinks(self, note_id: str) -> list[tuple[RawNote, dict[str, Any]]]:
        found = []
        for position in self._backlink_index().get(note_id, []):
            source = self.notes[position]
            found += [(source, link) for link in fields.links(source) if link["to"] == note_id]
        return found

    def detail(self, note_id: str, backlinks: bool = True) -> NoteDetail:
        """One note with its links; its backlinks too unless `backlinks` is false (counting
        them builds an index over every note the first time)."""
        note = self.note(note_id)
        links = [(link, self.graph.get(link["to"])) for link in fields.links(note)]
        back = self.backlinks(note_id) if backlinks else None
        winner = fields.merged_into(note)
        return NoteDetail(note, links, back, winner, self.graph.get(winner) if winner else None)
