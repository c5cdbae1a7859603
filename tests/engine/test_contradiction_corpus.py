"""How well the contradiction finder tells a disagreement from a paraphrase, a copy or a
related note (docs/VERDICTS.md, "How well it finds them"): each pair of the labelled corpus
(tests/engine/contradiction_corpus.py) is put under one title and the finder asked; its
precision and recall must stay at or above the figures the doc reports."""

from __future__ import annotations

import re
from pathlib import Path

from core.review.contradictions import find_contradictions
from tests.engine.contradiction_corpus import CORPUS, Pair
from tests.support.conflict_builders import pref

VERDICTS_MD = Path(__file__).resolve().parents[2] / "docs" / "VERDICTS.md"


def found_disagreeing(pair: Pair) -> bool:
    """The finder, as a store asks it, on the two notes under one title."""
    groups = find_contradictions([pref("a", pair.a), pref("b", pair.b)])
    return any(not g.duplicate and set(g.note_ids) == {"a", "b"} for g in groups)


def measured() -> tuple[int, int, int, int]:
    """True positives, false positives, false negatives, true negatives."""
    counts = [0, 0, 0, 0]
    for pair in CORPUS:
        said = found_disagreeing(pair)
        counts[(0 if said else 2) + (0 if pair.disagree else 1)] += 1
    tp, fp, fn, tn = counts
    return tp, fp, fn, tn


def reported(name: str) -> int:
    """A percentage docs/VERDICTS.md reports (`precision 97%`)."""
    match = re.search(rf"\*\*{name}\*\* (\d+)%", VERDICTS_MD.read_text(encoding="utf-8"))
    assert match, f"docs/VERDICTS.md reports no {name}"
    return int(match.group(1))


def test_the_corpus_holds_both_kinds_and_every_kind_of_pair() -> None:
    kinds = {p.kind.split(":")[0] for p in CORPUS}
    assert {"value", "negation", "retired", "paraphrase", "provenance", "related"} <= kinds
    assert sum(p.disagree for p in CORPUS) >= 30 and sum(not p.disagree for p in CORPUS) >= 30


def test_precision_and_recall_stay_at_least_what_the_doc_reports() -> None:
    tp, fp, fn, tn = measured()
    assert 100 * tp >= reported("precision") * (tp + fp)
    assert 100 * tp >= reported("recall") * (tp + fn)
    assert tp + fp + fn + tn == len(CORPUS)


def test_the_doc_reports_the_corpus_as_it_is() -> None:
    """The counts in docs/VERDICTS.md are this corpus's: a pair added is measured again."""
    tp, fp, fn, tn = measured()
    text = VERDICTS_MD.read_text(encoding="utf-8")
    assert f"{len(CORPUS)} pairs" in text
    assert f"{tp + fn} that disagree" in text and f"{fp + tn} that do not" in text
