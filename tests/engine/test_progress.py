"""A long job tells how far it is (done of total, in its own units) through an injected
callback, and the time left is foretold from the pace so far: pure, no clock in core."""

from __future__ import annotations

import pytest

from bench.generate import generate
from core.progress import Stopped, left_text, progress_text, time_left
from core.reflection.pass_state import PassCancelled
from core.reflection.reflect import plan_pass
from core.review.verdicts import judge
from tests.support.console_support import NOW

NOTES = 3_000  # several CHECK_EVERY strides in every phase


@pytest.fixture(scope="module")
def notes() -> list[dict[str, object]]:
    return generate(NOTES)["notes"]


def test_the_uncapped_pass_reports_steady_progress_up_to_its_total(notes) -> None:  # type: ignore[no-untyped-def]
    told: list[tuple[int, int]] = []
    outcome = plan_pass(notes, NOW, uncapped=True, progress=lambda d, t: told.append((d, t)))
    assert len(told) > 10
    done = [d for d, _ in told]
    assert done == sorted(done)  # never goes back
    assert all(0 <= d <= t for d, t in told)
    totals = [t for _, t in told]
    assert totals == sorted(totals, reverse=True)  # revised down only, as phases learn
    assert told[-1][0] == told[-1][1]  # ends at the whole
    # Told, not steered: the same plan as without a listener.
    assert outcome.operations == plan_pass(notes, NOW, uncapped=True).operations


def test_a_pass_stopped_midway_has_told_progress_and_plans_nothing(notes) -> None:  # type: ignore[no-untyped-def]
    told: list[tuple[int, int]] = []
    with pytest.raises(PassCancelled):
        plan_pass(
            notes,
            NOW,
            uncapped=True,
            progress=lambda d, t: told.append((d, t)),
            should_stop=lambda: len(told) >= 5,
        )
    assert len(told) == 5 and told[-1][0] < told[-1][1]


def test_the_store_passes_progress_to_the_pass(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.support.console_support import demo_home, make_app

    memory = make_app(demo_home(tmp_path)).memory
    told: list[tuple[int, int]] = []
    memory.plan(uncapped=True, progress=lambda d, t: told.append((d, t)))
    assert told and told[-1][0] == told[-1][1] > 0


@pytest.mark.parametrize(
    ("done", "total", "elapsed", "left"),
    [
        (50, 100, 10.0, 10.0),  # half done in 10 s: 10 s to go
        (25, 100, 5.0, 15.0),
        (100, 100, 8.0, 0.0),
        (120, 100, 8.0, 0.0),  # a total revised below what is done
        (0, 100, 3.0, None),  # no pace yet
        (1, 1000, 3.0, None),  # too little done to go by
        (10, 100, 0.0, None),
        (5, 0, 1.0, None),
    ],
)
def test_time_left_goes_by_the_pace_so_far(
    done: int, total: int, elapsed: float, left: float | None
) -> None:
    assert time_left(done, total, elapsed) == left


def test_progress_reads_as_done_of_total_with_the_time_left() -> None:
    assert (
        progress_text(41_000, 100_000, 20.4, "notes")
        == "41,000 of 100,000 notes · 41% · about 20 s left"
    )
    assert progress_text(5, 10, None) == "50% · estimating the time left"
    assert left_text(0.3) == "under a second left"
    assert left_text(150) == "about 2 min left"


def test_verdict_scoring_reports_progress_and_stops_when_asked(notes) -> None:  # type: ignore[no-untyped-def]
    told: list[tuple[int, int]] = []
    judged = judge(notes, NOW, progress=lambda d, t: told.append((d, t)))
    done = [d for d, _ in told]
    assert len(told) > 10 and done == sorted(done)
    assert {t for _, t in told} == {told[0][1]} and told[-1][0] == told[-1][1]
    # The verdicts themselves do not depend on anybody listening.
    assert judged.verdicts == judge(notes, NOW).verdicts
    asked: list[int] = []
    with pytest.raises(Stopped):
        judge(notes, NOW, should_stop=lambda: bool(asked.append(1)) or len(asked) > 3)
    late: list[tuple[int, int]] = []  # stopped while scoring, after the pass
    with pytest.raises(Stopped):
        judge(
            notes,
            NOW,
            progress=lambda d, t: late.append((d, t)),
            should_stop=lambda: bool(late) and late[-1][0] > late[-1][1] * 0.8,
        )
    assert late[-1][0] < late[-1][1]
