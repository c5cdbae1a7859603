"""Calibrated verdicts (docs/VERDICTS.md, "The verdict" and "Shares"): over the whole demo, each
note's verdict agrees with the queue and with promotion, and no verdict holds more than half of
the demo's notes except `compress`, which holds exactly the copies a merge would remove."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.models import MergeOp
from core.promotion.candidates import written_ids
from core.reflection.reflect import plan_pass
from core.review.contradictions import find_contradictions
from core.review.decisions import settled_key
from core.review.verdicts import Verdict, judge, kept_of
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.demo import DEMO_NOW, build_demo_notes
from tests.support.note_builders import NOW, note

NOTES = build_demo_notes()


@pytest.fixture(scope="module")
def verdicts() -> dict[str, Verdict]:
    return {v.note_id: v for v in judge(NOTES, DEMO_NOW).verdicts}


def _groups() -> tuple[dict[str, set[str]], dict[str, str]]:
    """Note -> the others of its contradiction; note -> the kept note absorbing it."""
    by_id = {n["id"]: n for n in NOTES}
    disagree: dict[str, set[str]] = {}
    absorbed = {
        op.loser_id: op.winner_id
        for op in plan_pass(NOTES, DEMO_NOW, uncapped=True).operations
        if isinstance(op, MergeOp)
    }
    for group in find_contradictions(NOTES, promotion=False):
        if group.duplicate:
            kept = kept_of([by_id[i] for i in group.note_ids if i not in absorbed])["id"]
            for i in group.note_ids:
                if i != kept:
                    absorbed.setdefault(i, kept)
        else:
            for i in group.note_ids:
                disagree[i] = set(group.note_ids) - {i}
    return disagree, absorbed


def test_merge_is_given_only_where_the_queue_has_a_contradiction_to_decide(
    verdicts: dict[str, Verdict],
) -> None:
    disagree, absorbed = _groups()
    merged = {i for i, v in verdicts.items() if v.verdict == "merge"}
    assert merged, "the demo has contradictions"
    for note_id in merged:
        assert set(verdicts[note_id].merge_candidate_ids) == disagree[note_id]
    for note_id in disagree.keys() - absorbed.keys():
        assert verdicts[note_id].verdict in ("merge", "reject"), note_id


def test_compress_names_the_note_that_absorbs_it(verdicts: dict[str, Verdict]) -> None:
    _, absorbed = _groups()
    for note_id, verdict in verdicts.items():
        if verdict.verdict == "compress":
            assert verdict.compress_target == absorbed[note_id]
            chain = [note_id]
            while (target := verdicts[chain[-1]].compress_target) is not None:
                assert target not in chain, f"{note_id} is absorbed in a circle"
                chain.append(target)
        elif verdict.verdict != "reject":
            assert note_id not in absorbed, note_id


def test_promote_agrees_with_promotion(verdicts: dict[str, Verdict]) -> None:
    written = written_ids(NOTES)
    promoted = {i for i, v in verdicts.items() if v.verdict == "promote"}
    assert promoted and promoted <= written
    for note_id in written - promoted:  # an earlier rule, or too weak a note
        verdict = verdicts[note_id]
        assert verdict.verdict != "defer" or verdict.strength < 2.0, note_id


def test_no_verdict_but_compress_holds_half_the_demo(verdicts: dict[str, Verdict]) -> None:
    shares = Counter(v.verdict for v in verdicts.values())
    for verdict, count in shares.items():
        if verdict != "compress":
            assert 2 * count <= len(verdicts), (verdict, count)
    _, absorbed = _groups()
    assert shares["compress"] == len(
        absorbed.keys() & {i for i, v in verdicts.items() if v.verdict != "reject"}
    )


def test_a_strong_note_promotion_would_not_write_is_deferred() -> None:
    strong = dict(
        type="preference",
        stability="durable",
        subject="user:primary",
        source="explicit_user",
        confidence=0.95,
    )
    notes = [
        note("recalled", "Always use tabs in the Makefile", title="pref: make", hits=5, **strong),
        note("fresh", "Prefers short answers on Fridays", title="pref: answers", hits=1, **strong),
    ]
    found = {v.note_id: v for v in judge(notes, NOW).verdicts}
    assert found["fresh"].strength >= 2.0
    assert found["recalled"].verdict == "promote"
    assert found["fresh"].verdict == "defer"
    assert "promotion would not write it" in found["fresh"].why
    anyone = {v.note_id: v for v in judge(notes, NOW, promotable=None).verdicts}
    assert anyone["fresh"].verdict == "promote"


def test_a_duplicate_set_keeps_its_most_recalled_note() -> None:
    notes = [
        note(
            "a",
            "Deploys go out on Tuesdays.\nConfirmed by the user on 2026-01-02.",
            title="deploy: day",
            hits=1,
        ),
        note(
            "b",
            "Deploys go out on Tuesdays!\nSource: the team channel",
            hits=4,
            title="deploy: day",
        ),
        note(
            "c",
            "deploys go out on tuesdays\nSee also the release notes",
            hits=2,
            title="Deploy: day",
        ),
    ]
    found = {v.note_id: v for v in judge(notes, NOW).verdicts}
    assert found["a"].compress_target == "b" and found["c"].compress_target == "b"
    assert found["b"].verdict not in ("compress", "merge")


def test_a_group_let_stand_decides_nothing_more() -> None:
    notes = [
        note("x", "The API listens on port 8080.", title="api: port"),
        note("y", "The API listens on port 9090 since the move.", title="api: port"),
    ]
    before = {v.note_id: v.verdict for v in judge(notes, NOW).verdicts}
    assert before == {"x": "merge", "y": "merge"}
    after = {v.note_id: v.verdict for v in judge(notes, NOW, settled={settled_key(notes)}).verdicts}
    assert "merge" not in after.values()


def test_microclaws_promote_agrees_with_the_rows_its_promotion_writes(data_dir: Path) -> None:
    """The bot keeps no recall counts, so its store lowers the bar by what they give at most."""
    store = MicroClawStore(data_dir)
    rules = store.topic_rules()
    notes = store.read().notes
    found = {
        v.note_id: v
        for v in judge(
            notes,
            store.clock(),
            rules.topic,
            tokens=rules.tokens,
            promotable=rules.promoted,
            promote_at=rules.promote_at,
        ).verdicts
    }
    written = set(rules.promoted(notes))
    promoted = {i for i, v in found.items() if v.verdict == "promote"}
    assert promoted and promoted <= written
    for note_id in written - promoted:
        assert found[note_id].verdict in ("reject", "compress", "merge"), note_id
