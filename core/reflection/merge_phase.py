"""Phase 3 of the pass (docs/PASS.md): merge near-duplicates, walking the pass order.

A note's partner is the first later note of its merge group (same nugget, subject, scope and
type), neither touched this run, with token sets of Jaccard >= 0.9, and not one the operator let
stand beside it (`apart`: notes of one contradiction group let "both stand" share a number). It
comes from an index (`merge_index.MergeIndex`) built per group when the walk first reaches the
group, so a capped pass that stops after `limit` merges only tokenizes and indexes the groups it
reached.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.models import MergeOp
from core.notes import fields
from core.reflection.merge_index import MergeIndex
from core.reflection.pass_state import CHECK_EVERY, GroupKey, PassRun


class _MergeGroups:
    """The merge groups of the pass order, each indexed when the walk first needs it."""

    def __init__(self, run: PassRun, order: list[int]) -> None:
        self.run = run
        self.order = order
        self.members: dict[GroupKey, list[int]] = {}  # places in the pass order, ascending
        group_keys = run.group_keys
        for place, position in enumerate(order):
            key = group_keys[position]
            members = self.members.get(key)
            if members is None:
                self.members[key] = [place]
            else:
                members.append(place)
        self._indexes: dict[GroupKey, MergeIndex] = {}

    def alone(self, position: int) -> bool:
        """No other note shares its group: nothing to index, nor to tokenize."""
        return len(self.members[self.run.group_keys[position]]) == 1

    def index(self, position: int) -> MergeIndex:
        key = self.run.group_keys[position]
        found = self._indexes.get(key)
        if found is None:
            members = self.members[key]
            run, order = self.run, self.order
            sets = [run.token_set(order[place]) for place in members]
            masks = [run.masks[order[place]] for place in members]
            found = self._indexes[key] = MergeIndex(members, sets, masks)
        return found


def merge_phase(
    run: PassRun, order: list[int], limit: int | None, apart: Mapping[str, int] | None = None
) -> None:
    """`order`: positions of the visible notes in scope, in pass order; `apart`: note id ->
    the number of the group of notes let stand together, never merged with one another."""
    groups = _MergeGroups(run, order)
    touched, notes = run.touched, run.notes
    stands = apart or {}
    mine: list[int | None] = [None]

    def usable(place: int) -> bool:
        other = order[place]
        if other in touched:
            return False
        return mine[0] is None or stands.get(notes[other]["id"]) != mine[0]

    merges = 0
    for place, position in enumerate(order):
        if limit is not None and merges >= limit:
            return
        if not place % CHECK_EVERY:
            run.check(place)
        if position in touched or groups.alone(position):
            continue
        mine[0] = stands.get(notes[position]["id"]) if stands else None
        partner = groups.index(position).first_partner(place, usable)
        if partner is None:
            continue
        other = order[partner]
        longer = len(fields.text(notes[other], "content")) > len(
            fields.text(notes[position], "content")
        )
        winner, loser = (other, position) if longer else (position, other)
        touched.update((winner, loser))
        winner_id, loser_id = notes[winner]["id"], notes[loser]["id"]
        op = MergeOp(id=run.next_id(), winner_id=winner_id, loser_id=loser_id)
        run.record(op, "merge", winner, f"Merged duplicate note {loser_id}")
        merges += 1
