"""The straightforward pass, kept as an oracle: docs/PASS.md phase by phase as worded, every
pair compared, no index, no cache beyond one token list per note state.

It shares only the rules docs/PASS.md names with the engine (tokens, jaccard, normalize, low
value, new tags) and the code that carries out each operation (`core.notes.working_set.replay`,
which apply uses too).
Selection, ordering, pairing, partner choice, limits and the result are its own. Only the
benchmark and the tests use it; the shipped code path never does.
"""

from __future__ import annotations

from datetime import datetime

from core.clock import epoch_ms, parse_iso, to_iso
from core.models import (
    ChangeType,
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
from core.notes import fields
from core.notes.text import jaccard, normalize, note_tokens
from core.notes.working_set import Workspace, replay
from core.reflection.reflect import PassOutcome
from core.reflection.tidy_phase import is_low_value, new_tags

HOUR_MS = 3_600_000
DAY_MS = 86_400_000
COUNTERS = {
    "rewrite": "rewritten",
    "merge": "merged",
    "hide": "hidden",
    "tag": "tagged",
    "link": "linked",
}
SHARED_SCOPES = ("shared", "project")


class _OraclePass:
    def __init__(self, notes: list[RawNote], now: datetime, limit: int | None) -> None:
        self.notes = notes
        self.now = now
        self.stamp = to_iso(now)
        self.limit = limit
        self.ws = Workspace(notes)
        self.result = ReflectionResult(ran_at=self.stamp)
        self.operations: list[Operation] = []
        self.touched: set[str] = set()
        self._tokens: dict[str, tuple[str, str, list[str]]] = {}

    def note(self, note_id: str) -> RawNote:
        return self.ws.get(note_id)

    def tokens(self, note_id: str) -> list[str]:
        """Note tokens of the note as it stands now."""
        note = self.note(note_id)
        title, content = fields.text(note, "title"), fields.text(note, "content")
        cached = self._tokens.get(note_id)
        if cached is None or cached[:2] != (title, content):
            cached = (title, content, note_tokens(title, content))
            self._tokens[note_id] = cached
        return cached[2]

    def record(self, op: Operation, change_type: ChangeType, note_id: str, detail: str) -> None:
        self.operations.append(op)
        nugget = fields.nugget(self.note(note_id))
        self.result.changes.append(
            ReflectionChange(type=change_type, nugget_name=nugget, note_id=note_id, detail=detail)
        )
        counter = COUNTERS[change_type]
        setattr(self.result, counter, getattr(self.result, counter) + 1)
        replay(self.ws, op, self.stamp)

    def next_id(self) -> int:
        return len(self.operations) + 1

    def outcome(self) -> PassOutcome:
        return PassOutcome(result=self.result, operations=self.operations, workspace=self.ws)


def oracle_pass(
    notes: list[RawNote],
    now: datetime,
    nugget_name: str | None = None,
    limit: int | None = 10,
    uncapped: bool = False,
) -> PassOutcome:
    """The pass of docs/PASS.md on `notes` (left untouched); the same signature as
    `core.reflection.reflect.plan_pass`."""
    run = _OraclePass(notes, now, None if uncapped else limit)
    in_scope = [n["id"] for n in notes if nugget_name is None or fields.nugget(n) == nugget_name]
    selected = _select(run, in_scope)
    run.result.inspected = len(selected)
    for note_id in selected:
        _archive_normalize_retag(run, note_id)
    _merge_pairs(run, _order(run, in_scope))
    _link_pairs(run, _order(run, in_scope))
    return run.outcome()


def _quality(note: RawNote, now_ms: int) -> int:
    """Age in ms (updatedAt, else createdAt; 0 if unparseable or in the future) + the bonuses."""
    moment = parse_iso(note.get("updatedAt") or note.get("createdAt"))
    age = 0 if moment is None else max(0, now_ms - epoch_ms(moment))
    age += HOUR_MS if not fields.tags(note) else 0
    age += HOUR_MS if not fields.links(note) else 0
    age -= DAY_MS if fields.hidden(note) else 0
    return age


def _select(run: _OraclePass, in_scope: list[str]) -> list[str]:
    """Phase 1: by quality descending, ties in file order (a stable sort keeps it)."""
    now_ms = epoch_ms(run.now)
    ranked = sorted(in_scope, key=lambda i: -_quality(run.note(i), now_ms))
    return ranked if run.limit is None else ranked[: run.limit]


def _archive_normalize_retag(run: _OraclePass, note_id: str) -> None:
    """Phase 2 for one selected note."""
    if fields.hidden(run.note(note_id)):
        return
    if is_low_value(run.note(note_id)):
        run.touched.add(note_id)
        run.record(
            HideOp(id=run.next_id(), note_id=note_id), "hide", note_id, "Archived low-value note"
        )
        return
    content = fields.text(run.note(note_id), "content")
    cleaned = normalize(content)
    if cleaned and cleaned != content:
        run.record(
            RewriteOp(id=run.next_id(), note_id=note_id, content=cleaned),
            "rewrite",
            note_id,
            "Normalized duplicated whitespace and repeated lines",
        )
    tags = new_tags(run.note(note_id), run.tokens(note_id))
    if tags != run.note(note_id).get("tags"):
        run.record(
            RetagOp(id=run.next_id(), note_id=note_id, tags=tags),
            "tag",
            note_id,
            "Tags -> " + ", ".join(tags),
        )


def _order(run: _OraclePass, in_scope: list[str]) -> list[str]:
    """Visible notes in scope by nugget name, then updatedAt as it stood before the pass (a note
    without one is read with its createdAt), then id."""
    before = {n["id"]: n for n in run.notes}

    def key(note_id: str) -> tuple[str, str, str]:
        note = before[note_id]
        stamp = fields.text(note, "updatedAt") or fields.text(note, "createdAt")
        return fields.nugget(note), stamp, note_id

    return sorted((i for i in in_scope if not fields.hidden(run.note(i))), key=key)


def _group(note: RawNote) -> tuple[str, ...]:
    return (fields.nugget(note), *(fields.meta(note, k) for k in ("subject", "scope", "type")))


def _merge_pairs(run: _OraclePass, order: list[str]) -> None:
    """Phase 3: every pair i < j in order; the longer content absorbs the other. A merged note
    is touched, so once `first` merges, no later pair with it can qualify."""
    group = {note_id: _group(run.note(note_id)) for note_id in order}
    merges = 0
    for i, first_id in enumerate(order):
        if run.limit is not None and merges >= run.limit:
            return
        if first_id in run.touched:
            continue
        for second_id in order[i + 1 :]:
            if second_id in run.touched or group[second_id] != group[first_id]:
                continue
            if jaccard(run.tokens(first_id), run.tokens(second_id)) < 0.9:
                continue
            first, second = run.note(first_id), run.note(second_id)
            longer = len(fields.text(second, "content")) > len(fields.text(first, "content"))
            winner, loser = (second_id, first_id) if longer else (first_id, second_id)
            run.touched.update((winner, loser))
            run.record(
                MergeOp(id=run.next_id(), winner_id=winner, loser_id=loser),
                "merge",
                winner,
                f"Merged duplicate note {loser}",
            )
            merges += 1
            break


def _compatible(a: RawNote, b: RawNote) -> bool:
    return (
        fields.meta(a, "subject") == fields.meta(b, "subject")
        or fields.meta(a, "scope") in SHARED_SCOPES
        or fields.meta(b, "scope") in SHARED_SCOPES
    )


def _linked_either_way(a: RawNote, b: RawNote) -> bool:
    return any(link["to"] == b["id"] for link in fields.links(a)) or any(
        link["to"] == a["id"] for link in fields.links(b)
    )


def _link_pairs(run: _OraclePass, order: list[str]) -> None:
    """Phase 4: each visible note with fewer than 2 links, against every other note in order."""
    gained: set[str] = set()
    linked = 0
    for note_id in order:
        if run.limit is not None and linked >= run.limit:
            return
        note = run.note(note_id)
        if note_id in gained or len(fields.links(note)) >= 2:
            continue
        for other_id in order:
            other = run.note(other_id)
            if other_id == note_id or other_id in gained or fields.hidden(other):
                continue
            if fields.nugget(other) != fields.nugget(note):
                continue
            if not _compatible(note, other) or _linked_either_way(note, other):
                continue
            theirs = set(run.tokens(other_id))
            shared = [t for t in run.tokens(note_id) if t in theirs]
            if len(shared) < 2:
                continue
            reason = "shared context: " + ", ".join(shared[:3])
            gained.update((note_id, other_id))
            run.record(
                LinkOp(id=run.next_id(), note_id=note_id, other_id=other_id, reason=reason),
                "link",
                note_id,
                f"Linked to {other_id}",
            )
            linked += 1
            break
