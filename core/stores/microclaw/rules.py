"""The bot's own maintenance as a plan (docs/MICROCLAW.md, "The bot's maintenance as a
plan"): pure, clock injected, the bot's config given.

The plan is what the bot will do at its next runs, one operation per change, each labelled
with the bot's step:
  expired      every reflector tick the bot DELETEs rows whose expires_at has passed, archived
               or not. Shown as a *rescue* (KeepOp: expires_at cleared), left out unless the
               operator keeps it: applying without it writes nothing for the row.
  stale        every tick: active, confidence < 0.35, last seen (else updated, else created)
               more than 30 days ago -> archived.
  global cap   every tick: more than the global cap (500) of active global rows -> the excess
               archived, confidence ascending, then last seen ascending, then id.
  consolidation  the bot's sleep-time consolidation (config `sleep_time`, off by default):
               chats idle `idle_hours` or more, greedy over active rows sorted by confidence
               then last_seen_at, both descending; a row matching (same category, the bot's
               word Jaccard >= threshold) a row already kept is archived, PROFILE never, at
               most `max_archived_per_pass` per chat, no supersede edge. When the bot's
               consolidation is off the same finding (every chat) is our own suggestion, left
               out unless kept.
  chat cap     the per-chat cap (200), applied by the bot only when the chat is next active
               (a user message in the reflector's window and a non-empty extraction): left
               out unless kept.
Rule 5 (topic conflicts) is not applied: conflicting rows go to the contradiction queue
(core/review/contradictions.py, with this store's topic rules).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import chain

from core.clock import parse_iso, shown_time, to_iso
from core.errors import NuggetsError
from core.models import (
    ChangeType,
    HideOp,
    KeepOp,
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
from core.stores.microclaw.config import BotConfig
from core.stores.microclaw.paths import GLOBAL_NUGGET
from core.stores.microclaw.rows import DEFAULT_CONFIDENCE, rfc3339
from core.stores.microclaw.topics import microclaw_token_sets

STALE_CONFIDENCE = 0.35
STALE_AGE = timedelta(days=30)
NEVER_DEDUPED = "PROFILE"

# What each operation's detail starts with: the bot's step, or ours.
STEP_EXPIRED = "bot step 'expired' (every reflector tick)"
STEP_STALE = "bot step 'stale' (every reflector tick)"
STEP_GLOBAL_CAP = "bot step 'global cap' (every reflector tick)"
STEP_CHAT_CAP = "bot step 'per-chat cap' (when the chat is next active)"
STEP_CONSOLIDATION = "bot step 'sleep-time consolidation'"
OUR_SUGGESTION = "our suggestion, not the bot's (its sleep-time consolidation is off)"

# A chat's last message, and its last message from a user, by internal chat id.
Activity = Mapping[int, tuple[str, str | None]]


def moment(text: object) -> datetime | None:
    """A row's timestamp: the bot's RFC 3339 form read directly, anything else as parse_iso
    reads it (None when unreadable)."""
    if type(text) is str and len(text) > 25 and text[10] == "T" and text.endswith("+00:00"):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            return None
    return parse_iso(text)


@dataclass(slots=True)
class _Row:
    note: RawNote
    row_id: int
    nugget: str
    category: str
    confidence: float
    seen_text: str  # last seen, else updated, else created
    last_seen: str | None  # last_seen_at alone (the consolidation sorts on it)
    chat_id: int | None

    @classmethod
    def of(cls, note: RawNote) -> _Row:
        mc = note["microclaw"]
        last_seen = mc.get("lastSeenAt")
        seen_text = last_seen or note.get("updatedAt") or note.get("createdAt") or ""
        confidence = mc["row"].get("confidence", DEFAULT_CONFIDENCE)
        chat_id = mc.get("chatId")
        return cls(
            note,
            mc["rowId"],
            note["nuggetName"],
            note.get("type", ""),
            DEFAULT_CONFIDENCE if confidence is None else float(confidence),
            seen_text,
            last_seen,
            chat_id if type(chat_id) is int else None,
        )

    # Read when a rule needs them (few rows), not for every row.
    @property
    def seen(self) -> datetime | None:
        return moment(self.seen_text)

    @property
    def seen_order(self) -> float:
        """Older first; an unreadable time counts as oldest."""
        seen = self.seen
        return seen.timestamp() if seen else float("-inf")


@dataclass
class _Builder:
    """Collects operations, changes and touched notes in plan order."""

    at: str  # the row timestamps written, in the bot's format
    ran_at: str
    operations: list[Operation]
    changes: list[ReflectionChange]
    after: dict[str, RawNote]
    before: dict[str, RawNote]
    left_out: list[int] = field(default_factory=list)

    def hide(self, row: _Row, detail: str, optional: bool = False) -> None:
        note = row.note
        after = self._after(note)
        after["hidden"] = True
        after["archivedAt"] = after["updatedAt"] = self.at
        image = after["microclaw"]["row"]
        for column, value in (
            ("is_archived", 1),
            ("archived_at", self.at),
            ("updated_at", self.at),
        ):
            if column in image:
                image[column] = value
        self._add(
            HideOp.model_construct(id=len(self.operations) + 1, note_id=note["id"]),
            "hide",
            note,
            detail,
            optional,
        )

    def rescue(self, row: _Row, detail: str) -> None:
        after = self._after(row.note)
        after["microclaw"]["expiresAt"] = None
        if "expires_at" in after["microclaw"]["row"]:
            after["microclaw"]["row"]["expires_at"] = None
        self._add(
            KeepOp.model_construct(id=len(self.operations) + 1, note_id=row.note["id"]),
            "keep",
            row.note,
            detail,
            optional=True,
        )

    def link(self, row: _Row, kept: _Row, detail: str, reason: str) -> None:
        note = row.note
        after = self._after(note)
        after["links"] = [
            *after["links"],
            {
                "to": kept.note["id"],
                "reason": f"superseded by: {reason}",
                "createdAt": self.at,
                "edge": "supersede:new",
            },
        ]
        op = LinkOp.model_construct(
            id=len(self.operations) + 1, note_id=note["id"], other_id=kept.note["id"], reason=reason
        )
        self._add(op, "link", note, detail)

    def _after(self, note: RawNote) -> RawNote:
        found = self.after.get(note["id"])
        if found is None:
            found = {
                **note,
                "microclaw": {**note["microclaw"], "row": dict(note["microclaw"]["row"])},
            }
            self.after[note["id"]] = found
            self.before[note["id"]] = note
        return found

    def _add(
        self, op: Operation, kind: ChangeType, note: RawNote, detail: str, optional: bool = False
    ) -> None:
        self.operations.append(op)
        if optional:
            self.left_out.append(op.id)
        self.changes.append(
            ReflectionChange.model_construct(
                type=kind, nugget_name=note["nuggetName"], note_id=note["id"], detail=detail
            )
        )


def _days(delta: timedelta) -> str:
    return f"{delta.days} day{'s' if delta.days != 1 else ''}"


def _expired(rows: list[_Row], now: datetime, out: _Builder) -> set[int]:
    """Rows the bot will delete (archived ones too): a rescue each, left out by default."""
    done = set()
    for row in rows:
        expires = row.note["microclaw"].get("expiresAt")
        if expires is None:
            continue
        when = moment(expires)
        if when is not None and when <= now:
            state = "archived row" if row.note.get("hidden") else "row"
            out.rescue(
                row,
                f"{STEP_EXPIRED}: the bot will DELETE this {state} (expires_at "
                f"{shown_time(expires)} has passed); keep this change to rescue it: its "
                "expires_at is cleared, the only write that keeps it",
            )
            done.add(row.row_id)
    return done


def _stale(rows: list[_Row], now: datetime, out: _Builder) -> set[int]:
    done = set()
    for row in rows:
        if row.confidence >= STALE_CONFIDENCE:
            continue
        seen = row.seen
        if seen and now - seen > STALE_AGE:
            out.hide(
                row,
                f"{STEP_STALE}: confidence {row.confidence:.2f} below "
                f"{STALE_CONFIDENCE} and last seen {_days(now - seen)} ago "
                f"({shown_time(row.seen_text)}), more than 30 days",
            )
            done.add(row.row_id)
    return done


def _cap_order(row: _Row) -> tuple[float, float, int]:
    return (row.confidence, row.seen_order, row.row_id)


def _global_cap(rows: list[_Row], cap: int, out: _Builder) -> set[int]:
    members = [r for r in rows if r.nugget == GLOBAL_NUGGET]
    excess = len(members) - cap
    if cap <= 0 or excess <= 0:
        return set()
    done = set()
    for row in sorted(members, key=_cap_order)[:excess]:
        out.hide(
            row,
            f"{STEP_GLOBAL_CAP}: {len(members)} active global rows, more than "
            f"{cap}; archived as one of the {excess} with the lowest confidence "
            f"({row.confidence:.2f}) and oldest last seen ({shown_time(row.seen_text)})",
        )
        done.add(row.row_id)
    return done


def _chat_caps(rows: list[_Row], config: BotConfig, active: set[int], out: _Builder) -> set[int]:
    by_nugget: dict[str, list[_Row]] = defaultdict(list)
    for row in rows:
        if row.nugget != GLOBAL_NUGGET:
            by_nugget[row.nugget].append(row)
    cap = config.chat_cap
    done: set[int] = set()
    if cap <= 0:
        return done
    for nugget, members in by_nugget.items():
        excess = len(members) - cap
        if excess <= 0:
            continue
        when = (
            "the chat had a user message in the last "
            f"{config.active_minutes} minutes: at the bot's next tick if it extracts "
            "anything"
            if members[0].chat_id in active
            else "not before the chat is active"
        )
        for row in sorted(members, key=_cap_order)[:excess]:
            out.hide(
                row,
                f"{STEP_CHAT_CAP}: {len(members)} active rows in chat {nugget}, "
                f"more than {cap}; archived as one of the {excess} with the lowest "
                f"confidence ({row.confidence:.2f}) and oldest last seen "
                f"({shown_time(row.seen_text)}); {when}",
                optional=True,
            )
            done.add(row.row_id)
    return done


def _ranks(words: list[frozenset[str]]) -> tuple[dict[str, int], int]:
    """Each word's place, rarest first (ties by the word): the order prefixes are cut in; and
    how many words only one row has (they come first)."""
    counts = Counter(chain.from_iterable(words))
    vocabulary = sorted(counts)
    vocabulary.sort(key=counts.__getitem__)  # stable: equal counts stay in word order
    singles = sum(1 for n in counts.values() if n == 1)
    return dict(zip(vocabulary, range(len(vocabulary)), strict=True)), singles


def _prefix(
    words: frozenset[str], rank: Mapping[str, int], threshold: float, singles: int
) -> list[str]:
    """The rarest words two sets at the threshold must share one of (prefix filtering). A
    Jaccard >= t needs an overlap of at least t * size words of each set, so two such sets
    share a word among the first size - overlap + 1 of each, in one order of all words. The
    overlap is taken a hair low, so that a score the float division rounds up to the threshold
    is not missed. A word only one row has (rank below `singles`) is shared with no other row:
    left out."""
    size = len(words)
    overlap = max(0, math.ceil(threshold * size * (1 - 1e-9)))
    ranked = sorted(words, key=rank.__getitem__)[: size - overlap + 1]
    return [word for word in ranked if rank[word] >= singles]


# A kept row as the index holds it: its place among the kept, its words, the row.
_Kept = tuple[int, frozenset[str], "_Row"]


def consolidation_picks(
    rows: list[_Row], threshold: float, limit: int
) -> list[tuple[_Row, _Row, float]]:
    """The bot's greedy pass over one chat (select_duplicate_memories_to_archive): rows in
    the bot's order (confidence, then last_seen_at, both descending; a stable sort of the rows
    in id order); each non-PROFILE row matching a row already kept (same category, Jaccard >=
    threshold) is archived, else kept; at most `limit`. (archived, the kept row, score)."""
    ordered = sorted(rows, key=lambda r: r.row_id)
    # last seen descending, None last, then confidence descending: stable sorts, least
    # significant first (reverse=True keeps the order of equal keys)
    ordered.sort(key=lambda r: (r.last_seen is not None, r.last_seen or ""), reverse=True)
    ordered.sort(key=lambda r: -r.confidence)
    words = microclaw_token_sets([r.note["content"] for r in ordered])
    rank, singles = _ranks(words)
    index: dict[tuple[str, str], list[_Kept]] = defaultdict(list)  # (category, word) -> kept
    empty_kept: dict[str, _Row] = {}
    kept = 0
    picks: list[tuple[_Row, _Row, float]] = []
    for row, mine in zip(ordered, words, strict=True):
        prefix = _prefix(mine, rank, threshold, singles)
        match = None
        if row.category != NEVER_DEDUPED:
            match = (
                _first_match(mine, prefix, index, row.category, threshold)
                if mine
                else _empty_match(empty_kept.get(row.category))
            )
        if match is not None:
            picks.append((row, match[0], match[1]))
            if len(picks) >= limit:
                break
            continue
        if not mine:
            empty_kept.setdefault(row.category, row)
        entry = (kept, mine, row)
        kept += 1
        for word in prefix:
            index[(row.category, word)].append(entry)
    return picks


def _empty_match(kept: _Row | None) -> tuple[_Row, float] | None:
    """An empty text matches the first kept empty text of its category (Jaccard 1.0)."""
    return None if kept is None else (kept, 1.0)


def _first_match(
    mine: frozenset[str],
    prefix: list[str],
    index: Mapping[tuple[str, str], list[_Kept]],
    category: str,
    threshold: float,
) -> tuple[_Row, float] | None:
    """The earliest kept row these words match, with its score (the bot stops at the first;
    any will do for the verdict, the earliest names the same one the bot's scan finds first):
    the kept rows sharing a word of the prefix, each compared once. A pair whose sizes alone
    bound its Jaccard below the threshold is not compared (it cannot reach it)."""
    size = len(mine)
    best: _Kept | None = None
    best_score = 0.0
    seen: set[int] = set()
    for word in prefix:
        for entry in index.get((category, word), ()):
            place, theirs, _ = entry
            if place in seen or (best is not None and place > best[0]):
                continue
            seen.add(place)
            other = len(theirs)
            if (other / size if other < size else size / other) < threshold:
                continue
            shared = len(mine & theirs)
            score = shared / (size + other - shared)
            if score >= threshold:
                best, best_score = entry, score
    return None if best is None else (best[2], best_score)


def _consolidation(
    rows: list[_Row],
    now: datetime,
    config: BotConfig,
    activity: Activity,
    out: _Builder,
    apart: Mapping[str, int],
) -> set[int]:
    """The duplicates the bot's sleep-time consolidation archives (or we suggest), but never
    one of two rows the operator let stand together (`apart`: row id -> their group)."""
    by_chat: dict[str, list[_Row]] = defaultdict(list)
    for row in rows:
        if row.nugget != GLOBAL_NUGGET and row.chat_id is not None:
            by_chat[row.nugget].append(row)
    idle_since = rfc3339(now - timedelta(hours=config.idle_hours))
    done: set[int] = set()
    for nugget, members in by_chat.items():
        last = activity.get(members[0].chat_id or 0)
        idle = last is not None and last[0] < idle_since
        if config.consolidation and not idle:
            continue  # the bot consolidates only chats idle long enough
        for loser, kept, score in consolidation_picks(
            members, config.threshold, config.max_per_pass
        ):
            if apart and apart.get(loser.note["id"], -1) == apart.get(kept.note["id"], -2):
                continue
            why = (
                f"near-duplicate of {kept.note['id']} (word Jaccard {score:.2f} >= "
                f"{config.threshold}, same {loser.category or 'category'} in {nugget}, "
                "the kept row has higher confidence or was seen later); archived, "
                "no supersede edge"
            )
            if config.consolidation:
                out.hide(
                    loser,
                    f"{STEP_CONSOLIDATION} (idle {config.idle_hours} h or more, at "
                    f"most {config.max_per_pass} per chat per pass): {why}",
                )
            else:
                out.hide(loser, f"{OUR_SUGGESTION}: {why}", optional=True)
            done.add(loser.row_id)
    return done


def plan_maintenance(
    notes: list[RawNote],
    now: datetime,
    base_fingerprint: str,
    nugget_name: str | None = None,
    config: BotConfig | None = None,
    activity: Activity | None = None,
    apart: Mapping[str, int] | None = None,
) -> Plan:
    """What the bot will do at its next runs over the rows of one nugget (or all), as a
    plan; writes nothing. `activity`: each chat's last message and last user message;
    `apart`: rows the operator let stand together (row id -> their group), never proposed as
    duplicates of each other."""
    config = config or BotConfig()
    activity = activity or {}
    rows = [_Row.of(n) for n in notes if nugget_name is None or n["nuggetName"] == nugget_name]
    out = _Builder(rfc3339(now), to_iso(now), [], [], {}, {})
    deleted = _expired(rows, now, out)
    active = [r for r in rows if not r.note.get("hidden") and r.row_id not in deleted]
    remaining = _without(active, _stale(active, now, out))
    remaining = _without(remaining, _global_cap(remaining, config.global_cap, out))
    consolidated = _consolidation(remaining, now, config, activity, out, apart or {})
    if config.consolidation:
        remaining = _without(remaining, consolidated)
    window = rfc3339(now - timedelta(minutes=config.active_minutes))
    recent = {chat for chat, (_, user) in activity.items() if user is not None and user > window}
    _chat_caps(remaining, config, recent, out)
    return _plan(out, active, notes, base_fingerprint, nugget_name)


def _without(rows: list[_Row], gone: set[int]) -> list[_Row]:
    return [r for r in rows if r.row_id not in gone] if gone else rows


def _plan(
    out: _Builder, active: Iterable[_Row], notes: list[RawNote], base: str, nugget_name: str | None
) -> Plan:
    order = {n["id"]: p for p, n in enumerate(notes)}
    diffs = [
        NoteDiff.model_construct(note_id=i, before=out.before[i], after=out.after[i])
        for i in sorted(out.after, key=order.__getitem__)
    ]
    hidden = sum(c.type == "hide" for c in out.changes)
    linked = sum(c.type == "link" for c in out.changes)
    result = ReflectionResult(
        ran_at=out.ran_at,
        inspected=len(list(active)),
        hidden=hidden,
        linked=linked,
        changes=out.changes,
    )
    return Plan.model_construct(
        ran_at=out.ran_at,
        base_fingerprint=base,
        nugget_name=nugget_name,
        limit=0,
        uncapped=True,
        result=result,
        operations=out.operations,
        notes=diffs,
        side_file_edits=[],
        side_file_fingerprints={},
        kind="reflect",
        unkept_by_default=out.left_out,
    )


OPERATOR_REASON = "operator"  # a supersede edge the operator decided (a contradiction)


def plan_decided(
    notes: list[RawNote],
    operations: list[Operation],
    result: ReflectionResult,
    now: datetime,
    base_fingerprint: str,
) -> Plan:
    """Operations decided elsewhere (one row of a contradiction stands, rejects archived) as a
    plan of the writes a MicroClaw database takes: an archive, and for a superseded row also a
    supersede edge `operator` to the row that stands. Rows cannot be merged."""
    by_id = {n["id"]: n for n in notes}
    out = _Builder(rfc3339(now), result.ran_at, [], [], {}, {})
    details = {c.note_id: c.detail for c in result.changes}
    for op in operations:
        if isinstance(op, MergeOp):
            raise NuggetsError(
                "MicroClaw rows cannot be merged (the bot has no merge): keep "
                "one of them instead, the others archived as superseded by it"
            )
        row = _Row.of(_known(by_id, op.note_id))
        if isinstance(op, SupersedeOp):
            winner = _Row.of(_known(by_id, op.winner_id))
            out.hide(row, details.get(op.note_id) or f"Superseded by {op.winner_id}")
            out.link(
                row,
                winner,
                f"supersede edge '{OPERATOR_REASON}' to {op.winner_id}, the row that stands",
                OPERATOR_REASON,
            )
        elif isinstance(op, HideOp):
            out.hide(row, details.get(op.note_id) or "archived")
        else:
            raise NuggetsError(f"a {op.type} is not something a MicroClaw plan does")
    return _plan(out, [_Row.of(by_id[i]) for i in out.before], notes, base_fingerprint, None)


def _known(by_id: dict[str, RawNote], note_id: str) -> RawNote:
    note = by_id.get(note_id)
    if note is None:
        raise NuggetsError(f"no row {note_id} in the database any more; plan again")
    return note
