"""What applying only some of a plan's changes would leave, without touching any file.

Every operation of a plan touches only notes the whole plan touches, so replaying a subset on the
plan's before-images is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from core.models import MergeOp, Operation, Plan, RawNote, RetagOp, RewriteOp, operation_note_ids
from core.notes import fields
from core.notes.diff import LineTag, content_lines, first_line
from core.notes.working_set import Workspace, merged_content, replay


def kept_after(plan: Plan, kept: Iterable[int]) -> dict[str, RawNote]:
    """The notes as the kept operations would leave them, by id (unchanged ones included).

    A store may name a note its plan does not write (MicroClaw's duplicate edge points at the
    row it keeps): it stands in as a bare note here, and is not part of the answer."""
    chosen = set(kept)
    notes = [diff.before for diff in plan.notes]
    known = {note["id"] for note in notes}
    named = {i for op in plan.operations if op.id in chosen for i in operation_note_ids(op)}
    ws = Workspace(notes + [{"id": i, "links": []} for i in sorted(named - known)])
    for op in plan.operations:
        if op.id in chosen:
            replay(ws, op, plan.ran_at)
    ws.refresh_vectors()
    return {note["id"]: note for note in ws.notes if note["id"] in known}


def touched_by(plan: Plan, kept: Iterable[int]) -> list[str]:
    """Ids of the notes applying the kept operations would change, in plan order."""
    after = kept_after(plan, kept)
    return [diff.note_id for diff in plan.notes if after[diff.note_id] != diff.before]


def named_notes(plan: Plan, op_id: int) -> tuple[str, ...]:
    return operation_note_ids(plan.operations[op_id - 1])


@dataclass(frozen=True)
class ChangeView:
    """Exactly what one change does, read from the notes as they were before the plan: the
    notes it names, and the part of them it changes (the rest of the plan aside)."""

    op: Operation
    notes: tuple[RawNote, ...]  # the notes it names, as read (a merge: winner, then loser)
    content: list[tuple[LineTag, str]] = field(default_factory=list)  # a rewrite's line diff
    merged_text: str = ""  # a merge: the winner's content with the loser's lines absorbed
    tags_removed: list[str] = field(default_factory=list)
    tags_added: list[str] = field(default_factory=list)


def change_view(
    op: Operation, before: Mapping[str, RawNote], after: Mapping[str, RawNote] | None = None
) -> ChangeView:
    """`before`: the plan's notes as read, by id; `after`: as it leaves them (where a note cut
    from a file starts in it now: `firstLine`)."""
    notes = tuple(before[i] for i in operation_note_ids(op) if i in before)
    if isinstance(op, RewriteOp):
        old = fields.text(before[op.note_id], "content")
        first = (first_line(before[op.note_id]), first_line((after or {}).get(op.note_id)))
        return ChangeView(op, notes, content=content_lines(old, op.content, first=first))
    if isinstance(op, RetagOp):
        old_tags = fields.tags(before[op.note_id])
        return ChangeView(
            op,
            notes,
            tags_removed=[t for t in old_tags if t not in op.tags],
            tags_added=[t for t in op.tags if t not in old_tags],
        )
    if isinstance(op, MergeOp):
        winner, loser = before[op.winner_id], before[op.loser_id]
        merged = merged_content(fields.text(winner, "content"), fields.text(loser, "content"))
        own = fields.tags(winner)
        return ChangeView(
            op,
            notes,
            merged_text=merged,
            tags_added=[t for t in fields.tags(loser) if t not in own],
        )
    return ChangeView(op, notes)  # an archive shows the note; a link, its two notes
