"""The agent's budget (docs/PROMOTION.md, "The agent's budget"): where Claude Code's 200-line /
25,000-byte cut falls in the MEMORY.md we would write, which entries land past it, the room left,
and a token budget counted as MicroClaw counts its structured memories."""

from __future__ import annotations

from pathlib import Path

from core.clock import fixed_clock
from core.promotion.budget import (
    CLAUDE_CODE_MEMORY_MD,
    FileLimit,
    TokenLimit,
    estimate_tokens,
    loaded,
    token_budget,
)
from core.stores.nuggets.store import NuggetsStore
from tests.support.note_builders import NOW, make_home, note

SMALL = FileLimit("an agent", 3, 20)


def test_the_cut_falls_at_the_line_limit() -> None:
    fit = loaded("a\nb\nc\nd\n", SMALL)
    assert (fit.lines, fit.loaded_lines, fit.cut_by) == (4, 3, "lines")
    assert loaded("a\nb\nc\n", SMALL).cut_by == ""


def test_the_cut_falls_at_the_last_line_end_within_the_bytes() -> None:
    fit = loaded("0123456789\nabcdefghij\nk\n", SMALL)  # 11 + 11 bytes > 20
    assert (fit.loaded_lines, fit.cut_by) == (1, "bytes")
    assert loaded("é" * 9 + "\n", SMALL).cut_by == ""  # 19 bytes
    assert loaded("é" * 10 + "\n", SMALL).cut_by == "bytes"  # 21 bytes, though 11 characters


def test_claude_codes_numbers() -> None:
    assert (CLAUDE_CODE_MEMORY_MD.lines, CLAUDE_CODE_MEMORY_MD.size) == (200, 25_000)
    fit = loaded("x\n" * 201, CLAUDE_CODE_MEMORY_MD)
    assert (fit.loaded_lines, fit.cut_by) == (200, "lines")
    fit = loaded(("y" * 999 + "\n") * 26, CLAUDE_CODE_MEMORY_MD)
    assert (fit.loaded_lines, fit.cut_by) == (25, "bytes")


def _store(tmp_path: Path, memory_md: str) -> tuple[NuggetsStore, Path]:
    notes = [note(f"n{i}", f"Fact number {i}", title=f"fact {i}", hits=4) for i in range(3)]
    home = make_home(tmp_path, notes)
    target = tmp_path / "memory" / "MEMORY.md"
    target.parent.mkdir()
    target.write_text(memory_md)
    return NuggetsStore(home, fixed_clock(NOW), target), target


def test_a_plan_says_the_room_left_when_all_of_it_loads(tmp_path: Path) -> None:
    store, _ = _store(tmp_path, "# Memory\n\nHand-written.\n")
    (budget,) = store.plan_promotion().budgets
    text = store.plan_promotion().after_text
    measured = text.strip()  # Claude Code trims, then counts newlines + 1 and UTF-16 units
    used = {"lines": measured.count("\n") + 1, "units": len(measured)}
    assert budget.used == used
    assert budget.room == {"lines": 200 - used["lines"], "units": 25_000 - used["units"]}
    assert budget.past == [] and budget.cut_by == "" and budget.loaded_lines is None


def test_entries_past_the_cut_are_named_in_the_files_order(tmp_path: Path) -> None:
    hand = "".join(f"Hand-written line {i}\n" for i in range(194))
    store, _ = _store(tmp_path, "# Memory\n\n" + hand)
    plan = store.plan_promotion()
    (budget,) = plan.budgets
    lines = plan.after_text.splitlines()
    assert budget.loaded_lines == 200 and budget.cut_by == "lines"
    shown = {e.note_id: lines.index(e.text) + 1 for e in plan.entries}
    assert budget.past == sorted((i for i in shown if shown[i] > 200), key=lambda i: shown[i])
    assert budget.past and len(budget.past) < len(plan.entries)
    assert budget.room == {"lines": 0, "units": 0}


def test_a_token_budget_counts_bytes_over_four_plus_ten_and_stops_at_the_first_misfit() -> None:
    limit = TokenLimit("the bot", 39, 10, 4)
    assert estimate_tokens("abcdefgh", limit) == 12
    assert estimate_tokens("é" * 4, limit) == 12  # 8 bytes
    budget = token_budget([("a", "x" * 40), ("b", "y" * 40), ("c", "z")], limit, "chat 1")
    assert budget.used == {"tokens": 20 + 20 + 10}
    assert budget.past == ["b", "c"]  # b does not fit, and the bot stops there
    assert budget.room == {"tokens": 19} and budget.scope == "chat 1"
