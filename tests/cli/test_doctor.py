"""`nuggets doctor` on a memory with no program beside us to check says what it looked for
(something that redoes what the operator decides), not that there is nothing to check: the
memory-purifier's own health lines (an upgrade pending, a failed pass) stand above it."""

from __future__ import annotations

from click.testing import CliRunner

from nuggets_tui.cli import main

ENV = {"NUGGETS_NOW": "2026-11-23T10:00:00Z", "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": ""}


def test_doctor_without_a_checker_says_nothing_redoes_a_decision_beside_its_health() -> None:
    result = CliRunner().invoke(main, ["--demo-purifier", "doctor"], env=ENV)
    assert result.exit_code == 0, result.output
    assert result.stdout == "memory-purifier: nothing beside us redoes what you decide here.\n"
    assert "upgrade pending" in result.stderr  # its health, said when it opened, still stands
