"""The reflection pass of SPEC §3, computed on a snapshot without writing anything.

Each decision becomes an operation that is replayed at once on a copy-on-write workspace, through
the same code that apply uses later.

Speed (100k notes): tokens are computed once per note, lazily, and only again for a merge
winner (normalize never changes a note's tokens: it only moves whitespace and drops lines whose
tokens an earlier line already has). Merge partners come from a prefix-filter index built per
merge group when the walk first reaches the group; link partners from the first few notes still
open in pass order, then from an inverted index of the nugget. A capped pass therefore only
tokenizes the groups and nuggets it walks.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from datetime import datetime

from . import fields
from .candidates import LinkIndex, MergeIndex
from .clock import epoch_ms, to_iso
from .gcpause import paused_gc
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
from .selection import quality
from .text import normalize, note_tokens
from .tidy import is_low_value, new_tags
from .workspace import Workspace, replay

HIDE_DETAIL = "Archived low-value note"
REWRITE_DETAIL = "Normalized duplicated whitespace and repeated lines"
_COUNTERS = {"rewrite": "rewritten", "merge": "merged", "hide": "hidden", "tag": "tagged",
             "link": "linked"}
# How many open notes at the head of a nugget the link phase checks directly before it asks the
# inverted index: most notes find their partner there.
_DIRECT_LINK_CHECKS = 16


@dataclass
class PassOutcome:
    """What a pass would do: the result, one operation per change, and the notes after it."""

    result: ReflectionResult
    operations: list[Operation]
    workspace: Workspace


class _Run:
    def __init__(self, notes: list[RawNote], now: str) -> None:
        self.ws = Workspace(notes)
        self.now = now
        self.operations: list[Operation] = []
        self.changes: list[ReflectionChange] = []
        self.counts = dict.fromkeys(_COUNTERS.values(), 0)
        self.touched: set[str] = set()
        self._tokens: dict[str, list[str]] = {}
        self._sets: dict[str, frozenset[str]] = {}

    def record(self, op: Operation, change_type: str, note_id: str, detail: str) -> None:
        note = self.ws.get(note_id)
        self.operations.append(op)
        self.changes.append(
            ReflectionChange(
                type=change_type, nugget_name=fields.text(note, "nuggetName"), note_id=note_id,
                detail=detail,
            )
        )
        self.counts[_COUNTERS[change_type]] += 1
        replay(self.ws, op, self.now)
        if isinstance(op, MergeOp):
            self._tokens.pop(op.winner_id, None)
            self._sets.pop(op.winner_id, None)

    def next_id(self) -> int:
        return len(self.operations) + 1

    def tokens(self, note_id: str) -> list[str]:
        cached = self._tokens.get(note_id)
        if cached is None:
            note = self.ws.get(note_id)
            cached = note_tokens(fields.text(note, "title"), fields.text(note, "content"))
            self._tokens[note_id] = cached
        return cached

    def token_set(self, note_id: str) -> frozenset[str]:
        cached = self._sets.get(note_id)
        if cached is None:
            cached = self._sets[note_id] = frozenset(self.tokens(note_id))
        return cached

    def result(self, ran_at: str, inspected: int) -> ReflectionResult:
        return ReflectionResult(ran_at=ran_at, inspected=inspected, changes=self.changes,
                                **self.counts)


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
    stamp = to_iso(now)
    with paused_gc():
        run = _Run(notes, stamp)
        in_scope = [
            p for p, note in enumerate(notes)
            if nugget_name is None or note.get("nuggetName") == nugget_name
        ]
        selected = _select(notes, in_scope, epoch_ms(now), limit)
        for position in selected:
            _tidy(run, notes[position]["id"])
        order = _pass_order(run, notes, in_scope)
        _merge_phase(run, order, limit)
        _link_phase(run, [i for i in order if not fields.hidden(run.ws.get(i))], limit)
        result = run.result(stamp, len(selected))
    return PassOutcome(result=result, operations=run.operations, workspace=run.ws)


def _select(
    notes: list[RawNote], positions: list[int], now_ms: int, limit: int | None
) -> list[int]:
    """Phase 1: positions by quality descending, ties in file order."""
    keyed = [(-quality(notes[p], now_ms), p) for p in positions]
    if limit is None:
        keyed.sort()
    else:
        keyed = heapq.nsmallest(limit, keyed)
    return [p for _, p in keyed]


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
    current = run.ws.notes
    keyed = []
    for p in in_scope:
        if current[p].get("hidden") is not True:
            note = notes[p]
            stamp = _text(note.get("updatedAt")) or _text(note.get("createdAt"))
            keyed.append((_text(note.get("nuggetName")), stamp, note["id"]))
    keyed.sort()
    return [key[2] for key in keyed]


def _text(value: object) -> str:
    """fields.text for a value already taken from the note."""
    return value if isinstance(value, str) else ""


def _group_key(note: RawNote) -> tuple[str, str, str, str]:
    return (_text(note.get("nuggetName")), _text(note.get("subject")), _text(note.get("scope")),
            _text(note.get("type")))


class _MergeGroups:
    """The merge groups of the pass order, each indexed when the walk first needs it."""

    def __init__(self, run: _Run, order: list[str]) -> None:
        self.run = run
        self.order = order
        self.members: dict[tuple[str, ...], list[int]] = {}
        self.group_of: list[tuple[str, ...]] = []
        for position, note_id in enumerate(order):
            key = _group_key(run.ws.get(note_id))
            self.group_of.append(key)
            self.members.setdefault(key, []).append(position)
        self._indexes: dict[tuple[str, ...], MergeIndex] = {}

    def index(self, position: int) -> MergeIndex:
        key = self.group_of[position]
        found = self._indexes.get(key)
        if found is None:
            members = self.members[key]
            sets = [self.run.token_set(self.order[p]) for p in members]
            found = self._indexes[key] = MergeIndex(members, sets)
        return found


def _merge_phase(run: _Run, order: list[str], limit: int | None) -> None:
    groups = _MergeGroups(run, order)
    touched = run.touched

    def usable(position: int) -> bool:
        return order[position] not in touched

    merges = 0
    for position, note_id in enumerate(order):
        if limit is not None and merges >= limit:
            return
        if note_id in touched:
            continue
        partner = groups.index(position).first_partner(position, usable)
        if partner is None:
            continue
        other_id = order[partner]
        first, second = run.ws.get(note_id), run.ws.get(other_id)
        longer = len(fields.text(second, "content")) > len(fields.text(first, "content"))
        winner, loser = (other_id, note_id) if longer else (note_id, other_id)
        touched.update((winner, loser))
        op = MergeOp(id=run.next_id(), winner_id=winner, loser_id=loser)
        run.record(op, "merge", winner, f"Merged duplicate note {loser}")
        merges += 1


def _compatible(a: RawNote, b: RawNote) -> bool:
    if fields.text(a, "subject") == fields.text(b, "subject"):
        return True
    return fields.text(a, "scope") in fields.SHARED_SCOPES or fields.text(
        b, "scope"
    ) in fields.SHARED_SCOPES


class _Nugget:
    """The open notes of one nugget in pass order, for the link phase."""

    def __init__(self, run: _Run, ids: list[str]) -> None:
        self.run = run
        self.ids = ids
        self.head = 0
        self.dead = bytearray(len(ids))  # gained a link this run: never a partner again
        self._index: LinkIndex | None = None

    def index(self) -> LinkIndex:
        if self._index is None:
            self._index = LinkIndex([self.run.tokens(i) for i in self.ids])
        return self._index


class _LinkPhase:
    def __init__(self, run: _Run, order: list[str]) -> None:
        self.run = run
        self.gained: set[str] = set()
        by_nugget: dict[str, list[str]] = {}
        for note_id in order:
            by_nugget.setdefault(_text(run.ws.get(note_id).get("nuggetName")), []).append(note_id)
        self.nuggets = {name: _Nugget(run, ids) for name, ids in by_nugget.items()}
        self.position_of = {i: p for ids in by_nugget.values() for p, i in enumerate(ids)}

    def partner(self, note_id: str) -> str | None:
        """The first other open note of the nugget, compatible, not linked with this one either
        way, sharing at least two distinct tokens."""
        run, gained = self.run, self.gained
        note = run.ws.get(note_id)
        nugget = self.nuggets[fields.text(note, "nuggetName")]
        ids, mine = nugget.ids, self.position_of[note_id]
        my_set = run.token_set(note_id)
        my_targets = fields.link_targets(note)

        def accept(p: int) -> bool:
            other_id = ids[p]
            if p == mine or other_id in gained or len(my_set & run.token_set(other_id)) < 2:
                return False
            other = run.ws.get(other_id)
            return (_compatible(note, other) and other_id not in my_targets
                    and note_id not in fields.link_targets(other))

        while nugget.head < len(ids) and ids[nugget.head] in gained:
            nugget.head += 1
        position, checked = nugget.head, 0
        while position < len(ids) and checked < _DIRECT_LINK_CHECKS:
            if accept(position):
                return ids[position]
            checked += ids[position] not in gained and position != mine
            position += 1
        found = nugget.index().first_sharing_two(run.tokens(note_id), position - 1, nugget.dead,
                                                 accept)
        return None if found is None else ids[found]

    def gain(self, note_id: str, other_id: str) -> None:
        for gainer in (note_id, other_id):
            self.gained.add(gainer)
            nugget = self.nuggets[fields.text(self.run.ws.get(gainer), "nuggetName")]
            nugget.dead[self.position_of[gainer]] = 1


def _link_phase(run: _Run, order: list[str], limit: int | None) -> None:
    phase = _LinkPhase(run, order)
    linked = 0
    for note_id in order:
        if limit is not None and linked >= limit:
            return
        note = run.ws.get(note_id)
        if note_id in phase.gained or len(fields.links(note)) >= 2:
            continue
        tokens = run.tokens(note_id)
        if len(tokens) < 2:
            continue
        other_id = phase.partner(note_id)
        if other_id is None:
            continue
        theirs = run.token_set(other_id)
        shared = [t for t in tokens if t in theirs][:3]
        reason = "shared context: " + ", ".join(shared)
        phase.gain(note_id, other_id)
        op = LinkOp(id=run.next_id(), note_id=note_id, other_id=other_id, reason=reason)
        run.record(op, "link", note_id, f"Linked to {other_id}")
        linked += 1
