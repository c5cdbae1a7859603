"""Several processes write the review decisions at once (two consoles, a console and `daily`):
each writer's part - its decisions, the waiting list - survives every other writer's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import NuggetsError
from core.plans.review_state import (
    ReviewState,
    read_state,
    state_path,
    update_state,
    write_state,
)

ROOT = Path(__file__).resolve().parents[2]

WRITER = r"""
import sys
from pathlib import Path
from core.plans.review_state import update_state
home, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for i in range(count):
    update_state(home, lambda state: state.decisions.update({f"{name}-{i}": i % 2 == 0}))
    if name == "daily" and i % 10 == 0:
        update_state(home, lambda state: state.hold("2026-11-23T09:00:00Z", [f"w-{i}"]))
"""

COUNT = 150


def test_two_processes_deciding_at_once_lose_no_decision(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home), name, str(COUNT)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for name in ("console", "daily")
    ]
    assert [writer.wait(120) for writer in writers] == [0, 0]
    state = read_state(home)
    for name in ("console", "daily"):
        assert {k: v for k, v in state.decisions.items() if k.startswith(name)} == {
            f"{name}-{i}": i % 2 == 0 for i in range(COUNT)
        }
    assert state.waiting == [f"w-{(COUNT - 1) // 10 * 10}"]


def test_two_sessions_read_before_either_writes_and_both_decisions_stay(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_state(home, ReviewState({"old": True}))
    first, second = read_state(home), read_state(home)  # two consoles open on the same file
    update_state(home, lambda state: state.decisions.update({"a": False}))
    after = update_state(home, lambda state: state.decisions.update({"b": False}))
    assert after.decisions == {"old": True, "a": False, "b": False} == read_state(home).decisions
    assert first.stamp == second.stamp != after.stamp  # what tells a console to read again


def test_the_waiting_list_survives_a_decision_and_a_decision_the_waiting_list(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    update_state(home, lambda state: state.decisions.update({"a": False}))
    update_state(home, lambda state: state.hold("2026-11-23T09:00:00Z", ["a", "w"]))
    update_state(home, lambda state: state.decisions.update({"w": True}))
    state = read_state(home)
    assert state.decisions == {"a": False, "w": True}
    assert (state.waiting_since, state.waiting) == ("2026-11-23T09:00:00Z", ["a", "w"])


def test_an_edit_that_changes_nothing_writes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    update_state(home, lambda state: state.hold(None, []))
    assert list(home.iterdir()) == []  # no file, no lock file


def test_decisions_are_never_written_through_a_symlink(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{"decisions":{}}')
    state_path(home).symlink_to(elsewhere)
    with pytest.raises(NuggetsError, match="symbolic link"):
        update_state(home, lambda state: state.decisions.update({"a": False}))
    assert elsewhere.read_text() == '{"decisions":{}}'
