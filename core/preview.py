"""What applying only some of a plan's changes would leave, without touching any file.

Every operation of a plan touches only notes the whole plan touches, so replaying a subset on the
plan's before-images is exact.
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Plan, RawNote, operation_note_ids
from .workspace import Workspace, replay


def kept_after(plan: Plan, kept: Iterable[int]) -> dict[str, RawNote]:
    """The notes as the kept operations would leave them, by id (unchanged ones included)."""
    chosen = set(kept)
    ws = Workspace([diff.before for diff in plan.notes])
    for op in plan.operations:
        if op.id in chosen:
            replay(ws, op, plan.ran_at)
    ws.refresh_vectors()
    return {note["id"]: note for note in ws.notes}


def touched_by(plan: Plan, kept: Iterable[int]) -> list[str]:
    """Ids of the notes applying the kept operations would change, in plan order."""
    after = kept_after(plan, kept)
    return [diff.note_id for diff in plan.notes if after[diff.note_id] != diff.before]


def named_notes(plan: Plan, op_id: int) -> tuple[str, ...]:
    return operation_note_ids(plan.operations[op_id - 1])
