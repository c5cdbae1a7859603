"""Promotion to MEMORY.md (docs/PROMOTION.md): candidates, sections, entry format, a new file,
editing an existing file in place, what is returned and when nothing is written, the target path,
dry run."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import fixed_clock
from core.promotion.candidates import plan_promotion, resolve_memory_md, section_of
from core.settings import load
from core.stores.nuggets.seeds import promote_facts
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.note_builders import NOW, make_home, note, tree_snapshot

HEADER = "# Memory\n\nAuto-promoted from nugget graph notes (3+ recalls across sessions).\n"


def fact(note_id: str, title: str, content: str, hits: int = 3, **extra: object) -> dict:
    return note(note_id, content, title=title, hits=hits, **extra)


def promoted(notes: list[dict], before: str = "", threshold: int = 3) -> tuple[str, int, int]:
    plan = plan_promotion(notes, Path("/m/MEMORY.md"), before, True, threshold)
    return plan.after_text, plan.added, plan.updated


def test_candidates_are_visible_notes_with_enough_hits() -> None:
    notes = [
        fact("a", "Three", "x", hits=3),
        fact("b", "Two", "y", hits=2),
        fact("c", "Hidden", "z", hits=9, hidden=True),
    ]
    text, added, _ = promoted(notes)
    assert (added, "**Three**" in text, "**Two**" in text, "Hidden" in text) == (
        1,
        True,
        False,
        False,
    )
    text, added, _ = promoted(notes, threshold=2)
    assert added == 2 and "**Two**" in text


@pytest.mark.parametrize(
    ("fields", "section"),
    [
        ({"scope": "session", "tags": ["preferences", "learnings"]}, "preferences"),
        (
            {"scope": "session", "tags": ["learnings"], "subject": "assistant:self"},
            "assistant-self",
        ),
        ({"title": "Learned: pin versions", "subject": "user:primary"}, "user"),
        ({"subject": "assistant:self", "scope": "self"}, "assistant-self"),
        ({"subject": "user:primary", "scope": "project"}, "user"),
        ({"subject": "team:core", "scope": "shared"}, "shared-context"),
        ({"subject": "session:current", "scope": "project"}, "shared-context"),
        ({"subject": "session:current", "scope": "session", "nuggetName": "agent"}, "agent"),
    ],
)
def test_section_rules_apply_in_order(fields: dict, section: str) -> None:
    assert section_of(fact("n", fields.pop("title", "Title"), "x", **fields)) == section


def test_a_new_file_has_the_header_and_sections_in_order() -> None:
    notes = [
        fact(
            "z",
            "Zeta fact",
            "from the zeta nugget",
            nuggetName="zeta",
            scope="session",
            subject="session:current",
        ),
        fact("u", "Name", "Sam", subject="user:primary", scope="user"),
        fact("s", "Repo layout", "src holds code\n\nand tests live in tests"),
        fact("a", "Tone", "plain words", subject="assistant:self", scope="self"),
        fact(
            "p",
            "Dark theme",
            "use dark theme",
            tags=["preferences"],
            scope="session",
            subject="session:current",
        ),
        fact(
            "l",
            "Learned: pin",
            "pin express",
            tags=["learnings"],
            scope="session",
            subject="session:current",
        ),
    ]
    text, added, updated = promoted(notes)
    assert text == HEADER + (
        "\n## learnings\n\n- **Learned: pin**: pin express\n"
        "\n## preferences\n\n- **Dark theme**: use dark theme\n"
        "\n## assistant-self\n\n- **Tone**: plain words\n"
        "\n## shared-context\n\n- **Repo layout**: src holds code\n\nand tests live in tests\n"
        "\n## user\n\n- **Name**: Sam\n"
        "\n## zeta\n\n- **Zeta fact**: from the zeta nugget\n"
    )
    assert (added, updated) == (6, 0)


EXISTING = """# Memory

My own notes, do not touch.

## learnings

- **Old lesson**: keep this
- **Pin versions**: old text
  old continuation

Hand note under learnings.

## custom stuff

- something by hand

## user

- **Name**: Sam
"""


def test_an_existing_file_is_edited_in_place_keeping_everything_else() -> None:
    notes = [
        fact(
            "p1",
            "Pin versions",
            "pin express\nafter the outage",
            tags=["learnings"],
            scope="session",
            subject="session:current",
        ),
        fact(
            "n1",
            "New lesson",
            "always test",
            tags=["learnings"],
            scope="session",
            subject="session:current",
        ),
        fact(
            "d1",
            "Dark theme",
            "use dark theme",
            tags=["preferences"],
            scope="session",
            subject="session:current",
        ),
        fact("r1", "Repo layout", "src holds code"),
        fact("u1", "Name", "Sam", subject="user:primary", scope="user"),
        fact("u2", "Editor", "vim", subject="user:primary", scope="user"),
    ]
    text, added, updated = promoted(notes, EXISTING)
    assert (
        text
        == """# Memory

My own notes, do not touch.

## learnings

- **Old lesson**: keep this
- **Pin versions**: pin express
after the outage

Hand note under learnings.
- **New lesson**: always test

## preferences

- **Dark theme**: use dark theme

## custom stuff

- something by hand

## shared-context

- **Repo layout**: src holds code

## user

- **Name**: Sam
- **Editor**: vim
"""
    )
    assert (added, updated) == (4, 1)


@pytest.fixture
def memdir(tmp_path: Path) -> Path:
    directory = tmp_path / "claude" / "memory"
    directory.mkdir(parents=True)
    return directory


def _memory(tmp_path: Path, notes: list[dict], target: Path) -> NuggetsStore:
    return NuggetsStore(make_home(tmp_path, notes), fixed_clock(NOW), memory_md=target)


def test_promote_writes_returns_additions_and_leaves_an_unchanged_file_alone(
    tmp_path: Path, memdir: Path
) -> None:
    target = memdir / "MEMORY.md"
    memory = _memory(tmp_path, [fact("a", "Deploy", "make deploy", hits=4)], target)
    assert memory.promote(memory.plan_promotion()) == 1
    assert target.read_text() == HEADER + "\n## shared-context\n\n- **Deploy**: make deploy\n"
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    stat = target.stat()
    assert memory.promote(memory.plan_promotion()) == 0
    assert (target.stat().st_ino, target.stat().st_mtime_ns) == (stat.st_ino, stat.st_mtime_ns)
    assert sorted(p.name for p in memdir.iterdir()) == ["MEMORY.md"]


def test_no_candidates_creates_no_file(tmp_path: Path, memdir: Path) -> None:
    memory = _memory(tmp_path, [fact("a", "Deploy", "make deploy", hits=1)], memdir / "MEMORY.md")
    assert memory.promote(memory.plan_promotion()) == 0
    assert list(memdir.iterdir()) == []


def test_nothing_is_written_and_0_returned_when_the_directory_is_missing(tmp_path: Path) -> None:
    target = tmp_path / "nowhere" / "memory" / "MEMORY.md"
    memory = _memory(tmp_path, [fact("a", "Deploy", "make deploy", hits=4)], target)
    before = tree_snapshot(tmp_path)
    plan = memory.plan_promotion()
    assert plan.directory_exists is False
    assert memory.promote(plan) == 0
    assert promote_facts(NuggetsStore(memory.home).shelf(), target) == 0
    assert memory.promote_now()[1] == 0
    assert tree_snapshot(tmp_path) == before


def test_promote_facts_is_the_seeds_entry_point(tmp_path: Path, memdir: Path) -> None:
    memory = _memory(tmp_path, [fact("a", "Deploy", "make deploy", hits=2)], memdir / "M.md")
    assert promote_facts(NuggetsStore(memory.home).shelf(), memdir / "M.md") == 0
    assert promote_facts(NuggetsStore(memory.home).shelf(), memdir / "M.md", threshold=2) == 1
    assert "- **Deploy**: make deploy" in (memdir / "M.md").read_text()


def test_the_target_is_explicit_else_env_else_claude_project_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    # Claude Code's rule: every character outside [a-zA-Z0-9] is "-", the "." too
    assert resolve_memory_md(None, cwd=Path("/work/my.proj"), home=tmp_path) == (
        tmp_path / ".claude" / "projects" / "-work-my-proj" / "memory" / "MEMORY.md"
    )
    assert resolve_memory_md(Path("/given.md"), cwd=Path("/x")) == Path("/given.md")
    cwd = tmp_path / "src" / "app"
    cwd.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    memory = NuggetsStore(tmp_path / "home", settings=load({}).settings)
    expected = re.sub("[^A-Za-z0-9]", "-", str(cwd))
    assert memory.promotion_target() == (
        tmp_path / ".claude" / "projects" / expected / "memory" / "MEMORY.md"
    )
    env = load({"NUGGETS_MEMORY_MD": str(tmp_path / "env.md")}).settings
    memory = NuggetsStore(tmp_path / "home", settings=env)
    assert memory.promotion_target() == tmp_path / "env.md"
    assert memory.promotion_target(Path("/given.md")) == Path("/given.md")


def test_a_dry_run_shows_the_unified_diff_and_writes_nothing(tmp_path: Path, memdir: Path) -> None:
    target = memdir / "MEMORY.md"
    target.write_text(EXISTING)
    memory = _memory(tmp_path, [fact("e", "Editor", "vim", subject="user:primary")], target)
    plan = memory.plan_promotion()
    assert plan.diff.splitlines()[:2] == [f"--- {target} (now)", f"+++ {target} (promoted)"]
    assert "+- **Editor**: vim" in plan.diff.splitlines()
    before = tree_snapshot(tmp_path)
    shown = CliRunner().invoke(
        main,
        ["--home", str(memory.home), "promote", "--memory-md", str(target)],
        env={"NUGGETS_NOW": "2026-11-01T09:00:00Z"},
    )
    assert shown.exit_code == 0, shown.output
    assert "+- **Editor**: vim" in shown.output.splitlines()
    assert tree_snapshot(tmp_path) == before


title_text = st.text(alphabet=st.sampled_from(list("ab *:#-\n\t")), max_size=10)


@st.composite
def promotable(draw: st.DrawFn) -> list[dict]:
    return [
        fact(
            f"n{i}",
            draw(title_text),
            draw(title_text),
            hits=draw(st.integers(2, 4)),
            tags=draw(st.lists(st.sampled_from(["learnings", "preferences"]), max_size=1)),
            subject=draw(st.sampled_from(["user:primary", "assistant:self", "shared:x"])),
            nuggetName=draw(st.sampled_from(["p", "zz"])),
        )
        for i in range(draw(st.integers(0, 5)))
    ]


@settings(max_examples=150, deadline=None)
@given(promotable(), st.sampled_from(["", EXISTING, "hand-written only", "## user\n- **a**: b"]))
def test_promoting_twice_changes_nothing_the_second_time_and_keeps_hand_lines(
    notes: list[dict], before: str
) -> None:
    first, _, _ = promoted(notes, before)
    second, added, updated = promoted(notes, first)
    assert (second, added, updated) == (first, 0, 0)
    kept = first.splitlines()
    # entries (and a section heading their moving left empty) are the tool's; the rest stays
    assert all(line in kept for line in before.splitlines() if not line.startswith(("- **", "## ")))


def test_a_title_holding_the_entry_marker_is_updated_not_added_again() -> None:
    first, added, _ = promoted([fact("a", "odd**: title", "one")])
    second, again, updated = promoted([fact("a", "odd**: title", "two")], first)
    assert (added, again, updated) == (1, 0, 1)
    assert second == first.replace("title**: one", "title**: two")


def test_any_entry_can_be_dropped_and_the_file_keeps_what_it_holds(tmp_path: Path) -> None:
    notes = [
        fact("a", "learn: alpha", "first line", tags=["learnings"]),
        fact("b", "learn: beta", "second line", tags=["learnings"]),
    ]
    target = tmp_path / "memory" / "MEMORY.md"
    target.parent.mkdir()
    plan = plan_promotion(notes, target, "", True, drop={"b"})
    assert [e.note_id for e in plan.entries] == ["a"]
    assert [(e.note_id, e.action) for e in plan.dropped] == [("b", "drop")]
    assert "beta" not in plan.after_text and "alpha" in plan.after_text
    held = "# Memory\n\n## learnings\n- **learn: beta**: kept by hand\n"
    kept = plan_promotion(notes, target, held, True, drop={"b"})
    assert "- **learn: beta**: kept by hand" in kept.after_text  # dropping removes nothing
    home = make_home(tmp_path / "home", notes)
    stray = CliRunner().invoke(
        main,
        ["--home", str(home), "promote", "--memory-md", str(target), "--drop", "nope", "--apply"],
    )
    assert stray.exit_code == 2 and "--drop" in stray.stderr and not target.exists()
    done = CliRunner().invoke(
        main, ["--home", str(home), "promote", "--memory-md", str(target), "--drop", "b", "--apply"]
    )
    assert done.exit_code == 0, done.output
    assert "alpha" in target.read_text() and "beta" not in target.read_text()
