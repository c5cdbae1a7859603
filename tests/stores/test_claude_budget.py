""" "Past the budget" means what Claude Code cuts. The MEMORY.md files are written by hand the way
Claude Code 2.1.332's model writes its index (`- [Title](file.md) — hook`, one per line); what is
expected is what its loader `U_t` (frontmatter strip `qd`, comment strip `OHe`, cut `HMo`) keeps
of the same file."""

from __future__ import annotations

from pathlib import Path

from core.stores.claude.store import ClaudeStore
from tests.support.claude_support import ticking

COMMENT8 = "<!--\nline1\nline2\nline3\nline4\nline5\nline6\n-->\n"


def opened(tmp_path: Path, index: str, topics: list[str]) -> ClaudeStore:
    directory = tmp_path / "memory"
    directory.mkdir()
    for name in topics:
        (directory / name).write_text(
            f"---\nname: {name}\ndescription: d\nmetadata:\n  type: user\n---\n\nA fact.\n"
        )
    (directory / "MEMORY.md").write_text(index)
    return ClaudeStore(directory, ticking(), record_root=tmp_path / "record")


def index_flags(memory: ClaudeStore) -> list[str]:
    note = next(n for n in memory.read().notes if n["id"] == "MEMORY.md")
    return [f for f in note["claude"]["flags"] if f.startswith("past the budget")]


def test_150_cjk_entries_all_reach_the_model(tmp_path: Path) -> None:
    names = [f"mem-{i}.md" for i in range(1, 151)]
    text = "".join(
        f"- [記憶{i}]({n}) — " + "日本語の説明文" * 8 + "\n" for i, n in enumerate(names)
    )
    memory = opened(tmp_path, text, names)
    assert index_flags(memory) == []
    assert not any("budget" in w for w in memory.hygiene())
    assert not any(op.note_id == "MEMORY.md" for op in memory.plan().operations)


def test_leading_blank_lines_and_a_comment_are_not_counted(tmp_path: Path) -> None:
    names = [f"topic-{i}.md" for i in range(1, 201)]
    entries = "".join(f"- [Topic {i}]({n}) — note\n" for i, n in enumerate(names))
    memory = opened(tmp_path, "\n\n\n" + COMMENT8 + entries, names)
    assert index_flags(memory) == []
    plan = memory.plan()  # no budget proposal to move the comment
    assert not any(op.note_id == "MEMORY.md" for op in plan.operations)


def test_em_dashes_count_one_each_and_the_cut_is_claude_codes(tmp_path: Path) -> None:
    names = [f"t{i}.md" for i in range(1, 171)]
    text = "".join(f"- [T{i}]({n}) — " + "—" * 130 + "\n" for i, n in enumerate(names, 1))
    memory = opened(tmp_path, text, names)
    assert index_flags(memory) == ["past the budget: 3 entries from line 168"]
    (line,) = [w for w in memory.hygiene() if "budget" in w]
    assert "170 lines, 25,453 characters (UTF-16 units)" in line
    assert "Only part of it was loaded: 3 of 170 lines were cut off, starting at line 168" in line
