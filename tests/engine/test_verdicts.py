"""Scored verdicts: the formula, the drift check, the verdict rules in order, and the
default scorer's rules one by one (docs/VERDICTS.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from core.review.default_scorer import ScoringContext, default_score, topic_sessions
from core.review.topics import nuggets_topic
from core.review.verdicts import (
    StrengthDriftError,
    act_operations,
    check_strength,
    judge,
    stored_drift,
    strength_of,
    verdict_rule,
)
from tests.support.conflict_builders import answers_memory, pref
from tests.support.note_builders import NOW, note

SCORES = {
    "durability": 0.8,
    "future_judgment_value": 0.6,
    "action_value": 0.5,
    "identity_relationship_weight": 0.4,
    "cross_time_persistence": 0.3,
    "noise_risk": 0.1,
}
OLD = (NOW - timedelta(days=60)).isoformat().replace("+00:00", "Z")
CONTEXT = ScoringContext(NOW)


def score(**extra: Any) -> dict[str, float]:
    return default_score(note("n", "Some plain words here", **extra), CONTEXT).scores


def reason(name: str, **extra: Any) -> str:
    return default_score(note("n", "Some plain words here", **extra), CONTEXT).reasons[name]


def test_strength_is_the_first_five_less_noise() -> None:
    assert strength_of(SCORES) == 2.5


@pytest.mark.parametrize(
    ("strength", "ok"), [(2.5, True), (2.51, True), (2.489, False), (2.5101, False), (3.0, False)]
)
def test_a_strength_drifting_more_than_a_hundredth_is_refused(strength: float, ok: bool) -> None:
    if ok:
        check_strength(SCORES, strength)
    else:
        with pytest.raises(StrengthDriftError, match="drifts from the formula's 2.5"):
            check_strength(SCORES, strength)


def test_stored_scores_are_checked() -> None:
    assert stored_drift({"scores": SCORES, "strength": 2.5}) is None
    assert "drifts" in str(stored_drift({"scores": SCORES, "strength": 3.1}))
    assert (
        stored_drift({"scores": {"durability": 1}, "strength": 1})
        == "its stored scores are incomplete"
    )
    assert stored_drift({"id": "plain"}) is None


@pytest.mark.parametrize(
    ("args", "verdict"),
    [
        ((0.5, 0.0, None, ()), "reject"),  # strength at most 0.5
        ((3.0, 0.8, "x", ("y",)), "reject"),  # noise first, before compress
        ((3.0, 0.1, "x", ("y",)), "compress"),  # compress before merge
        ((3.0, 0.1, None, ("y",)), "merge"),  # merge before promote
        ((2.0, 0.1, None, ()), "promote"),
        ((1.99, 0.1, None, ()), "defer"),
        ((0.51, 0.79, None, ()), "defer"),
    ],
)
def test_the_verdict_is_the_first_rule_that_matches(args: tuple, verdict: str) -> None:
    assert verdict_rule(*args)[0] == verdict


def test_durability_rules() -> None:
    assert score(stability="durable", type="note")["durability"] == 0.6
    assert score(stability="temporary", type="note")["durability"] == 0.15
    assert score(stability="durable", type="preference")["durability"] == 0.8
    assert score(stability="durable", type="note", createdAt=OLD, hits=1)["durability"] == 0.7
    words = default_score(note("n", "busy today", stability="durable", type="note"), CONTEXT)
    assert words.scores["durability"] == 0.4 and "transient" in words.reasons["durability"]


def test_future_judgment_value_rules() -> None:
    assert (
        score(type="note", source="tool_observation", confidence=0.7)["future_judgment_value"]
        == 0.35
    )
    assert (
        score(type="preference", source="tool_observation", confidence=0.7)["future_judgment_value"]
        == 0.6
    )
    assert (
        score(type="note", source="explicit_user", confidence=0.7)["future_judgment_value"] == 0.5
    )
    assert (
        score(type="note", source="tool_observation", confidence=0.9)["future_judgment_value"]
        == 0.45
    )
    assert "confidence 0.9 (+0.10)" in reason("future_judgment_value", confidence=0.9)


def test_action_value_rules() -> None:
    plain = default_score(note("n", "Some plain words here", type="note"), CONTEXT)
    assert plain.scores["action_value"] == 0.25
    rule = default_score(note("n", "Always run the linter", type="note"), CONTEXT)
    assert rule.scores["action_value"] == 0.55
    assert score(type="project")["action_value"] == 0.35


def test_identity_relationship_weight_rules() -> None:
    assert score(subject="user:primary", type="note")["identity_relationship_weight"] == 0.6
    assert (
        score(subject="shared:x", scope="user", type="note")["identity_relationship_weight"] == 0.45
    )
    assert (
        score(subject="shared:x", scope="project", type="note")["identity_relationship_weight"]
        == 0.15
    )
    assert (
        score(subject="assistant:self", type="self_model")["identity_relationship_weight"] == 0.85
    )


def test_cross_time_persistence_counts_hits_and_distinct_sessions() -> None:
    assert score(hits=0)["cross_time_persistence"] == 0.0
    assert score(hits=3)["cross_time_persistence"] == 0.24
    assert score(hits=9)["cross_time_persistence"] == 0.48  # hits count up to 6
    context = ScoringContext(NOW, {"n": 3})
    assert (
        default_score(note("n", "x y z", hits=1), context).scores["cross_time_persistence"] == 0.38
    )
    assert score(hits=3, scope="session")["cross_time_persistence"] == 0.04


def test_distinct_sessions_are_counted_per_topic() -> None:
    notes = [
        pref("a", "one", lastHitSession="s1"),
        pref("b", "two", lastHitSession="s2"),
        pref("c", "three", lastHitSession="s1"),
        pref("d", "four", title="other"),
        pref("h", "hidden", lastHitSession="s9", hidden=True),
    ]
    assert topic_sessions(notes, nuggets_topic) == {"a": 2, "b": 2, "c": 2, "d": 0}


def test_noise_risk_rules() -> None:
    base: dict[str, Any] = dict(
        stability="durable", scope="project", source="tool_observation", confidence=0.7, hits=1
    )
    assert score(**base)["noise_risk"] == 0.05
    assert "no low-value signal" in reason("noise_risk", **base)
    assert default_score(note("n", "", **base), CONTEXT).scores["noise_risk"] == 0.9
    assert default_score(note("n", "ok", **base), CONTEXT).scores["noise_risk"] == 0.45
    assert score(**base | {"title": "tmp notes"})["noise_risk"] == 0.5
    assert score(**base | {"stability": "temporary"})["noise_risk"] == 0.2
    assert score(**base | {"scope": "session"})["noise_risk"] == 0.25
    assert score(**base | {"source": "inferred"})["noise_risk"] == 0.15
    assert score(**base | {"confidence": 0.3})["noise_risk"] == 0.25
    assert score(**base | {"hits": 0, "createdAt": OLD})["noise_risk"] == 0.25
    assert "never recalled in 60 days" in reason(
        "noise_risk", **base | {"hits": 0, "createdAt": OLD}
    )


def test_every_score_is_explained_and_in_range() -> None:
    for n in answers_memory():
        scored = default_score(n, CONTEXT)
        assert set(scored.reasons) == set(scored.scores)
        assert all(0 <= v <= 1 for v in scored.scores.values())
        assert all(scored.reasons.values())


def test_judge_gives_contradicting_notes_merge_and_duplicates_compress() -> None:
    notes = [
        *answers_memory(),
        note("d1", "The build uses make and ninja for the native parts", hits=2),
        note("d2", "The build uses make and ninja for the native parts!", hits=2),
    ]
    verdicts = {v.note_id: v for v in judge(notes, NOW).verdicts}
    assert verdicts["a-short"].verdict == "merge"
    assert set(verdicts["a-short"].merge_candidate_ids) == {"a-direct", "a-bullets", "a-direct-2"}
    loser = "d1" if verdicts["d1"].verdict == "compress" else "d2"
    assert verdicts[loser].compress_target in {"d1", "d2"} - {loser}
    assert all(v.strength == strength_of(v.scores) for v in verdicts.values())


def test_acting_on_rejects_archives_exactly_them() -> None:
    notes = [
        note("e", "", hits=0),
        note(
            "k",
            "Always deploy with make release",
            hits=5,
            type="preference",
            source="explicit_user",
        ),
    ]
    verdicts = judge(notes, NOW).verdicts
    assert [v.verdict for v in verdicts][0] == "reject"
    operations, result = act_operations(verdicts, "reject", "now", {"e": "project"})
    assert [op.note_id for op in operations] == ["e"] and result.hidden == 1
