"""What the contradiction queue holds back from promotion (docs/PROMOTION.md, "Open
contradictions stay out"): a note standing in an open group of the queue — a contradiction, or a
duplicate set, that nobody decided as it now reads — is not promoted until the group is decided
(one stands, merge, both stand) or the operator allows its entry as shown.

Open means what the queue shows (`nuggets conflicts`, the console's `c`): the store's groups
(`group_members`, the grouping `find_contradictions` makes, minimal pairs and all; a
contradiction and a duplicate set alike; related notes of a topic are not held), not those let
stand as they now read (`is_settled`); the groups a system records as outdated are never among
them. Deciding one stands or merging archives the others, so the group is gone and the note kept
is free; letting both stand frees them all.

API:
- `queued_notes(notes, rules, settled) -> dict[str, str]` (pure: note id -> its group's id)
- `promotion_queue(store, notes) -> dict[str, str]`: the same, reading which groups were let
  stand (a file that cannot be read goes to the store's notices and counts as none let stand,
  so nothing is freed by it)
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from core.models import RawNote
from core.review.contradictions import TopicRules, group_id, group_members
from core.review.decisions import is_settled, read_settled


def queued_notes(
    notes: list[RawNote], rules: TopicRules, settled: Collection[str]
) -> dict[str, str]:
    """Every note of an open group, with the id of the first such group it stands in."""
    by_id = {n["id"]: n for n in notes}
    queued: dict[str, str] = {}
    for members in group_members(
        notes,
        rules.topic,
        promotion=rules.promotion,
        tokens=rules.tokens,
        recorded=rules.recorded,
        fold=rules.fold,
    ):
        ids = members.note_ids
        if is_settled((by_id[i] for i in ids), settled):
            continue  # let stand, as its notes now read
        found = group_id(ids)
        for note_id in ids:
            queued.setdefault(note_id, found)
    return queued


def promotion_queue(store: Any, notes: list[RawNote]) -> dict[str, str]:
    """`queued_notes` for a store (its topic rules, the groups let stand beside its journal)."""
    settled = read_settled(store.journal_home, store.notices)
    return queued_notes(notes, store.topic_rules(), settled)
