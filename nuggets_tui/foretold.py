"""What the memory's own program will do after a write of ours, as the command line and the
console ask it before the write (the store's optional `foresight`): one line each."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.text import Text

from core.contract.parts import Foresight
from core.contract.store import Store
from core.errors import NuggetsError
from core.models import HideOp, MergeOp, Plan, SupersedeOp, operation_note_ids
from core.notes import fields

from .safe import join, line


def foretold(memory: Store, ask: Callable[[Foresight], Iterable[str]]) -> list[str]:
    """The lines the store's foresight answers; none when the store cannot tell, or cannot read
    what it would need (the write itself then says what is wrong)."""
    if memory.foresight is None:
        return []
    try:
        return list(ask(memory.foresight))
    except NuggetsError:
        return []


def archived_by(plan: Plan) -> list[str]:
    """The notes a plan archives (a decision's others, a merge's losers)."""
    return [d.note_id for d in plan.notes if fields.hidden(d.after) and not fields.hidden(d.before)]


def plan_outlook(memory: Store, plan: Plan, kept: set[int]) -> list[str]:
    """Before applying these of a plan's changes: what the memory's own program will do to the
    notes of the changes left out (rejected: its own pass may make them anyway), and to the
    notes the kept ones archive."""
    left = [
        note_id for op in plan.operations if op.id not in kept for note_id in operation_note_ids(op)
    ]
    archived = [
        op.loser_id if isinstance(op, MergeOp) else op.note_id
        for op in plan.operations
        if op.id in kept and isinstance(op, HideOp | MergeOp | SupersedeOp)
    ]
    return foretold(
        memory,
        lambda foresight: [
            *foresight.standing_outlook(dict.fromkeys(left)),
            *foresight.archive_outlook(archived),
        ],
    )


def afterwards(told: Iterable[str]) -> list[Text]:
    """What the memory's own program will do after the write, as a dialog's last lines."""
    lines = [join("  • ", line(said), "\n") for said in told]
    return [Text("\n\nAfterwards:\n"), *lines] if lines else []
