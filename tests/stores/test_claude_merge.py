"""Near-duplicate topic files of a Claude Code memory directory as merges in the hygiene plan
(docs/CLAUDE_CODE.md, "Hygiene as changes"). The directories are written by hand in Claude
Code's documented format, as in tests/stores/test_claude.py."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.errors import StalePlanError
from core.models import Plan
from core.stores.claude import index
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.merge import merged_text, pairs, split
from core.stores.claude.notes import near_duplicates, topic_note
from core.stores.claude.store import ClaudeStore
from tests.stores.test_claude import INDEX, agent_changes, store, write_directory
from tests.support.tree import hashes


def topic(name: str, description: str, body: str, kind: str = "feedback") -> bytes:
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}\n"
    ).encode()


DEPLOYS = topic(
    "Deploys",
    "how deploys are done",
    "Deploy with the make target, never by hand.\n**Why:** the hand deploy skipped the migrations.",
)
DEPLOYING = topic(
    "Deploying",
    "how deploys are done",
    "Deploy with the make target, never by hand.\n**Why:** the hand deploy "
    "skipped the migrations.\nAsk ops first.",
)
DEPLOYS_LINE = "- [Deploys](feedback_deploys.md) \u2014 deploy with make\n"
DEPLOYING_LINE = "- [Deploying](feedback_deploying.md) \u2014 deploys go through make\n"
OLD, NEW = 1_700_000_000, 1_700_000_100  # mtimes: feedback_deploying.md is the newer


def with_pair(root: Path) -> Path:
    """The test directory, plus two topic files that say the same thing, both listed."""
    directory = write_directory(root)
    (directory / "feedback_deploys.md").write_bytes(DEPLOYS)
    (directory / "feedback_deploying.md").write_bytes(DEPLOYING)
    os.utime(directory / "feedback_deploys.md", (OLD, OLD))
    os.utime(directory / "feedback_deploying.md", (NEW, NEW))
    (directory / "MEMORY.md").write_text(INDEX + DEPLOYS_LINE + DEPLOYING_LINE)
    return directory


def merge_ops(plan: Plan) -> list[int]:
    return [op.id for op in plan.operations if plan.change_for(op.id).type == "merge"]


def lines(data: bytes) -> set[str]:
    return {line.strip() for line in data.decode().splitlines() if line.strip()}


def test_a_near_duplicate_pair_is_one_merge_left_out_unless_kept(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    [merge] = merge_ops(plan)
    assert merge in plan.unkept_by_default
    op = plan.operations[merge - 1]
    assert op.note_id == "feedback_deploying.md"  # the newer stays
    diffs = {d.note_id: d for d in plan.notes}
    assert diffs["feedback_deploys.md"].after["hidden"]  # the other is archived
    assert diffs["MEMORY.md~feedback_deploys.md"].before["content"] == DEPLOYS_LINE
    assert diffs["MEMORY.md~feedback_deploys.md"].after["content"] == ""
    assert any(
        "feedback_deploys.md: removed" in line
        for line in memory.side_file_lines(plan, {"feedback_deploying.md"})
    )
    before = hashes(directory)
    assert memory.apply(plan) is None  # nothing chosen: nothing written
    assert hashes(directory) == before


def test_a_kept_merge_writes_what_its_diff_showed_and_drops_no_line(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    [merge] = merge_ops(plan)
    shown = next(d for d in plan.notes if d.note_id == "feedback_deploying.md").after["content"]
    memory.apply(plan, [merge])
    written = (directory / "feedback_deploying.md").read_bytes()
    assert written.decode() == shown
    assert not (directory / "feedback_deploys.md").exists()
    assert (directory / "MEMORY.md").read_text() == INDEX + DEPLOYING_LINE
    assert lines(DEPLOYS) | lines(DEPLOYING) <= lines(written)
    assert DEPLOYS_LINE.strip() in lines(written)  # its index entry, kept as text
    assert agent_changes(memory.plan()) == []  # the merge is reviewed: not the agent's
    assert merge_ops(memory.plan()) == []


@pytest.mark.parametrize(
    "kept_text",
    [
        "---\nname: A\ndescription: a\ntype: user\n---\n\none\ntwo\n",
        "---\r\nname: A\r\ndescription: a\r\ntype: user\r\n---\r\n\r\none\r\ntwo",
        "no frontmatter at all\none\n",
    ],
)
def test_every_line_of_both_files_is_in_the_merge(kept_text: str) -> None:
    other = "---\nname: B\ndescription: b\ntype: project\nextra: x\n---\n\ntwo\n\n  three\nfour\n"
    result = merged_text("a.md", kept_text, "b.md", other, ["- [B](b.md) — b"])
    assert result.startswith(kept_text)
    got = {line.strip() for line in result.splitlines()}
    for text in (kept_text, other):  # all but the frontmatter's delimiters
        for line in text.splitlines():
            assert line.strip() in got or line.strip() == "---", line
    front, body = split(result)
    assert front == split(kept_text)[0]  # the kept file's frontmatter is untouched


def test_the_newer_file_stays_and_a_tie_keeps_the_first_name() -> None:
    texts = {"a.md": DEPLOYS.decode(), "b.md": DEPLOYING.decode()}
    assert pairs(texts, {"a.md": 2.0, "b.md": 1.0})[0][:2] == ("a.md", "b.md")
    assert pairs(texts, {"a.md": 1.0, "b.md": 2.0})[0][:2] == ("b.md", "a.md")
    assert pairs(texts, {"a.md": 1.0, "b.md": 1.0})[0][:2] == ("a.md", "b.md")


WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()


def words(start: int) -> str:
    return topic("Words", "the words", " ".join(WORDS[start : start + 10]), "reference").decode()


@pytest.mark.parametrize(
    ("starts", "shape", "merged"),
    [
        ((0, 2, 5), {("a.md", "b.md"), ("b.md", "c.md")}, ("a.md", "b.md")),  # a chain
        ((0, 2, 4), {("a.md", "b.md"), ("b.md", "c.md")}, ("b.md", "c.md")),  # b~c the closest
        ((0, 1, 2), {("a.md", "b.md"), ("a.md", "c.md"), ("b.md", "c.md")}, ("a.md", "b.md")),
    ],
)
def test_a_chain_of_near_duplicates_gives_merges_that_never_share_a_file(
    starts: tuple[int, int, int], shape: set[tuple[str, str]], merged: tuple[str, str]
) -> None:
    texts = {
        name: words(start) for name, start in zip(("a.md", "b.md", "c.md"), starts, strict=True)
    }
    notes = [topic_note(name, text.encode(), "", None) for name, text in texts.items()]
    assert {(a, b) for a, b, _ in near_duplicates(notes)} == shape
    found = pairs(texts, {})
    assert [tuple(sorted(p[:2])) for p in found] == [merged]  # the closest pair; one merge


def test_a_file_changed_since_the_plan_stops_the_merge_whole(tmp_path: Path) -> None:
    for name in ("feedback_deploys.md", "feedback_deploying.md", "MEMORY.md"):
        directory = with_pair(tmp_path / name)
        memory = store(directory, tmp_path / name)
        plan = memory.plan()
        [merge] = merge_ops(plan)
        with (directory / name).open("a") as file:
            file.write("the agent, again\n")
        before = hashes(directory)
        with pytest.raises(StalePlanError, match="changed since this plan"):
            memory.apply(plan, [merge])
        assert hashes(directory) == before, name
        assert memory.log() == [], name


def test_a_merge_that_would_now_keep_the_other_file_is_refused(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    os.utime(directory / "feedback_deploys.md", (NEW + 1, NEW + 1))  # now the newer one
    before = hashes(directory)
    with pytest.raises(StalePlanError, match="changed since this plan"):
        memory.apply(plan, merge_ops(plan))
    assert hashes(directory) == before
    assert memory.log() == []


def test_undo_puts_the_three_files_back_byte_for_byte(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    before = hashes(directory)
    plan = memory.plan()
    memory.apply(plan, merge_ops(plan))
    assert {h.file_name for h in memory.log()} == {
        "feedback_deploying.md",
        "feedback_deploys.md",
        "MEMORY.md",
    }
    memory.undo(memory.log()[0].run_id)  # one apply, one undo
    assert hashes(directory) == before
    plan = memory.plan()
    assert agent_changes(plan) == []  # our own edit undone: still reviewed
    assert len(merge_ops(plan)) == 1  # offered again


def test_unhide_brings_the_removed_file_back_with_its_index_line(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    memory.apply(plan, merge_ops(plan))
    gone = next(n for n in memory.read().notes if n["id"] == "feedback_deploys.md")
    assert gone["hidden"]
    memory.unhide(["feedback_deploys.md"])
    assert (directory / "feedback_deploys.md").read_bytes() == DEPLOYS
    assert DEPLOYS_LINE.rstrip("\n") in (directory / "MEMORY.md").read_text().splitlines()
    assert agent_changes(memory.plan()) == []


def test_two_merges_and_the_other_fixes_apply_together(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    testing = (directory / "feedback_testing.md").read_bytes()
    (directory / "feedback_tests.md").write_bytes(testing.replace(b"Testing", b"Tests"))
    os.utime(directory / "feedback_tests.md", (OLD, OLD))  # listed nowhere, and older
    before = hashes(directory)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    assert len(merge_ops(plan)) == 2
    memory.apply(plan, [op.id for op in plan.operations])  # every fix and both merges
    assert sorted(p.name for p in directory.iterdir()) == [
        "MEMORY.md",
        "feedback_deploying.md",
        "feedback_testing.md",
        "scratch.md",
        "user_role.md",
    ]
    targets = [e.target for e in index.entries((directory / "MEMORY.md").read_text())]
    assert targets == [
        "feedback_testing.md",
        "user_role.md",
        "feedback_deploying.md",
        "scratch.md",
    ]  # a gone file's line out; no entry for a merged file
    assert memory.plan().operations == []
    memory.undo(memory.log()[0].run_id)  # one apply, one undo
    assert hashes(directory) == before


def test_the_demo_offers_a_merge_once_the_agents_week_is_reviewed(tmp_path: Path) -> None:
    directory = materialize_claude_demo(
        tmp_path / "demo" / "memory", datetime(2026, 11, 25, 9, tzinfo=UTC)
    )
    memory = ClaudeStore(directory)  # with the record of the week the demo wrote
    week = memory.plan()
    memory.apply(week, week.default_kept())  # the agent's week kept
    plan = memory.plan()
    merged = [plan.operations[i - 1].note_id for i in merge_ops(plan)]
    assert merged and set(merged) <= {"feedback_deploys.md", "feedback_deploying.md"}


def test_a_merge_and_the_budget_proposal_apply_together(tmp_path: Path) -> None:
    directory = with_pair(tmp_path)
    detail = "".join(f"- session {i}: looked at the build\n" for i in range(250))
    text = INDEX + DEPLOYS_LINE + DEPLOYING_LINE + "\n## Session notes\n\n" + detail
    (directory / "MEMORY.md").write_text(text)
    before = hashes(directory)
    memory = store(directory, tmp_path)
    plan = memory.plan()
    budget = next(op.id for op in plan.operations if op.note_id == "MEMORY.md")
    memory.apply(plan, [budget, *merge_ops(plan)])
    after = (directory / "MEMORY.md").read_text()
    assert not index.budget(after.encode()).over
    assert "feedback_deploys.md" not in after and DEPLOYING_LINE in after
    moved = "".join(p.read_text() for p in sorted(directory.glob("session_notes*.md")))
    assert all(line in moved for line in detail.splitlines())
    assert not (directory / "feedback_deploys.md").exists()
    memory.undo(memory.log()[0].run_id)  # one apply, one undo
    assert hashes(directory) == before
