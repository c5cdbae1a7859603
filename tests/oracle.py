"""The straightforward pass, kept as an oracle: phases 3 and 4 exactly as SPEC §3 words them,
every pair compared, no index. Only tests and benchmarks use it."""

from __future__ import annotations

from datetime import datetime

from core import fields
from core.clock import epoch_ms, to_iso
from core.models import LinkOp, MergeOp, RawNote, ReflectionResult
from core.reflection import PassOutcome, _compatible, _pass_order, _Run, _tidy
from core.selection import select
from core.text import jaccard
from core.workspace import Workspace


def oracle_pass(
    notes: list[RawNote], now: datetime, nugget_name: str | None = None, limit: int | None = 10,
    uncapped: bool = False,
) -> PassOutcome:
    if uncapped:
        limit = None
    run = _Run(ws=Workspace(notes), now=to_iso(now), result=ReflectionResult(ran_at=to_iso(now)))
    in_scope = [p for p, n in enumerate(notes)
                if nugget_name is None or n.get("nuggetName") == nugget_name]
    selected = select(notes, in_scope, epoch_ms(now), limit)
    run.result.inspected = len(selected)
    for position in selected:
        _tidy(run, notes[position]["id"])
    _merge_pairwise(run, _pass_order(run, notes, in_scope), limit)
    _link_pairwise(run, _pass_order(run, notes, in_scope), limit)
    return PassOutcome(result=run.result, operations=run.operations, workspace=run.ws)


def _same_group(a: RawNote, b: RawNote) -> bool:
    return all(fields.text(a, k) == fields.text(b, k)
               for k in ("nuggetName", "subject", "scope", "type"))


def _merge_pairwise(run: _Run, order: list[str], limit: int | None) -> None:
    merges = 0
    for i, first_id in enumerate(order):
        for second_id in order[i + 1:]:
            if limit is not None and merges >= limit:
                return
            if first_id in run.touched or second_id in run.touched:
                continue
            first, second = run.ws.get(first_id), run.ws.get(second_id)
            if not _same_group(first, second):
                continue
            if jaccard(run.tokens(first_id), run.tokens(second_id)) < 0.9:
                continue
            longer = len(fields.text(second, "content")) > len(fields.text(first, "content"))
            winner, loser = (second_id, first_id) if longer else (first_id, second_id)
            run.touched.update((winner, loser))
            op = MergeOp(id=run.next_id(), winner_id=winner, loser_id=loser)
            run.record(op, "merge", winner, f"Merged duplicate note {loser}")
            merges += 1


def _link_pairwise(run: _Run, order: list[str], limit: int | None) -> None:
    gained: set[str] = set()
    linked = 0
    for note_id in order:
        if limit is not None and linked >= limit:
            return
        note = run.ws.get(note_id)
        if note_id in gained or len(fields.links(note)) >= 2:
            continue
        mine = run.tokens(note_id)
        for other_id in order:
            other = run.ws.get(other_id)
            if other_id == note_id or other_id in gained:
                continue
            if fields.text(other, "nuggetName") != fields.text(note, "nuggetName"):
                continue
            if not _compatible(note, other):
                continue
            if other_id in fields.link_targets(note) or note_id in fields.link_targets(other):
                continue
            theirs = set(run.tokens(other_id))
            shared = [t for t in mine if t in theirs]
            if len(shared) < 2:
                continue
            reason = "shared context: " + ", ".join(shared[:3])
            gained.update((note_id, other_id))
            op = LinkOp(id=run.next_id(), note_id=note_id, other_id=other_id, reason=reason)
            run.record(op, "link", note_id, f"Linked to {other_id}")
            linked += 1
            break
