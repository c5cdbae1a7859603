"""A MEMORY.md line holding a character Python's `splitlines()` breaks on (U+2028, a form feed,
NEL) but Claude Code does not: Claude Code counts lines on `\\n` only (its MEMORY.md loader,
`HMo`, splits on "\\n"), so entries are numbered that way and every edit removes the line so
numbered. The directories are written by hand the way Claude Code's model writes MEMORY.md (an
entry per line, `- [Title](file.md) — hook`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.claude.store import ClaudeStore
from tests.support.claude_support import ticking

TOPIC = b"---\nname: Kept\ndescription: kept\ntype: user\n---\n\nThe user is kept.\n"


@pytest.mark.parametrize("breaker", ["\u2028", "\x0c", "\x85", "\u2029", "\x1c", "\r"])
def test_a_fix_removes_the_line_it_names_past_a_stray_line_break(
    tmp_path: Path, breaker: str
) -> None:
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "kept.md").write_bytes(TOPIC)
    text = (
        "# Memory\n"
        f"- [Kept](kept.md) — first{breaker}second half of the hook\n"
        "- [Gone](gone.md) — a file that is not there\n"
        "- [Kept again](kept.md) — the line after\n"
    )
    (directory / "MEMORY.md").write_bytes(text.encode())
    memory = ClaudeStore(directory, ticking(), record_root=tmp_path / "record")
    plan = memory.plan()
    assert [op.note_id for op in plan.operations] == ["MEMORY.md-3"]
    assert plan.notes[0].before["content"] == "- [Gone](gone.md) — a file that is not there\n"
    memory.apply(plan, [1])
    assert (directory / "MEMORY.md").read_bytes().decode() == text.replace(
        "- [Gone](gone.md) — a file that is not there\n", ""
    )


def test_the_agents_index_change_is_numbered_by_newlines(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "kept.md").write_bytes(TOPIC)
    before = "# Memory\n- [Kept](kept.md) — a\u2028b\x0cc\x85d\n"
    (directory / "MEMORY.md").write_text(before)
    ClaudeStore(directory, ticking(), record_root=tmp_path / "record").read()
    (directory / "MEMORY.md").write_text(before + "- [Kept too](kept.md) — added\n")
    plan = ClaudeStore(directory, ticking(), record_root=tmp_path / "record").plan()
    assert plan.notes[0].after["title"] == "MEMORY.md line 3"
    assert plan.notes[0].after["content"] == "- [Kept too](kept.md) — added\n"
