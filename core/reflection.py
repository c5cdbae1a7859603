"""The reflection pass of SPEC §3, computed on a snapshot without writing anything.

Each decision becomes an operation that is replayed at once on a copy-on-write workspace, through
the same code that apply uses later.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from . import fields
from .candidates import LinkIndex, MergeIndex
from .clock import epoch_ms, to_iso
from .models import (
    HideOp,
    LinkOp,
    MergeOp,
    Operation,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    RetagOp,
    RewriteOp,
)
from .selection import select
from .text import normalize, note_tokens
from .tidy import is_low_value, new_tags
from .workspace import Workspace, replay

HIDE_DETAIL = "Archived low-value note"
REWRITE_DETAIL = "Normalized duplicated whitespace and repeated lines"
_COUNTERS = {"rewrite": "rewritten", "merge": "merged", "hide": "hidden", "tag": "tagged",
             "link": "linked"}


@dataclass
class PassOutcome:
    """What a pass would do: the result, one operation per change, and the notes after it."""

    result: ReflectionResult
    operations: list[Operation]
    workspace: Workspace


@dataclass
class _Run:
    ws: Workspace
    now: str
    result: ReflectionResult
    operations: list[Operation] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)
    _tokens: dict[str, list[str]] = field(default_factory=dict)

    def record(self, op: Operation, change_type: str, note_id: str, detail: str) -> None:
        note = self.ws.get(note_id)
        self.operations.append(op)
        self.result.changes.append(
            ReflectionChange(
                type=change_type, nugget_name=fields.text(note, "nuggetName"), note_id=note_id,
                detail=detail,
            )
        )
        counter = _COUNTERS[change_type]
        setattr(self.result, counter, getattr(self.result, counter) + 1)
        replay(self.ws, op, self.now)
        if isinstance(op, MergeOp | RewriteOp):
            for touched_id in (note_id, getattr(op, "loser_id", note_id)):
                self._tokens.pop(touched_id, None)

    def next_id(self) -> int:
        return len(self.operations) + 1

    def tokens(self, note_id: str) -> list[str]:
        cached = self._tokens.get(note_id)
        if cached is None:
            note = self.ws.get(note_id)
            cached = note_tokens(fields.text(note, "title"), fields.text(note, "content"))
            self._tokens[note_id] = cached
        return cached


def plan_pass(
    notes: list[RawNote],
    now: datetime,
    nugget_name: str | None = None,
    limit: int | None = 10,
    uncapped: bool = False,
) -> PassOutcome:
    """Compute the pass over `notes` (left untouched). `limit` None or `uncapped` lifts the cap."""
    if uncapped:
        limit = None
    run = _Run(ws=Workspace(notes), now=to_iso(now), result=ReflectionResult(ran_at=to_iso(now)))
    in_scope = [
        p for p, note in enumerate(notes)
        if nugget_name is None or note.get("nuggetName") == nugget_name
    ]
    selected = select(notes, in_scope, epoch_ms(now), limit)
    run.result.inspected = len(selected)
    for position in selected:
        _tidy(run, notes[position]["id"])
    _merge_phase(run, notes, in_scope, limit)
    _link_phase(run, notes, in_scope, limit)
    return PassOutcome(result=run.result, operations=run.operations, workspace=run.ws)


def _tidy(run: _Run, note_id: str) -> None:
    note = run.ws.get(note_id)
    if fields.hidden(note):
        return
    if is_low_value(note):
        run.touched.add(note_id)
        run.record(HideOp(id=run.next_id(), note_id=note_id), "hide", note_id, HIDE_DETAIL)
        return
    content = fields.text(note, "content")
    cleaned = normalize(content)
    if cleaned and cleaned != content:
        op = RewriteOp(id=run.next_id(), note_id=note_id, content=cleaned)
        run.record(op, "rewrite", note_id, REWRITE_DETAIL)
    tags = new_tags(run.ws.get(note_id), run.tokens(note_id))
    if tags != fields.tags(note):
        op = RetagOp(id=run.next_id(), note_id=note_id, tags=tags)
        run.record(op, "tag", note_id, "Tags -> " + ", ".join(tags))


def _pass_order(run: _Run, notes: list[RawNote], in_scope: list[int]) -> list[str]:
    """Visible notes in scope by nugget, updatedAt as it stood before the pass, then id."""
    visible = [p for p in in_scope if not fields.hidden(run.ws.notes[p])]
    visible.sort(
        key=lambda p: (fields.text(notes[p], "nuggetName"), fields.updated_at(notes[p]),
                       notes[p]["id"])
    )
    return [notes[p]["id"] for p in visible]


def _merge_phase(run: _Run, notes: list[RawNote], in_scope: list[int], limit: int | None) -> None:
    order = _pass_order(run, notes, in_scope)
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for note_id in order:
        note = run.ws.get(note_id)
        key = tuple(fields.text(note, k) for k in ("nuggetName", "subject", "scope", "type"))
        groups[key].append(note_id)
    member: dict[str, tuple[list[str], MergeIndex, int]] = {}
    for ids in groups.values():
        index = MergeIndex([frozenset(run.tokens(i)) for i in ids])
        for ordinal, note_id in enumerate(ids):
            member[note_id] = (ids, index, ordinal)
    merges = 0
    for note_id in order:
        if limit is not None and merges >= limit:
            return
        if note_id in run.touched:
            continue
        ids, index, ordinal = member[note_id]
        partner = index.first_partner(ordinal, lambda o, ids=ids: ids[o] not in run.touched)
        if partner is None:
            continue
        other_id = ids[partner]
        first, second = run.ws.get(note_id), run.ws.get(other_id)
        longer = len(fields.text(second, "content")) > len(fields.text(first, "content"))
        winner, loser = (other_id, note_id) if longer else (note_id, other_id)
        run.touched.update((winner, loser))
        op = MergeOp(id=run.next_id(), winner_id=winner, loser_id=loser)
        run.record(op, "merge", winner, f"Merged duplicate note {loser}")
        merges += 1


def _compatible(a: RawNote, b: RawNote) -> bool:
    if fields.text(a, "subject") == fields.text(b, "subject"):
        return True
    return fields.text(a, "scope") in fields.SHARED_SCOPES or fields.text(
        b, "scope"
    ) in fields.SHARED_SCOPES


def _link_phase(run: _Run, notes: list[RawNote], in_scope: list[int], limit: int | None) -> None:
    order = _pass_order(run, notes, in_scope)
    by_nugget: dict[str, list[str]] = defaultdict(list)
    for note_id in order:
        by_nugget[fields.text(run.ws.get(note_id), "nuggetName")].append(note_id)
    indexes = {
        name: LinkIndex([run.tokens(i) for i in ids]) for name, ids in by_nugget.items()
    }
    position_of = {i: p for ids in by_nugget.values() for p, i in enumerate(ids)}
    gained: set[str] = set()
    linked = 0
    for note_id in order:
        if limit is not None and linked >= limit:
            return
        note = run.ws.get(note_id)
        if note_id in gained or len(fields.links(note)) >= 2:
            continue
        tokens = run.tokens(note_id)
        if len(tokens) < 2:
            continue
        ids = by_nugget[fields.text(note, "nuggetName")]
        index = indexes[fields.text(note, "nuggetName")]
        index.skip_dead(lambda p, ids=ids: ids[p] in gained, tokens)
        mine = position_of[note_id]

        def accept(p: int, ids: list[str] = ids, mine: int = mine, note: RawNote = note) -> bool:
            other = run.ws.get(ids[p])
            return (
                p != mine
                and ids[p] not in gained
                and _compatible(note, other)
                and ids[p] not in fields.link_targets(note)
                and note["id"] not in fields.link_targets(other)
            )

        found = index.first_sharing_two(tokens, accept)
        if found is None:
            continue
        other_id = ids[found]
        theirs = set(run.tokens(other_id))
        shared = [t for t in tokens if t in theirs][:3]
        reason = "shared context: " + ", ".join(shared)
        gained.update((note_id, other_id))
        op = LinkOp(id=run.next_id(), note_id=note_id, other_id=other_id, reason=reason)
        run.record(op, "link", note_id, f"Linked to {other_id}")
        linked += 1
