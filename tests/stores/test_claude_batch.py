"""One apply of a Claude Code memory directory's plan is one undo (docs/CLAUDE_CODE.md,
"Writes"): the runs it writes, one per file, are undone together, all or none. The directories
are written by hand in Claude Code's documented format, as in tests/stores/test_claude.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import NuggetsError
from core.models import operation_note_ids
from core.safeio import crashpoints
from core.stores.claude.paths import record_home
from core.stores.claude.store import ClaudeStore
from tests.stores.test_claude import ROLE, agent_changes, run, store
from tests.stores.test_claude_merge import merge_ops, with_pair
from tests.support.claude_support import ticking
from tests.support.tree import hashes

AGENTS_ROLE = ROLE + b"Now prefers long answers.\n"


def planned(directory: Path, memory: ClaudeStore) -> tuple[dict[str, str], list[int]]:
    """Reviewed once; then the agent rewrites user_role.md. The plan's changes to keep: the
    merge and the entry for scratch.md (the agent's rewrite is left out: put back). Returns
    the directory's hashes before the apply and the changes kept."""
    memory.read()  # the reviewed baseline
    (directory / "user_role.md").write_bytes(AGENTS_ROLE)
    plan = memory.plan()
    entry = next(
        op.id for op in plan.operations if "MEMORY.md+scratch.md" in operation_note_ids(op)
    )
    assert agent_changes(plan) == ["user_role.md"]
    return hashes(directory), [*merge_ops(plan), entry]


def applied(root: Path, record: Path | None = None) -> tuple[Path, ClaudeStore, dict[str, str]]:
    """A kept merge, a kept hygiene fix and a revert of the agent's change, applied at once."""
    directory = with_pair(root)
    memory = ClaudeStore(directory, ticking(), record_root=record or root / "record")
    before, kept = planned(directory, memory)
    memory.apply(memory.plan(), kept)
    assert (directory / "user_role.md").read_bytes() == ROLE  # put back
    assert not (directory / "feedback_deploys.md").exists()  # merged away
    assert "(scratch.md)" in (directory / "MEMORY.md").read_text()  # listed
    assert len(memory.log()) == 4
    return directory, memory, before


def test_one_undo_of_the_newest_run_takes_the_whole_apply_back(tmp_path: Path) -> None:
    directory, memory, before = applied(tmp_path)
    memory.undo(memory.log()[0].run_id)
    assert hashes(directory) == before
    plan = memory.plan()
    assert agent_changes(plan) == ["user_role.md"]  # the agent's change, to review again
    assert len(merge_ops(plan)) == 1  # the merge is offered again


def test_undoing_the_oldest_run_of_the_apply_takes_it_all_back(tmp_path: Path) -> None:
    directory, memory, before = applied(tmp_path)
    memory.undo(memory.log()[-1].run_id)
    assert hashes(directory) == before


def test_a_file_the_agent_changed_since_blocks_the_whole_undo(tmp_path: Path) -> None:
    directory, memory, _ = applied(tmp_path)
    with (directory / "feedback_deploying.md").open("a") as file:
        file.write("the agent, after the apply\n")
    after = hashes(directory)
    runs = memory.log()
    with pytest.raises(NuggetsError) as caught:
        memory.undo(runs[0].run_id)
    said = str(caught.value)
    assert "feedback_deploying.md" in said and "nothing was restored" in said
    assert "\n" not in said
    assert hashes(directory) == after
    assert memory.log() == runs
    entry, blockers = memory.undo_blockers(runs[-1].run_id)
    assert blockers == ["feedback_deploying.md"]  # the file, as the note it is


def test_the_undo_of_such_an_undo_writes_the_apply_again(tmp_path: Path) -> None:
    directory, memory, _ = applied(tmp_path)
    merged = hashes(directory)
    memory.undo(memory.log()[0].run_id)
    undo_runs = [h for h in memory.log() if h.kind == "undo"]
    assert len(undo_runs) == 4
    memory.undo(undo_runs[-1].run_id)
    assert hashes(directory) == merged


def test_log_says_which_runs_were_written_together(tmp_path: Path) -> None:
    _, memory, _ = applied(tmp_path)
    runs = memory.log()
    first = runs[-1].run_id
    assert [
        h.summary.endswith(f" [{i} of 4 runs written together from {first}; undone together]")
        for i, h in zip((4, 3, 2, 1), runs, strict=True)
    ] == [True] * 4
    assert memory.run(runs[0].run_id).summary == runs[0].summary


def test_the_cli_undo_says_one_result_and_a_blocked_one_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUGGETS_DATA_DIR", str(tmp_path / "data"))
    root = tmp_path / "project"
    record = record_home(root / "memory", tmp_path / "data")
    directory, memory, before = applied(root, record)
    newest = memory.log()[0].run_id
    written = (directory / "MEMORY.md").read_bytes()
    (directory / "MEMORY.md").write_text("# Memory\n")  # the agent rewrites the index
    code, out, err = run(directory, "undo", newest)
    [said] = [line for line in err.splitlines() if "cannot undo" in line]  # the rest: notes
    assert code == 1 and out == ""
    assert "MEMORY.md" in said and said.endswith("nothing was restored")
    assert (directory / "user_role.md").read_bytes() == ROLE  # no other file either
    (directory / "MEMORY.md").write_bytes(written)  # as the apply left it
    code, out, err = run(directory, "undo", newest)
    assert code == 0, err
    said = f"Undid {newest}: restored 4 files as they were before it ("
    assert out.count("\n") == 1 and out.startswith(said)
    assert hashes(directory) == before


class Killed(BaseException):
    """A kill at a step of the apply (nothing after it runs)."""


def test_an_apply_killed_between_its_runs_is_settled_and_undone_as_far_as_it_landed(
    tmp_path: Path,
) -> None:
    directory = with_pair(tmp_path)
    memory = store(directory, tmp_path)
    before, kept = planned(directory, memory)
    plan = memory.plan()
    pending = 0

    def kill_at_the_third() -> None:
        nonlocal pending
        pending += 1
        if pending == 3:  # the revert and the merged file landed; the removal is pending
            raise Killed

    crashpoints.on("journal entry pending", kill_at_the_third)
    try:
        with pytest.raises(Killed):
            memory.apply(plan, kept)
    finally:
        crashpoints.reset()
    reopened = store(directory, tmp_path)
    assert any("never landed" in line for line in reopened.recover())
    assert len(reopened.log()) == 2
    assert (directory / "feedback_deploys.md").exists()
    reopened.undo(reopened.log()[0].run_id)
    assert hashes(directory) == before


def test_a_file_changed_while_the_batch_is_undone_is_said_and_never_overwritten(
    tmp_path: Path,
) -> None:
    directory, memory, _ = applied(tmp_path)
    runs = memory.log()

    def the_agent_writes() -> None:  # right after the first file's undo landed
        crashpoints.on("journal entry committed", None)
        with (directory / "user_role.md").open("a") as file:
            file.write("the agent, meanwhile\n")

    crashpoints.on("journal entry committed", the_agent_writes)
    try:
        with pytest.raises(NuggetsError) as caught:
            memory.undo(runs[0].run_id)
    finally:
        crashpoints.reset()
    said = str(caught.value)
    assert said.startswith(f"cannot undo {runs[0].run_id} whole: user_role.md changed")
    assert "MEMORY.md" in said and "\n" not in said
    assert (directory / "user_role.md").read_bytes() == ROLE + b"the agent, meanwhile\n"
    undone = [h for h in memory.log() if h.kind == "undo"]
    assert [h.file_name for h in undone] == [
        "feedback_deploying.md",
        "feedback_deploys.md",
        "MEMORY.md",
    ]
    memory.undo(undone[0].run_id)  # the part undone is written back, together
    assert (directory / "user_role.md").read_bytes() == ROLE + b"the agent, meanwhile\n"
    assert not (directory / "feedback_deploys.md").exists()


def test_files_a_kill_left_half_written_in_the_record_are_removed_on_the_next_open(
    tmp_path: Path,
) -> None:
    """An apply killed while it wrote the reviewed baseline (or a version it keeps) leaves the
    record's temporary file: opening the directory again removes it and says so."""
    directory, _, _ = applied(tmp_path)
    record = tmp_path / "record" / "seen"
    halves = [
        record / ".reviewed.json.0123456789ab.nuggets-tmp",
        record / "blobs" / f".{'0' * 64}.0123456789ab.nuggets-tmp",
    ]
    for half in halves:
        half.write_bytes(b'{"at": "2026-')
    said = ClaudeStore(directory, ticking(), record_root=tmp_path / "record").open().messages
    assert [half for half in halves if half.exists()] == []
    assert all(any(half.name in line for line in said) for half in halves), said
    assert ClaudeStore(directory, ticking(), record_root=tmp_path / "record").recover() == []
