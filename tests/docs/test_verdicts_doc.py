"""docs/VERDICTS.md writes down every rule the code applies: its scores, verdicts, thresholds and
the default scorer's weights (a rule changed in one place only fails here)."""

from __future__ import annotations

import pytest

from core.notes import bounded_text as notebound
from core.review import contradictions, topics, verdicts
from core.review import default_scorer as scoring
from tests.support.paths import REPO

DOC = (REPO / "docs" / "VERDICTS.md").read_text()
SOURCE = (REPO / "core" / "review" / "default_scorer.py").read_text()


@pytest.mark.parametrize("name", [*scoring.SCORE_NAMES, *verdicts.VERDICTS])
def test_every_score_and_verdict_is_documented(name: str) -> None:
    assert f"`{name}`" in DOC


def test_the_thresholds_are_the_documented_ones() -> None:
    assert f"strength ≤ {verdicts.REJECT_AT_OR_BELOW}" in DOC
    assert f"noise_risk ≥ {verdicts.NOISE_REJECTS_AT}" in DOC
    assert f"strength ≥ {verdicts.PROMOTE_AT}" in DOC
    assert f"more than {verdicts.DRIFT} from that formula" in DOC
    assert f"{contradictions.AGREEING_PERCENT / 100:.2f} or more" in DOC
    assert f"at most {contradictions.MAX_POSITIONS} positions" in DOC
    assert all(title in DOC for title in topics.PLACEHOLDER_TITLES)
    assert f"({notebound.TEXT_BOUND:,} characters each" in DOC


def test_every_weight_of_the_default_scorer_is_documented() -> None:
    """Each +/- weight written in an explanation appears in the doc with its sign."""
    import re

    weights = set(re.findall(r"\(([+-]0\.\d\d)\)", SOURCE))
    weights |= {f"+{w}" for w in re.findall(r", (0\.\d\d),\s*f?\"", SOURCE)}
    assert {"+0.40", "+0.85", "-0.20", "+0.10"} <= weights
    for weight in weights:
        shown = weight.replace("-", "−")
        assert shown in DOC or weight in DOC, weight


def test_the_demo_shares_in_the_doc_are_the_measured_ones() -> None:
    """The "Shares" table's demo row is what the default scorer gives the demo today."""
    from collections import Counter

    from core.stores.nuggets.demo import DEMO_NOW, build_demo_notes

    found = Counter(v.verdict for v in verdicts.judge(build_demo_notes(), DEMO_NOW).verdicts)
    total = sum(found.values())
    cells = [
        f"{found[name]} ({round(100 * found[name] / total)}%)"
        for name in ("reject", "compress", "merge", "promote", "defer")
    ]
    assert f"| the demo (`--demo`) | {total} | {' | '.join(cells)} |" in DOC
