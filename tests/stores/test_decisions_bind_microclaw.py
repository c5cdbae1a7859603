"""Every operator decision binds later plans (docs/REVIEW.md, "Decisions that bind"): on
MicroClaw, rows let stand together are never proposed as duplicates of each other again (our
suggestion or the bot's consolidation); on both systems, the rows or notes archived by "one
stands" are in no later plan."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.models import Plan, operation_note_ids
from core.review.contradictions import Group, find_by_rules
from core.review.decisions import plan_decision, settle_both
from core.stores.registry import open_store
from tests.support.console_support import NOW as NUGGETS_NOW
from tests.support.console_support import demo_home
from tests.support.microclaw_support import NOW


def _duplicates(plan: Plan) -> set[frozenset[str]]:
    """The pairs the plan archives as near-duplicates: {archived, kept}."""
    return {
        frozenset((c.note_id, c.detail.split("near-duplicate of ")[1].split()[0]))
        for c in plan.result.changes
        if "near-duplicate of " in c.detail
    }


def test_microclaw_rows_let_stand_are_not_proposed_as_duplicates_again(data_dir: Path) -> None:
    store = open_store(data_dir, "microclaw", fixed_clock(NOW))
    proposed = _duplicates(store.plan())
    notes = store.read().notes
    groups = [
        g for g in find_by_rules(notes, store.topic_rules()) if frozenset(g.note_ids) in proposed
    ]
    assert groups  # the demo proposes to archive a row of a group the queue asks about
    by_id = {n["id"]: n for n in notes}
    settle_both(store, groups[0], by_id)
    again = _duplicates(store.plan())
    assert frozenset(groups[0].note_ids) not in again
    assert again == proposed - {frozenset(groups[0].note_ids)}  # the others still proposed


def _first_group(store) -> Group:  # type: ignore[no-untyped-def]
    groups = find_by_rules(store.read().notes, store.topic_rules())
    return next(g for g in groups if len(g.note_ids) >= 2)


@pytest.mark.parametrize("system", ["nuggets", "microclaw"])
def test_notes_archived_by_one_stands_are_in_no_later_plan(
    tmp_path: Path, data_dir: Path, system: str
) -> None:
    home = demo_home(tmp_path) if system == "nuggets" else data_dir
    now = NUGGETS_NOW if system == "nuggets" else NOW
    store = open_store(home, system, fixed_clock(now))
    group = _first_group(store)
    store.apply(plan_decision(store, group, group.note_ids[0]))
    archived = set(group.note_ids[1:])
    later = store.plan(uncapped=True)
    touched = {i for op in later.operations for i in operation_note_ids(op)}
    assert not touched & archived
