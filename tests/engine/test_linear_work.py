"""The pass does linear work at every shape of memory (issue: linear at every shape).

Work is counted, not timed (core.reflection.work_count): the candidates partner searches look at,
in the link
and the merge phase. From 1k to 8k notes, each doubling may at most double it, give or take the
noise of the generated graphs; a search that walks over notes done before it doubles the work per
note with every doubling of notes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.generate import SHAPES_BY_NUMBER, generate
from core.reflection.reflect import plan_pass
from core.reflection.work_count import WORK
from tests.support.moments import at

NOW = at("2026-11-01T09:00:00Z")
SIZES = (1_000, 2_000, 4_000, 8_000)
# Linear work doubles with each doubling of notes; quadratic work quadruples.
MOST_PER_DOUBLING = 2.6
MOST_OVERALL = 8 * 1.3


def _work(shape: int, size: int, uncapped: bool) -> int:
    notes = generate(size, seed=3, shape=SHAPES_BY_NUMBER[shape])["notes"]
    WORK.reset()
    plan_pass(notes, NOW, None, 10, uncapped)
    # Every note may be looked at once even when no search compares anything.
    return WORK.link + WORK.merge + size


@pytest.mark.parametrize("uncapped", [True, False], ids=["uncapped", "capped"])
@pytest.mark.parametrize("shape", [2, 5, 8])
def test_the_pass_work_grows_linearly_with_the_notes(shape: int, uncapped: bool) -> None:
    work = {}
    for size in SIZES:
        work[size] = _work(shape, size, uncapped)
        if size > SIZES[0]:
            growth = work[size] / work[size // 2]
            assert growth <= MOST_PER_DOUBLING, f"shape {shape}: {work}"
    assert work[SIZES[-1]] / work[SIZES[0]] <= MOST_OVERALL, f"shape {shape}: {work}"


@pytest.mark.parametrize("uncapped", [True, False], ids=["uncapped", "capped"])
@pytest.mark.parametrize("shape", sorted(SHAPES_BY_NUMBER))
def test_every_shape_plans_what_the_pairwise_oracle_plans(shape: int, uncapped: bool) -> None:
    from bench.oracle import oracle_pass

    shape_of = SHAPES_BY_NUMBER[shape]
    if shape_of.long_notes:
        shape_of = replace(shape_of, long_bytes=600)
    if shape_of.hub_every:
        shape_of = replace(shape_of, hub_backlinks=150)
    notes = generate(300, seed=5, shape=shape_of)["notes"]
    fast = plan_pass(notes, NOW, None, 10, uncapped)
    slow = oracle_pass(notes, NOW, None, 10, uncapped)
    assert fast.result == slow.result
    assert fast.operations == slow.operations
    assert fast.workspace.notes == slow.workspace.notes
