"""The Claude Code directory benchmark (on a small directory): its figures stay reportable,
and the directory it writes reads as its files, each listed, the deletion found."""

from __future__ import annotations

from pathlib import Path

from bench import claude_scale
from core.clock import fixed_clock
from core.stores.claude.store import ClaudeStore


def test_the_benchmark_reports_each_command_beside_a_plain_read() -> None:
    figures = claude_scale.main(60)
    assert figures["files"] == 60 and figures["deleted_found"] == 1
    for name in ("plain_read_s", "first_command_s", "command_s", "command_after_a_deletion_s"):
        timed = figures[name]
        assert isinstance(timed, tuple) and len(timed) == 2 and min(timed) >= 0


def test_the_generated_directory_is_typed_and_listed(tmp_path: Path) -> None:
    claude_scale.write_directory(tmp_path / "memory", 40)
    store = ClaudeStore(
        tmp_path / "memory", fixed_clock(claude_scale.NOW), record_root=tmp_path / "record"
    )
    notes = [n for n in store.read().notes if n["id"] != "MEMORY.md"]
    assert len(notes) == 40
    assert all(n["claude"]["indexLine"] is not None for n in notes)  # 40 of 150 listed
