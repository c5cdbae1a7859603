"""Scored verdicts (docs/VERDICTS.md, "Scores" and "The verdict"): six scores, their strength,
and the verdict they lead to.

strength = durability + future_judgment_value + action_value + identity_relationship_weight
+ cross_time_persistence - noise_risk; a strength that drifts more than 0.01 from that is
refused. Verdict, first match: `reject` (strength <= 0.5 or noise_risk >= 0.8), `compress` (a
near-duplicate sibling absorbs it: the reflection merge would fold it into another note),
`merge` (it belongs to a contradiction group or a duplicate pair), `promote` (strength >= 2.0),
else `defer`. Verdicts are advice: acting on them is an ordinary plan (`act_operations`).

API:
- `judge(notes, now, topic=nuggets_topic, model=None, tokens=token_set) -> Judgement`
  (verdicts of the visible notes in file order, notices, token usage); `model`: a
  `ModelJudge` (core/review/model_scorer.py); a note carrying its own system's verdict
  (`storedVerdict`, `stored_verdict`) keeps it, scorer "stored"
- `Verdict` (note_id, scores, strength, verdict, reasons, why, compress_target,
  merge_candidate_ids, scorer); `strength_of(scores)`, `check_strength(scores, strength)`,
  `verdict_rule(strength, noise_risk, compress_target, merge_ids) -> (verdict, why)`
- `act_operations(verdicts, "reject", ran_at, nugget_of) -> (operations, ReflectionResult)`
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core.errors import NuggetsError
from core.models import HideOp, MergeOp, Operation, RawNote, ReflectionChange, ReflectionResult
from core.notes import fields
from core.notes.bounded_text import bounded_notes
from core.progress import Progress, Stages, Stopped
from core.promotion.candidates import written_ids
from core.reflection.pass_state import CHECK_EVERY
from core.reflection.reflect import plan_pass
from core.review.contradictions import (
    PairJudge,
    Promotable,
    Tokenizer,
    find_contradictions,
    token_set,
)
from core.review.decisions import is_settled
from core.review.default_scorer import SCORE_NAMES, ScoringContext, default_score, topic_sessions
from core.review.topics import TopicKey, nuggets_topic

VERDICTS = ("reject", "defer", "compress", "merge", "promote")
POSITIVE = SCORE_NAMES[:5]
DRIFT = 0.01
REJECT_AT_OR_BELOW = 0.5
NOISE_REJECTS_AT = 0.8
PROMOTE_AT = 2.0


class StrengthDriftError(NuggetsError):
    pass


@dataclass(frozen=True)
class Verdict:
    note_id: str
    scores: dict[str, float]
    strength: float
    verdict: str
    reasons: dict[str, str]  # per score, in words
    why: str  # the rule that decided the verdict, in words
    compress_target: str | None = None
    merge_candidate_ids: tuple[str, ...] = ()
    scorer: str = "default"  # "default", "model", or "default (model batch failed: ...)"

    def to_json_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "noteId": self.note_id,
            "verdict": self.verdict,
            "strength": self.strength,
            "scores": dict(self.scores),
            "reasons": dict(self.reasons),
            "why": self.why,
            "scorer": self.scorer,
        }
        if self.compress_target is not None:
            out["compressTarget"] = self.compress_target
        if self.merge_candidate_ids:
            out["mergeCandidateIds"] = list(self.merge_candidate_ids)
        return out


@dataclass
class Judgement:
    verdicts: list[Verdict]
    notices: list[str] = field(default_factory=list)
    usage: str = "unavailable"  # token usage: "exact ...", "approximate ...", "unavailable"


def strength_of(scores: Mapping[str, float]) -> float:
    return round(sum(scores[name] for name in POSITIVE) - scores["noise_risk"], 4)


def check_strength(scores: Mapping[str, float], strength: float) -> None:
    """Refuse a strength that drifts more than 0.01 from the formula."""
    expected = strength_of(scores)
    if abs(expected - strength) > DRIFT + 1e-9:
        raise StrengthDriftError(
            f"strength {strength:g} drifts from the formula's {expected:g} by more than {DRIFT}"
        )


def verdict_rule(
    strength: float,
    noise_risk: float,
    compress_target: str | None,
    merge_ids: tuple[str, ...],
    promotable: bool = True,
    promote_at: float = PROMOTE_AT,
) -> tuple[str, str]:
    """The verdict and why, first match. `promotable`: promotion would write the note;
    `promote_at`: the store's bar (docs/VERDICTS.md, "The verdict")."""
    if strength <= REJECT_AT_OR_BELOW:
        return "reject", f"strength {strength:.2f} is at most {REJECT_AT_OR_BELOW}"
    if noise_risk >= NOISE_REJECTS_AT:
        return "reject", f"noise risk {noise_risk:.2f} is at least {NOISE_REJECTS_AT}"
    if compress_target is not None:
        return "compress", f"a near-duplicate, {compress_target}, absorbs it"
    if merge_ids:
        return "merge", f"the queue has it to decide with {', '.join(merge_ids)}"
    if strength >= promote_at and promotable:
        return "promote", f"strength {strength:.2f} is at least {promote_at:g}"
    if strength >= promote_at:
        return "defer", (
            f"strength {strength:.2f}, but promotion would not write it "
            "(not recalled often enough yet)"
        )
    return "defer", f"strength {strength:.2f}: not enough signal yet"


@dataclass(frozen=True)
class Siblings:
    compress_target: dict[str, str]  # loser -> the note that absorbs it
    merge_with: dict[str, tuple[str, ...]]  # note -> the others the queue has it to decide with
    promotable: frozenset[str] | None = None  # the notes promotion would write (None: any)
    promote_at: float = PROMOTE_AT  # the strength `promote` needs in this store


def kept_of(members: list[RawNote]) -> RawNote:
    """The note a duplicate set keeps: the most recalled (hits), then the most recently updated
    (`updatedAt` as text, as promotion chooses among notes of one title), then the later in
    the file."""
    return max(
        enumerate(members),
        key=lambda item: (fields.hits(item[1]), fields.updated_at(item[1]), item[0]),
    )[1]


def siblings(
    notes: list[RawNote],
    now: datetime,
    topic: TopicKey,
    tokens: Tokenizer = token_set,
    settled: Collection[str] = (),
    promotable: Collection[str] | None = None,
    whole: Mapping[str, RawNote] | None = None,
    promote_at: float = PROMOTE_AT,
    should_stop: Callable[[], bool] | None = None,
    progress: Progress | None = None,
    recorded: bool = False,
    pairs: PairJudge | None = None,
) -> Siblings:
    """Who absorbs whom (the reflection merge, uncapped, then the duplicate sets: the note
    each keeps, among those the merge leaves, absorbs the rest) and what the queue has each
    note to decide with (the others of its open contradiction group). `settled`: the keys of
    the groups the operator let stand (core/review/decisions.py), which decide nothing more,
    keyed on the notes' `whole` text when `notes` are bounded. `should_stop`, `progress`: the
    pass's (plan_pass)."""
    merges = [
        op
        for op in plan_pass(
            notes, now, uncapped=True, should_stop=should_stop, progress=progress
        ).operations
        if isinstance(op, MergeOp)
    ]
    compress = {op.loser_id: op.winner_id for op in merges}
    by_id = {n["id"]: n for n in notes}
    together: dict[str, list[str]] = {}
    for group in find_contradictions(
        notes, topic, tokens=tokens, promotion=False, recorded=recorded, judge=pairs
    ):
        members = [by_id[i] for i in group.note_ids]
        if is_settled(((whole or by_id)[i] for i in group.note_ids), settled):
            continue
        if group.duplicate:
            kept = kept_of([m for m in members if m["id"] not in compress] or members)["id"]
            compress.update((i, kept) for i in group.note_ids if i != kept and i not in compress)
            continue
        for note_id in group.note_ids:
            together.setdefault(note_id, []).extend(i for i in group.note_ids if i != note_id)
    chosen = None if promotable is None else frozenset(promotable)
    return Siblings(
        compress, {i: tuple(dict.fromkeys(ids)) for i, ids in together.items()}, chosen, promote_at
    )


def stored_drift(note: RawNote) -> str | None:
    """A note that carries stored scores (`scores` and `strength`, the purifier's): why they
    are refused, when they drift from the formula."""
    scores, strength = note.get("scores"), note.get("strength")
    if not isinstance(scores, dict) or not isinstance(strength, int | float):
        return None
    try:
        check_strength({n: float(scores[n]) for n in SCORE_NAMES}, float(strength))
    except (KeyError, TypeError, ValueError):
        return "its stored scores are incomplete"
    except StrengthDriftError as exc:
        return str(exc)
    return None


def default_verdict(note: RawNote, context: ScoringContext, found: Siblings) -> Verdict:
    scored = default_score(note, context)
    strength = strength_of(scored.scores)
    note_id = note["id"]
    target = found.compress_target.get(note_id)
    merge_ids = () if target else found.merge_with.get(note_id, ())
    promotable = found.promotable is None or note_id in found.promotable
    verdict, why = verdict_rule(
        strength, scored.scores["noise_risk"], target, merge_ids, promotable, found.promote_at
    )
    return Verdict(
        note_id,
        scored.scores,
        strength,
        verdict,
        scored.reasons,
        why,
        target if verdict == "compress" else None,
        merge_ids if verdict == "merge" else (),
    )


ModelJudge = Callable[[list[RawNote], ScoringContext, Siblings], Judgement]


def stored_verdict(note: RawNote) -> Verdict | None:
    """The verdict a note's own memory system gave it (`storedVerdict`: verdict, scores,
    strength, why), kept as given: a system that scores its memories is not scored again."""
    stored = note.get("storedVerdict")
    if not isinstance(stored, dict) or stored.get("verdict") not in VERDICTS:
        return None
    scores = {
        k: float(v) for k, v in (stored.get("scores") or {}).items() if isinstance(v, int | float)
    }
    strength = stored.get("strength")
    target = stored.get("compressTarget")
    return Verdict(
        note["id"],
        scores,
        float(strength) if isinstance(strength, int | float) else 0.0,
        str(stored["verdict"]),
        {},
        str(stored.get("why") or ""),
        target if isinstance(target, str) else None,
        tuple(str(i) for i in stored.get("mergeCandidateIds") or ()),
        "stored",
    )


# What judging costs, stage by stage (relative; the 100k sample): the uncapped pass behind
# the siblings, then the contradiction groups, then each note's verdict.
JUDGE_STAGES = (6, 2, 3)


def judge(
    notes: list[RawNote],
    now: datetime,
    topic: TopicKey = nuggets_topic,
    model: ModelJudge | None = None,
    tokens: Tokenizer = token_set,
    promotable: Promotable | None = written_ids,
    settled: Collection[str] = (),
    promote_at: float = PROMOTE_AT,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
    recorded: bool = False,
    pairs: PairJudge | None = None,
) -> Judgement:
    """A verdict for every visible note, in file order (pure, given the clock). Each note's
    text is read up to core/notes/bounded_text.py's bound, the siblings' comparison too.
    `promotable`: the notes the store's promotion would write (None: any note may be
    promoted); `settled`: the keys of the groups let stand. `progress` is told how far it is
    (in shares of the whole: core/progress.py's Stages); `should_stop`, asked now and then,
    ends it early with core.progress.Stopped."""
    whole = {n["id"]: n for n in notes} if settled else None  # a group is keyed on these
    chosen = None if promotable is None else promotable(notes)
    notes = bounded_notes(notes)
    visible = [n for n in notes if not fields.hidden(n)]
    context = ScoringContext(now, topic_sessions(notes, topic))
    stages = Stages(progress, JUDGE_STAGES)
    found = siblings(
        notes,
        now,
        topic,
        tokens,
        frozenset(settled),
        chosen,
        whole,
        promote_at,
        should_stop,
        stages.stage(0),
        recorded,
        pairs,
    )
    stages.done(1)
    own = {n["id"]: v for n in visible if (v := stored_verdict(n)) is not None}
    notices = [
        f"{n['id']}: stored scores refused ({why}); scored again"
        for n in visible
        if n["id"] not in own and (why := stored_drift(n))
    ]
    rest = [n for n in visible if n["id"] not in own]
    if model is not None:
        judgement = model(rest, context, found) if rest else Judgement([])
        judgement.notices[:0] = notices
    else:
        judgement = Judgement(_scored(rest, context, found, stages.stage(2), should_stop), notices)
    if own:
        scored = {v.note_id: v for v in judgement.verdicts}
        judgement.verdicts = [
            own.get(n["id"]) or scored[n["id"]]
            for n in visible
            if n["id"] in own or n["id"] in scored
        ]
    return judgement


def _scored(
    rest: list[RawNote],
    context: ScoringContext,
    found: Siblings,
    progress: Progress | None,
    should_stop: Callable[[], bool] | None,
) -> list[Verdict]:
    out = []
    for place, note in enumerate(rest):
        if not place % CHECK_EVERY:
            if should_stop is not None and should_stop():
                raise Stopped
            if progress is not None:
                progress(place, len(rest))
        out.append(default_verdict(note, context, found))
    if progress is not None:
        progress(len(rest), len(rest))
    return out


def act_operations(
    verdicts: list[Verdict], verdict: str, ran_at: str, nugget_of: Mapping[str, str]
) -> tuple[list[Operation], ReflectionResult]:
    """Archive every note with this verdict (`reject`), as an ordinary plan's operations."""
    if verdict != "reject":
        raise NuggetsError(f"only reject verdicts are acted on by archiving, not {verdict}")
    chosen = [v for v in verdicts if v.verdict == verdict]
    operations: list[Operation] = [
        HideOp(id=i, note_id=v.note_id) for i, v in enumerate(chosen, start=1)
    ]
    changes = [
        ReflectionChange(
            type="hide",
            nugget_name=nugget_of.get(v.note_id, ""),
            note_id=v.note_id,
            detail=f"Archived: verdict reject ({v.why})",
        )
        for v in chosen
    ]
    return operations, ReflectionResult(
        ran_at=ran_at, inspected=len(verdicts), hidden=len(chosen), changes=changes
    )
