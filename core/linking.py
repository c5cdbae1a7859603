"""Phase 4 of the pass (SPEC §3): link related notes, walking the pass order after the merges.

A note's partner is the first other open note of its nugget (open: it gained no link this run),
compatible, not linked with it either way, sharing at least two distinct tokens. Notes gain links
near the head of their nugget, so the partner is nearly always among the first open notes there:
those are checked directly. A note that finds none among the first `_DIRECT_LINK_CHECKS` asks an
inverted index of the nugget (`candidates.LinkIndex`). Building the index costs about as much as
tokenizing the nugget again and few notes need it (at 100k notes, a few hundred look further than
16 notes, two further than 64), so until it is built such notes go on checking directly, drawing
on a budget of `_SPARE_CHECKS_PER_NOTE` checks per note of the nugget; the index is built when
the budget runs out. Direct checks beyond the first few thus never cost more than the index.
"""

from __future__ import annotations

from itertools import islice

from . import fields
from .candidates import LinkIndex
from .models import LinkOp
from .passrun import PassRun

# How many open notes a partner search checks directly before it asks the nugget's index, and
# the spare direct checks a nugget allows per note before it builds the index.
_DIRECT_LINK_CHECKS = 16
_SPARE_CHECKS_PER_NOTE = 1


class _Nugget:
    """The visible notes of one nugget in pass order, for the link phase."""

    def __init__(self, positions: list[int]) -> None:
        self.positions = positions
        self.head = 0  # every note before it has gained a link
        self.dead = bytearray(len(positions))  # gained a link this run: never a partner again
        self.index: LinkIndex | None = None
        self.spare_checks = len(positions) * _SPARE_CHECKS_PER_NOTE  # until the index is built


class _LinkPhase:
    def __init__(self, run: PassRun, order: list[int]) -> None:
        self.run = run
        size = len(run.notes)
        self.gained = bytearray(size)
        self.nugget_of: list[_Nugget | None] = [None] * size
        self.place: list[int] = [0] * size  # in its nugget
        by_nugget: dict[str, list[int]] = {}
        group_keys = run.group_keys
        for position in order:
            by_nugget.setdefault(group_keys[position][0], []).append(position)  # type: ignore
        for positions in by_nugget.values():
            nugget = _Nugget(positions)
            for place, position in enumerate(positions):
                self.nugget_of[position] = nugget
                self.place[position] = place

    def partner(self, position: int) -> int | None:
        """The first other open note of the nugget, compatible, not linked with this one either
        way, sharing at least two distinct tokens."""
        run, notes = self.run, self.run.notes
        nugget: _Nugget = self.nugget_of[position]  # type: ignore[assignment]
        positions, dead, mine = nugget.positions, nugget.dead, self.place[position]
        note = notes[position]
        note_id = note["id"]
        my_set, token_set, sets = run.token_set(position), run.token_set, run.sets
        my_targets = fields.link_targets(note)
        my_subject = fields.meta(note, "subject")
        shared_scope = fields.meta(note, "scope") in fields.SHARED_SCOPES

        def accept(place: int) -> bool:
            if place == mine or dead[place]:
                return False
            other_position = positions[place]
            if len(my_set & (sets[other_position] or token_set(other_position))) < 2:
                return False
            other = notes[other_position]
            if not (shared_scope or fields.meta(other, "subject") == my_subject
                    or fields.meta(other, "scope") in fields.SHARED_SCOPES):
                return False
            return other["id"] not in my_targets and all(
                link["to"] != note_id for link in fields.links(other))

        while nugget.head < len(positions) and dead[nugget.head]:
            nugget.head += 1
        place, checked, end = nugget.head, 0, len(positions)
        while place < end:
            if dead[place] or place == mine:
                place += 1
                continue
            if checked >= _DIRECT_LINK_CHECKS:
                if nugget.index is not None or nugget.spare_checks <= 0:
                    break
                nugget.spare_checks -= 1
            if accept(place):
                return positions[place]
            checked += 1
            place += 1
        if place == end:  # every open note checked
            return None
        if nugget.index is None:
            nugget.index = LinkIndex([run.tokens(p) for p in positions])
        found = nugget.index.first_sharing_two(run.tokens(position), place - 1, dead, accept)
        return None if found is None else positions[found]

    def gain(self, position: int) -> None:
        self.gained[position] = 1
        self.nugget_of[position].dead[self.place[position]] = 1  # type: ignore[union-attr]


def link_phase(run: PassRun, order: list[int], limit: int | None) -> None:
    """`order`: positions of the visible notes in scope, in pass order."""
    phase = _LinkPhase(run, order)
    notes, gained = run.notes, phase.gained
    linked = 0
    for position in order:
        if limit is not None and linked >= limit:
            return
        if gained[position]:
            continue
        links = notes[position].get("links")
        if links and len(links) >= 2:
            continue
        tokens = run.tokens(position)
        if len(tokens) < 2:
            continue
        other = phase.partner(position)
        if other is None:
            continue
        shared = list(islice(filter(run.token_set(other).__contains__, tokens), 3))
        phase.gain(position)
        phase.gain(other)
        other_id = notes[other]["id"]
        op = LinkOp(id=run.next_id(), note_id=notes[position]["id"], other_id=other_id,
                    reason="shared context: " + ", ".join(shared))
        run.record(op, "link", position, f"Linked to {other_id}")
        linked += 1
