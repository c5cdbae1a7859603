"""The default scorer (docs/VERDICTS.md, "The default scorer, rule by rule"): six scores in
[0, 1] per note, each explained in words.

Deterministic: the same note, the same sessions count and the same clock give the same scores.
Every rule is written down in docs/VERDICTS.md; change both together.

API: `ScoringContext(now, sessions)`, `Scored(scores, reasons)`,
`default_score(note, context) -> Scored`, `topic_sessions(notes, topic) -> dict[id, int]`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from core.clock import parse_iso
from core.models import RawNote
from core.notes import fields
from core.reflection.tidy_phase import is_scratch_title
from core.review.topics import TopicKey

SCORE_NAMES = (
    "durability",
    "future_judgment_value",
    "action_value",
    "identity_relationship_weight",
    "cross_time_persistence",
    "noise_risk",
)

LASTING_TYPES = (
    "preference",
    "fact",
    "self_model",
    "relationship",
    "style",
    "profile",
    "knowledge",
    "identity",
)
JUDGMENT_TYPES = ("preference", "style", "self_model", "reflection", "lesson", "decision")
IDENTITY_TYPES = ("self_model", "relationship", "profile", "identity")
EXPLICIT_SOURCES = ("explicit_user", "explicit", "write_memory_tool")
GUESSED_SOURCES = ("inferred", "legacy")
# Words that make a note usable for acting: a rule, a command, a place, a number to use.
_ACTIONABLE = re.compile(
    r"\b(?:always|never|must|should|use|prefer|prefers|avoid|run|deploy|port|path|command|"
    r"install|set|call|open)\b|[/`$]|\d",
    re.IGNORECASE,
)
_TRANSIENT = re.compile(
    r"\b(?:today|tonight|right now|currently|this week|for now|tmp|todo)\b", re.IGNORECASE
)
TINY_CONTENT = 12
OLD_DAYS = 30


@dataclass(frozen=True)
class ScoringContext:
    now: datetime
    sessions: Mapping[str, int] = field(default_factory=dict)  # note id -> distinct sessions


@dataclass(frozen=True)
class Scored:
    scores: dict[str, float]
    reasons: dict[str, str]


def clamp(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 2)


def topic_sessions(notes: list[RawNote], topic: TopicKey) -> dict[str, int]:
    """Per visible note: the distinct sessions that recalled a note of its topic (its own
    `lastHitSession` when it has no topic)."""
    seen: dict[Hashable, set[str]] = {}
    keys: dict[str, Hashable] = {}
    for note in notes:
        if fields.hidden(note):
            continue
        key = topic(note)
        key = ("note", note["id"]) if key is None else key
        keys[note["id"]] = key
        session = note.get("lastHitSession")
        bucket = seen.setdefault(key, set())
        if isinstance(session, str) and session:
            bucket.add(session)
    return {note_id: len(seen[key]) for note_id, key in keys.items()}


def _age_days(note: RawNote, now: datetime) -> int | None:
    created = parse_iso(fields.text(note, "createdAt") or fields.updated_at(note))
    return None if created is None else max(0, (now - created).days)


def default_score(note: RawNote, context: ScoringContext) -> Scored:
    kind = fields.meta(note, "type")
    stability = fields.meta(note, "stability")
    scope = fields.meta(note, "scope")
    source = fields.meta(note, "source")
    subject = fields.meta(note, "subject")
    hits = fields.hits(note)
    sessions = context.sessions.get(note["id"], 0)
    age = _age_days(note, context.now)
    content = fields.text(note, "content").strip()
    stated = note.get("confidence")
    # A confidence spelled past a float's range (1e999) reads as infinite: counted as none.
    confidence = stated if isinstance(stated, int | float) and math.isfinite(stated) else 0.7
    scores: dict[str, float] = {}
    reasons: dict[str, str] = {}

    # durability: how long it stays true
    value = 0.6 if stability == "durable" else 0.15
    words = [f"{stability or 'unknown'} stability ({value:.2f})"]
    if kind in LASTING_TYPES:
        value += 0.2
        words.append(f"a lasting type, {kind} (+0.20)")
    if age is not None and age >= OLD_DAYS and hits > 0:
        value += 0.1
        words.append(f"{age} days old and still recalled (+0.10)")
    if _TRANSIENT.search(content):
        value -= 0.2
        words.append("worded as transient (-0.20)")
    scores["durability"], reasons["durability"] = clamp(value), "; ".join(words)

    # future_judgment_value: does knowing it later change a decision
    value = 0.6 if kind in JUDGMENT_TYPES else 0.35
    words = [f"type {kind or 'unknown'} ({value:.2f})"]
    if source in EXPLICIT_SOURCES:
        value += 0.15
        words.append(f"stated by the user or written on purpose, {source} (+0.15)")
    value += (confidence - 0.7) * 0.5
    words.append(f"confidence {confidence:g} ({(confidence - 0.7) * 0.5:+.2f})")
    scores["future_judgment_value"] = clamp(value)
    reasons["future_judgment_value"] = "; ".join(words)

    # action_value: does it unlock or constrain an action
    actionable = bool(_ACTIONABLE.search(content))
    value = 0.55 if actionable else 0.25
    words = [
        "names a rule, command, place or number (0.55)"
        if actionable
        else "nothing to act on in its words (0.25)"
    ]
    if kind in ("project", "fact"):
        value += 0.1
        words.append(f"a {kind} note (+0.10)")
    scores["action_value"], reasons["action_value"] = clamp(value), "; ".join(words)

    # identity_relationship_weight: who the operator is, who they relate to
    if subject.startswith("user:") or subject == "assistant:self":
        value, words = 0.6, [f"about {subject} (0.60)"]
    elif scope in ("user", "self"):
        value, words = 0.45, [f"scope {scope} (0.45)"]
    else:
        value, words = 0.15, [f"scope {scope or 'unknown'}, not about a person (0.15)"]
    if kind in IDENTITY_TYPES:
        value += 0.25
        words.append(f"type {kind} (+0.25)")
    scores["identity_relationship_weight"] = clamp(value)
    reasons["identity_relationship_weight"] = "; ".join(words)

    # cross_time_persistence: recurrence across unrelated contexts
    from_hits = min(hits, 6) * 0.08
    from_sessions = min(sessions, 4) * 0.1
    value = from_hits + from_sessions
    words = [
        f"{hits} hit{'s' if hits != 1 else ''} (+{from_hits:.2f})",
        f"{sessions} distinct session{'s' if sessions != 1 else ''} on its topic "
        f"(+{from_sessions:.2f})",
    ]
    if scope == "session":
        value -= 0.2
        words.append("session scope (-0.20)")
    scores["cross_time_persistence"] = clamp(value)
    reasons["cross_time_persistence"] = "; ".join(words)

    # noise_risk: a one-off artifact or transient chatter
    value, words = 0.05, ["base (0.05)"]
    signals = [
        (not content, 0.85, "empty content"),
        (0 < len(content) < TINY_CONTENT, 0.40, f"tiny content ({len(content)} characters)"),
        (is_scratch_title(fields.text(note, "title")), 0.45, "a scratch title"),
        (stability == "temporary", 0.15, "temporary stability"),
        (scope == "session", 0.20, "session scope"),
        (source in GUESSED_SOURCES, 0.10, f"guessed, source {source}"),
        (confidence < 0.5, 0.20, f"low confidence {confidence:g}"),
        (hits == 0 and age is not None and age >= OLD_DAYS, 0.20, f"never recalled in {age} days"),
        (bool(_TRANSIENT.search(content)), 0.10, "worded as transient"),
    ]
    for applies, weight, words_for in signals:
        if applies:
            value += weight
            words.append(f"{words_for} (+{weight:.2f})")
    if len(words) == 1:
        words.append("no low-value signal")
    scores["noise_risk"], reasons["noise_risk"] = clamp(value), "; ".join(words)
    return Scored(scores={name: scores[name] for name in SCORE_NAMES}, reasons=reasons)
