"""A decision of the operator's binds later plans: notes let "both stand" are never merged
together by the pass (docs/VERDICTS.md, "Deciding")."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.models import MergeOp, Plan
from core.review.contradictions import Group, find_by_rules
from core.review.decisions import settle_both
from core.stores.nuggets.store import NuggetsStore
from tests.support.console_support import NOW, demo_home


def _merged_within(plan: Plan, group: Group) -> list[MergeOp]:
    members = set(group.note_ids)
    return [
        op
        for op in plan.operations
        if isinstance(op, MergeOp) and {op.winner_id, op.loser_id} <= members
    ]


def test_the_pass_does_not_merge_notes_let_stand(tmp_path: Path) -> None:
    memory = NuggetsStore(demo_home(tmp_path), fixed_clock(NOW))
    plan = memory.plan(uncapped=True)
    notes = memory.shelf().notes
    groups = [g for g in find_by_rules(notes, memory.topic_rules()) if _merged_within(plan, g)]
    assert groups  # the pass merges notes of some group the queue asks about
    by_id = {n["id"]: n for n in notes}
    for group in groups:
        settle_both(memory, group, by_id)
    again = memory.plan(uncapped=True)
    assert all(not _merged_within(again, g) for g in groups)
    assert any(isinstance(op, MergeOp) for op in again.operations)  # others still merge
