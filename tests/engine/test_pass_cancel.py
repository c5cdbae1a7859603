"""A pass the caller no longer wants stops early: between phases and within the long ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.reflection.pass_state import PassCancelled
from core.reflection.reflect import plan_pass
from tests.support.console_support import NOW, demo_home, make_app


def test_a_pass_stops_when_asked_and_runs_whole_when_not(tmp_path: Path) -> None:
    memory = make_app(demo_home(tmp_path)).memory
    notes = memory.read().notes
    asked = []

    def stop_at_third() -> bool:
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(PassCancelled):
        plan_pass(notes, NOW, uncapped=True, should_stop=stop_at_third)
    assert len(asked) == 3
    whole = plan_pass(notes, NOW, uncapped=True, should_stop=lambda: False)
    assert whole.operations == plan_pass(notes, NOW, uncapped=True).operations
    with pytest.raises(PassCancelled):
        memory.plan(uncapped=True, should_stop=lambda: True)
