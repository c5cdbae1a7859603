"""Phase 4 of the pass (docs/PASS.md): link related notes, walking the pass order after the
merges.

A note's partner is the first other open note of its nugget (open: it gained no link this run),
compatible, not linked with it either way, sharing at least two distinct tokens.

Compatible notes are found without checking the others: a note of shared or project scope may
link with every note of its nugget, any other note with those of its subject and those of shared
or project scope. So the notes of a nugget are kept in candidate lists (all of them, one list per
subject, one of shared scope) and a search walks one list, or two and takes the earlier find.
Notes that can no longer be anyone's partner (they gained a link, or hold fewer than two tokens)
are closed and stepped over through `candidates.OpenRun`, so no search walks again over them.

Notes gain links near the head of their list, so the partner is nearly always among the first
open notes there: those are checked directly. A search that finds none among the first
`_DIRECT_LINK_CHECKS` asks an inverted index of the list (`candidates.LinkIndex`). Building the
index costs about as much as tokenizing the list again and few notes need it, so until it is built
such notes go on checking directly, drawing on a budget of `_SPARE_CHECKS_PER_NOTE` checks per note
of the list; the index is built when the budget runs out. Direct checks beyond the first few thus
never cost more than the index.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import islice

from core.models import LinkOp
from core.notes import fields
from core.reflection.link_index import LinkIndex, OpenRun
from core.reflection.pass_state import CHECK_EVERY, PassRun
from core.reflection.work_count import WORK

# How many open notes a partner search checks directly before it asks the list's index, and
# the spare direct checks a list allows per note before it builds the index.
_DIRECT_LINK_CHECKS = 16
_SPARE_CHECKS_PER_NOTE = 1

Accept = Callable[[int], bool]


class _Candidates:
    """The places (ascending) of some notes of one nugget that a kind of note may link with."""

    def __init__(self, places: Sequence[int], closed: bytearray) -> None:
        self.open = OpenRun(places, closed)
        self.closed = closed
        self.index: LinkIndex | None = None
        self.spare_checks = len(places) * _SPARE_CHECKS_PER_NOTE  # until the index is built

    def first(
        self, accept: Accept, tokens: list[str], tokens_at: Callable[[int], list[str]], before: int
    ) -> int | None:
        """The first open place before `before` that `accept`s."""
        places, first_open = self.open.places, self.open.first_open
        end, checked = len(places), 0
        index = first_open(0)
        while index < end:
            place = places[index]
            if place >= before:
                return None
            if checked >= _DIRECT_LINK_CHECKS:
                if self.index is not None or self.spare_checks <= 0:
                    break
                self.spare_checks -= 1
            if accept(place):
                return place
            checked += 1
            index = first_open(index + 1)
        if index == end:  # every open place checked
            return None
        if self.index is None:
            self.index = LinkIndex(places, map(tokens_at, places), self.closed)
        return self.index.first_sharing_two(tokens, places[index] - 1, before, accept)


class _Nugget:
    """The visible notes of one nugget in pass order, in candidate lists, for the link phase."""

    def __init__(self, positions: list[int], subjects: list[str], shared: list[bool]) -> None:
        self.positions = positions
        self.closed = bytearray(len(positions))  # never a partner again this run
        self.everyone = _Candidates(range(len(positions)), self.closed)
        by_subject: dict[str, list[int]] = {}
        for place, subject in enumerate(subjects):
            by_subject.setdefault(subject, []).append(place)
        self.by_subject = {s: _Candidates(p, self.closed) for s, p in by_subject.items()}
        self.shared = _Candidates([p for p, s in enumerate(shared) if s], self.closed)


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
            by_nugget.setdefault(group_keys[position][0], []).append(position)
        for positions in by_nugget.values():
            keys = [group_keys[p] for p in positions]
            nugget = _Nugget(
                positions, [k[1] for k in keys], [k[2] in fields.SHARED_SCOPES for k in keys]
            )
            for place, position in enumerate(positions):
                self.nugget_of[position] = nugget
                self.place[position] = place

    def partner(self, position: int) -> int | None:
        """The first other open note of the nugget, compatible, not linked with this one either
        way, sharing at least two distinct tokens."""
        run, notes = self.run, self.run.notes
        # Only notes of the pass order are asked about, and each of them has its nugget.
        nugget: _Nugget = self.nugget_of[position]  # type: ignore[assignment]  # see above
        positions, closed, mine = nugget.positions, nugget.closed, self.place[position]
        note_id = notes[position]["id"]
        my_set, token_set, sets = run.token_set(position), run.token_set, run.sets
        my_targets = fields.link_targets(notes[position])
        checks = 0

        def accept(place: int) -> bool:  # the candidate lists hold compatible notes only
            nonlocal checks
            checks += 1
            if place == mine:
                return False
            other_position = positions[place]
            theirs = sets[other_position] or token_set(other_position)
            if len(my_set & theirs) < 2:
                if len(theirs) < 2:
                    closed[place] = 1  # shares two tokens with no note
                return False
            other = notes[other_position]
            return other["id"] not in my_targets and all(
                link["to"] != note_id for link in fields.links(other)
            )

        _, subject, scope, _ = run.group_keys[position]
        if scope in fields.SHARED_SCOPES:
            lists = [nugget.everyone]
        else:
            lists = [nugget.by_subject[subject], nugget.shared]
        tokens = run.tokens(position)

        def tokens_at(place: int) -> list[str]:
            return run.tokens(positions[place])

        found: int | None = None
        for candidates in lists:
            before = len(positions) if found is None else found
            hit = candidates.first(accept, tokens, tokens_at, before)
            if hit is not None:
                found = hit
        WORK.link += checks
        return None if found is None else positions[found]

    def gain(self, position: int) -> None:
        self.gained[position] = 1
        # Only notes of the pass order gain a link, and each of them has its nugget.
        self.nugget_of[position].closed[self.place[position]] = 1  # type: ignore[union-attr]


def link_phase(run: PassRun, order: list[int], limit: int | None) -> None:
    """`order`: positions of the visible notes in scope, in pass order."""
    phase = _LinkPhase(run, order)
    notes, gained = run.notes, phase.gained
    linked = 0
    for place, position in enumerate(order):
        if limit is not None and linked >= limit:
            return
        if not place % CHECK_EVERY:
            run.check(place)
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
        op = LinkOp(
            id=run.next_id(),
            note_id=notes[position]["id"],
            other_id=other_id,
            reason="shared context: " + ", ".join(shared),
        )
        run.record(op, "link", position, f"Linked to {other_id}")
        linked += 1
