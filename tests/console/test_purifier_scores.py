"""A verdict's scores in the detail pane are the scores its system gave (docs/PURIFIER.md,
"Verdicts"): a purifier claim's eight Pass-2 scores by their names, a candidate's six Pass-1
scores. On a workspace the real purifier wrote (tests/stores/test_purifier_records.py says how)."""

from __future__ import annotations

from core.review.verdicts import stored_verdict
from nuggets_tui.widgets.verdict_text import verdict_text
from tests.stores.test_purifier import FIXTURES, jsonl, store

WORKSPACE = FIXTURES / "contested-chain-warning" / "workspace"


def shown(note_id: str) -> list[str]:
    note = next(n for n in store(WORKSPACE).read().notes if n["id"] == note_id)
    verdict = stored_verdict(note)
    assert verdict is not None
    return verdict_text(verdict).plain.splitlines()


def test_a_claims_detail_shows_its_eight_pass_2_scores_by_name() -> None:
    claim = jsonl(WORKSPACE / "runtime" / "purified-claims.jsonl")[0]
    assert len(claim["scores"]) == 8
    lines = shown(claim["id"])
    for name, value in claim["scores"].items():
        assert any(
            line.split()[:-1] == name.split("_") and line.split()[-1] == f"{value:.2f}"
            for line in lines
        ), name
    assert not any(line.strip().endswith(" -") for line in lines)  # no score left blank
    assert not any("durability" in line for line in lines)  # no Pass-1 name


def test_a_candidates_detail_shows_its_six_pass_1_scores() -> None:
    row = jsonl(WORKSPACE / "runtime" / "rejected-candidates.jsonl")[-1]
    lines = shown(row["candidate_id"])
    for name, value in row["scores"].items():
        assert any(
            line.split()[:-1] == name.split("_") and line.split()[-1] == f"{value:.2f}"
            for line in lines
        ), name
    assert any("strength = the first five" in line for line in lines)
