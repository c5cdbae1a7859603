"""The console's preview of a partly kept plan equals what applying those changes writes."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from core.models import NoteDiff, Plan, ReflectionResult
from core.notes.diff import shown_value
from core.notes.working_set import Workspace, replay
from core.plans.preview import change_view, kept_after, touched_by
from core.reflection.reflect import plan_pass
from core.stores.nuggets.demo import DEMO_NOW, build_demo_notes


@cache
def demo_plan() -> tuple[Plan, tuple]:
    notes = build_demo_notes()
    outcome = plan_pass(notes, DEMO_NOW, uncapped=True)
    ws = outcome.workspace
    diffs = [
        NoteDiff(note_id=notes[p]["id"], before=notes[p], after=ws.notes[p])
        for p in ws.refresh_vectors()
    ]  # as Memory.plan does
    plan = Plan(
        ran_at=outcome.result.ran_at,
        base_fingerprint="x",
        limit=10,
        uncapped=True,
        result=ReflectionResult.model_validate(outcome.result.model_dump()),
        operations=outcome.operations,
        notes=diffs,
    )
    return plan, tuple(notes)


def applied(notes: tuple, plan: Plan, kept: set[int]) -> dict[str, dict]:
    ws = Workspace(list(notes))
    for op in plan.operations:
        if op.id in kept:
            replay(ws, op, plan.ran_at)
    ws.refresh_vectors()  # as Memory.apply does
    return {note["id"]: note for note in ws.notes}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_preview_of_any_subset_equals_applying_it(data: st.DataObject) -> None:
    plan, notes = demo_plan()
    ids = [op.id for op in plan.operations]
    kept = data.draw(st.sets(st.sampled_from(ids)))
    preview = kept_after(plan, kept)
    truth = applied(notes, plan, kept)
    assert all(truth[note_id] == note for note_id, note in preview.items())
    before = {note["id"]: note for note in notes}
    changed = {i for i, note in truth.items() if note != before[i]}
    assert set(touched_by(plan, kept)) == changed


def test_keeping_everything_previews_the_plan() -> None:
    plan, _ = demo_plan()
    preview = kept_after(plan, [op.id for op in plan.operations])
    assert all(preview[diff.note_id] == diff.after for diff in plan.notes)


def test_each_change_is_shown_as_exactly_what_it_writes_alone() -> None:
    plan, _ = demo_plan()
    before = {diff.note_id: diff.before for diff in plan.notes}
    seen = set()
    for op in plan.operations:
        view = change_view(op, before)
        alone = kept_after(plan, {op.id})
        seen.add(op.type)
        if op.type == "merge":
            assert [n["id"] for n in view.notes] == [op.winner_id, op.loser_id]
            assert alone[op.winner_id]["content"] == view.merged_text
            assert set(view.tags_added) == set(alone[op.winner_id]["tags"]) - set(
                before[op.winner_id]["tags"]
            )
        elif op.type == "tag":
            old, new = before[op.note_id]["tags"], alone[op.note_id]["tags"]
            assert view.tags_added == [t for t in new if t not in old]
            assert view.tags_removed == [t for t in old if t not in new]
            assert not view.content and not view.merged_text
        elif op.type == "rewrite":
            assert [text for tag, text in view.content if tag in "+-"]
            assert not view.tags_added
        elif op.type == "link":
            assert {n["id"] for n in view.notes} == {op.note_id, op.other_id}
            assert not view.content and not view.tags_added
        else:
            assert [n["id"] for n in view.notes] == [op.note_id]
    assert seen == {"hide", "rewrite", "tag", "merge", "link"}


def test_values_are_shown_as_a_person_reads_them() -> None:
    assert [shown_value(v) for v in (False, True, None, 3, "x", [1])] == [
        "false",
        "true",
        "(not set)",
        "3",
        "x",
        "[1]",
    ]
