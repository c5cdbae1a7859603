"""The bot's own maintenance (rules 1-4 of docs/MICROCLAW.md, "The bot's maintenance as a plan")
as a plan: pure, clock injected.

The bot's reflector applies these silently on every tick; here they are computed on one
snapshot of the rows (notes from rows.py) and returned as a `Plan`, one operation per change:
  1. stale     active, confidence < 0.35, last seen (else updated, else created) > 30 days ago
  2. expired   active, expires_at at or before now (the bot deletes them; we archive)
  3. duplicate one nugget and category, the bot's word Jaccard >= 0.82: the weaker one is
               archived (lower confidence, then older last seen, then larger id) with a
               supersede edge `duplicate` to the kept one; PROFILE rows never
  4. cap       more than 200 active rows in a chat (500 global): the excess is archived,
               lowest confidence first, then oldest last seen (then smaller id)
The rules run in that order; a row archived by one is out of the later ones.

Rule 5 (topic conflicts) is not applied: conflicting rows go to the contradiction queue
(core/review/contradictions.py, with this store's topic rules).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from core.clock import parse_iso, to_iso
from core.errors import NuggetsError
from core.models import (
    ChangeType,
    HideOp,
    LinkOp,
    MergeOp,
    NoteDiff,
    Operation,
    Plan,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    SupersedeOp,
)
from core.stores.microclaw.paths import GLOBAL_NUGGET
from core.stores.microclaw.rows import DEFAULT_CONFIDENCE, rfc3339

STALE_CONFIDENCE = 0.35
STALE_AGE = timedelta(days=30)
DUPLICATE_JACCARD = 0.82
NEVER_DEDUPED = "PROFILE"
CHAT_CAP = 200
GLOBAL_CAP = 500
DUPLICATE_REASON = "duplicate"


def moment(text: object) -> datetime | None:
    """A row's timestamp: the bot's RFC 3339 form read directly, anything else as parse_iso
    reads it (None when unreadable)."""
    if type(text) is str and len(text) > 25 and text[10] == "T" and text.endswith("+00:00"):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            return None
    return parse_iso(text)


@dataclass
class _Row:
    position: int
    note: RawNote
    row_id: int
    nugget: str
    category: str
    confidence: float
    seen: datetime | None  # last seen, else updated, else created
    seen_text: str
    seen_order: float = field(init=False)

    @classmethod
    def of(cls, position: int, note: RawNote) -> _Row:
        mc = note["microclaw"]
        seen_text = mc.get("lastSeenAt") or note.get("updatedAt") or note.get("createdAt") or ""
        image = mc["row"]
        confidence = image.get("confidence", DEFAULT_CONFIDENCE)
        return cls(position, note, mc["rowId"], note["nuggetName"], note.get("type", ""),
                   DEFAULT_CONFIDENCE if confidence is None else float(confidence),
                   moment(seen_text), seen_text)

    def __post_init__(self) -> None:
        # Older first; an unreadable time counts as oldest.
        self.seen_order = self.seen.timestamp() if self.seen else float("-inf")


@dataclass
class _Builder:
    """Collects operations, changes and touched notes in plan order."""

    at: str  # the row timestamps written, in the bot's format
    ran_at: str
    operations: list[Operation]
    changes: list[ReflectionChange]
    after: dict[str, RawNote]
    before: dict[str, RawNote]

    def hide(self, row: _Row, detail: str) -> None:
        note = row.note
        after = self._after(note)
        after["hidden"] = True
        after["archivedAt"] = after["updatedAt"] = self.at
        image = after["microclaw"]["row"]
        for column, value in (("is_archived", 1), ("archived_at", self.at),
                              ("updated_at", self.at)):
            if column in image:
                image[column] = value
        self._add(HideOp.model_construct(id=len(self.operations) + 1, note_id=note["id"]),
                  "hide", note, detail)

    def link(self, row: _Row, kept: _Row, detail: str, reason: str = DUPLICATE_REASON) -> None:
        note = row.note
        after = self._after(note)
        after["links"] = [*after["links"], {
            "to": kept.note["id"], "reason": f"superseded by: {reason}",
            "createdAt": self.at, "edge": "supersede:new"}]
        op = LinkOp.model_construct(id=len(self.operations) + 1, note_id=note["id"],
                                    other_id=kept.note["id"], reason=reason)
        self._add(op, "link", note, detail)

    def _after(self, note: RawNote) -> RawNote:
        found = self.after.get(note["id"])
        if found is None:
            found = {**note, "microclaw": {**note["microclaw"],
                                           "row": dict(note["microclaw"]["row"])}}
            self.after[note["id"]] = found
            self.before[note["id"]] = note
        return found

    def _add(self, op: Operation, kind: ChangeType, note: RawNote, detail: str) -> None:
        self.operations.append(op)
        self.changes.append(ReflectionChange.model_construct(
            type=kind, nugget_name=note["nuggetName"], note_id=note["id"], detail=detail))


def _days(delta: timedelta) -> str:
    return f"{delta.days} day{'s' if delta.days != 1 else ''}"


def _stale(rows: list[_Row], now: datetime, out: _Builder) -> set[int]:
    done = set()
    for row in rows:
        if row.confidence < STALE_CONFIDENCE and row.seen and now - row.seen > STALE_AGE:
            out.hide(row, f"stale: confidence {row.confidence:.2f} below {STALE_CONFIDENCE} "
                          f"and last seen {_days(now - row.seen)} ago ({row.seen_text}), "
                          "more than 30 days")
            done.add(row.row_id)
    return done


def _expired(rows: list[_Row], now: datetime, out: _Builder) -> set[int]:
    done = set()
    for row in rows:
        expires = row.note["microclaw"].get("expiresAt")
        when = moment(expires)
        if when is not None and when <= now:
            out.hide(row, f"expired: expires_at {expires} has passed (the bot would delete "
                          "this row; it is archived instead)")
            done.add(row.row_id)
    return done


def _weaker(a: _Row, b: _Row) -> tuple[_Row, _Row]:
    """(weaker, kept): lower confidence, then older last seen, then larger id is weaker."""
    def strength(r: _Row) -> tuple[float, float, int]:
        return (r.confidence, r.seen_order, -r.row_id)
    return (a, b) if strength(a) < strength(b) else (b, a)


def _prefix_length(size: int) -> int:
    """How many of a word set's rarest words another set at the threshold must share one of
    (prefix filtering: J >= t needs an overlap >= t * size; integer arithmetic, no rounding)."""
    percent = round(DUPLICATE_JACCARD * 100)
    return size - (percent * size + 99) // 100 + 1


def _similar_pairs(group: list[_Row]) -> list[tuple[_Row, _Row, float]]:
    """Pairs at or above the threshold, in id order. Only pairs that share one of their
    rarest words (prefix filtering) and whose sizes allow it are compared: the same pairs as
    comparing every two, without the quadratic work."""
    words = [set(r.note["content"].split()) for r in group]
    counts: dict[str, int] = defaultdict(int)
    for found in words:
        for word in found:
            counts[word] += 1
    rank = {word: n for n, word in enumerate(sorted(counts, key=lambda w: (counts[w], w)))}
    index: dict[str, list[int]] = defaultdict(list)
    candidates: set[tuple[int, int]] = set()
    for i in sorted(range(len(group)), key=lambda k: len(words[k])):
        size = len(words[i])
        if not size:
            continue
        rarest = sorted(words[i], key=rank.__getitem__)[:_prefix_length(size)]
        for word in rarest:
            for j in index[word]:  # sets no larger than this one
                if len(words[j]) >= DUPLICATE_JACCARD * size:
                    candidates.add((j, i))
            index[word].append(i)
    found_pairs = []
    for i, j in candidates:
        union = len(words[i] | words[j])
        score = len(words[i] & words[j]) / union
        if score >= DUPLICATE_JACCARD:
            a, b = sorted((group[i], group[j]), key=lambda r: r.row_id)
            found_pairs.append((a, b, score))
    found_pairs.sort(key=lambda t: (t[0].row_id, t[1].row_id))
    return found_pairs


def _duplicates(rows: list[_Row], out: _Builder) -> set[int]:
    groups: dict[tuple[str, str], list[_Row]] = defaultdict(list)
    for row in rows:
        if row.category != NEVER_DEDUPED:
            groups[(row.nugget, row.category)].append(row)
    done: set[int] = set()
    for group in groups.values():
        for a, b, score in _similar_pairs(group):
            if a.row_id in done or b.row_id in done:
                continue
            loser, kept = _weaker(a, b)
            why = (f"duplicate of {kept.note['id']} (word Jaccard {score:.2f} >= "
                   f"{DUPLICATE_JACCARD}, same {loser.category or 'category'} in "
                   f"{loser.nugget})")
            out.hide(loser, f"{why}: the weaker one is archived ({_why_weaker(loser, kept)})")
            out.link(loser, kept, f"{why}: supersede edge '{DUPLICATE_REASON}' to the kept one")
            done.add(loser.row_id)
    return done


def _why_weaker(loser: _Row, kept: _Row) -> str:
    if loser.confidence != kept.confidence:
        return f"confidence {loser.confidence:.2f} < {kept.confidence:.2f}"
    if loser.seen_order != kept.seen_order:
        return f"last seen {loser.seen_text or 'never'}, earlier than {kept.seen_text}"
    return f"same confidence and last seen; larger id {loser.row_id} > {kept.row_id}"


def _caps(rows: list[_Row], out: _Builder) -> set[int]:
    by_nugget: dict[str, list[_Row]] = defaultdict(list)
    for row in rows:
        by_nugget[row.nugget].append(row)
    done = set()
    for nugget, members in by_nugget.items():
        cap = GLOBAL_CAP if nugget == GLOBAL_NUGGET else CHAT_CAP
        excess = len(members) - cap
        if excess <= 0:
            continue
        for row in sorted(members, key=lambda r: (r.confidence, r.seen_order, r.row_id))[:excess]:
            where = "global rows" if nugget == GLOBAL_NUGGET else f"rows in chat {nugget}"
            out.hide(row, f"over the cap: {len(members)} active {where}, more than {cap}; "
                          f"archived as one of the {excess} with the lowest confidence "
                          f"({row.confidence:.2f}) and oldest last seen ({row.seen_text})")
            done.add(row.row_id)
    return done


def plan_maintenance(notes: list[RawNote], now: datetime, base_fingerprint: str,
                     nugget_name: str | None = None) -> Plan:
    """The bot's rules 1-4 over the rows of one nugget (or all) as a plan; writes nothing."""
    active = [_Row.of(p, n) for p, n in enumerate(notes)
              if not n.get("hidden") and (nugget_name is None or n["nuggetName"] == nugget_name)]
    out = _Builder(rfc3339(now), to_iso(now), [], [], {}, {})
    remaining = active
    for rule in (lambda rs: _stale(rs, now, out), lambda rs: _expired(rs, now, out),
                 lambda rs: _duplicates(rs, out), lambda rs: _caps(rs, out)):
        archived = rule(remaining)
        remaining = [r for r in remaining if r.row_id not in archived]
    return _plan(out, active, notes, base_fingerprint, nugget_name)


def _plan(out: _Builder, active: Iterable[_Row], notes: list[RawNote], base: str,
          nugget_name: str | None) -> Plan:
    order = {n["id"]: p for p, n in enumerate(notes)}
    diffs = [NoteDiff.model_construct(note_id=i, before=out.before[i], after=out.after[i])
             for i in sorted(out.after, key=order.__getitem__)]
    hidden = sum(c.type == "hide" for c in out.changes)
    result = ReflectionResult(ran_at=out.ran_at, inspected=len(list(active)), hidden=hidden,
                              linked=len(out.changes) - hidden, changes=out.changes)
    return Plan.model_construct(
        ran_at=out.ran_at, base_fingerprint=base, nugget_name=nugget_name, limit=0,
        uncapped=True, result=result, operations=out.operations, notes=diffs, side_file_edits=[],
        side_file_fingerprints={},
    )


OPERATOR_REASON = "operator"  # a supersede edge the operator decided (a contradiction)


def plan_decided(notes: list[RawNote], operations: list[Operation], result: ReflectionResult,
                 now: datetime, base_fingerprint: str) -> Plan:
    """Operations decided elsewhere (one row of a contradiction stands, rejects archived) as a
    plan of the writes a MicroClaw database takes: an archive, and for a superseded row also a
    supersede edge `operator` to the row that stands. Rows cannot be merged."""
    by_id = {n["id"]: n for n in notes}
    out = _Builder(rfc3339(now), result.ran_at, [], [], {}, {})
    details = {c.note_id: c.detail for c in result.changes}
    for op in operations:
        if isinstance(op, MergeOp):
            raise NuggetsError("MicroClaw rows cannot be merged (the bot has no merge): keep "
                               "one of them instead, the others archived as superseded by it")
        row = _Row.of(0, _known(by_id, op.note_id))
        if isinstance(op, SupersedeOp):
            winner = _Row.of(0, _known(by_id, op.winner_id))
            out.hide(row, details.get(op.note_id) or f"Superseded by {op.winner_id}")
            out.link(row, winner, f"supersede edge '{OPERATOR_REASON}' to {op.winner_id}, the "
                                  "row that stands", OPERATOR_REASON)
        elif isinstance(op, HideOp):
            out.hide(row, details.get(op.note_id) or "archived")
        else:
            raise NuggetsError(f"a {op.type} is not something a MicroClaw plan does")
    return _plan(out, [_Row.of(0, by_id[i]) for i in out.before], notes, base_fingerprint, None)


def _known(by_id: dict[str, RawNote], note_id: str) -> RawNote:
    note = by_id.get(note_id)
    if note is None:
        raise NuggetsError(f"no row {note_id} in the database any more; plan again")
    return note
