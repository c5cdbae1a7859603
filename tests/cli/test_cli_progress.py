"""The CLI's long commands show their progress on standard error when it is a terminal, and
nothing anywhere else."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from nuggets_tui import progress_line
from nuggets_tui.progress_line import ProgressLine
from tests.support.cli_support import run
from tests.support.console_support import demo_home


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_redraws_in_place_at_most_four_times_a_second_and_clears() -> None:
    stream, clock = io.StringIO(), Clock()
    told = ProgressLine("nuggets: planning…", stream, clock)
    clock.now += 5
    told(50, 100)
    first = stream.getvalue()
    assert first == "\rnuggets: planning… 50% · about 5 s left"
    clock.now += 0.1
    told(60, 100)  # too soon: not drawn
    assert stream.getvalue() == first
    clock.now += 0.3
    told(90, 100)
    last = "nuggets: planning… 90% · under a second left"
    assert stream.getvalue().endswith("\r" + last)
    told.close()
    assert stream.getvalue().endswith("\r" + " " * len(last) + "\r")


@pytest.mark.parametrize("terminal", [True, False])
def test_reflect_all_shows_progress_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    home = demo_home(tmp_path)
    monkeypatch.setattr(progress_line, "is_terminal", lambda stream: terminal)
    monkeypatch.setattr(progress_line, "EVERY", 0.0)  # every report drawn
    result = run(home, "reflect", "--all")
    assert result.exit_code == 0, result.output
    shown = "nuggets: planning…" in result.stderr
    assert shown is terminal
    if terminal:
        assert "%" in result.stderr and result.stderr.rstrip(" ").endswith("\r")
    assert "planning…" not in result.stdout


@pytest.mark.parametrize("terminal", [True, False])
def test_verdicts_show_scoring_progress_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    home = demo_home(tmp_path)
    monkeypatch.setattr(progress_line, "is_terminal", lambda stream: terminal)
    result = run(home, "verdicts")
    assert result.exit_code == 0, result.output
    assert ("nuggets: scoring the verdicts…" in result.stderr) is terminal
