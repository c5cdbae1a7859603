"""Claude Code's consolidation (docs/CLAUDE_CODE.md, "The dream"): while it holds
`.consolidate-lock` nothing of ours is written, and opening says when the last one ran and
whether one is due. The locks are written by hand as Claude Code 2.1.332's lock functions write
them (the dreaming process's id as bare decimal text, no newline; the mtime when the dream
started), and the transcripts as its session listing counts them (`<uuid>.jsonl` in the
project's folder, beside `memory/`)."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from core.errors import NuggetsError
from core.settings import Settings
from core.stores.claude import demo, dream
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.dream import LOCK, DreamingError, dream_state, wait_out
from core.stores.claude.store import ClaudeStore
from tests.stores.test_claude import INDEX, TESTING, run, store, write_directory
from tests.support.claude_support import NOW, ticking
from tests.support.tree import hashes

LIVE = {4242}


def _alive(pid: int) -> bool:
    return pid in LIVE


def _at(path: Path, when: datetime) -> None:
    os.utime(path, (when.timestamp(), when.timestamp()))


def _lock(directory: Path, text: str, when: datetime) -> None:
    (directory / LOCK).write_text(text)
    _at(directory / LOCK, when)


@pytest.mark.parametrize(
    ("text", "age", "held"),
    [
        ("4242", timedelta(minutes=5), 4242),  # a live process, fresh
        (" 4242\n", timedelta(minutes=5), 4242),  # read as Claude Code parses it
        ("4242", timedelta(hours=2), None),  # too old: the dream died without its rollback
        ("999999", timedelta(minutes=5), None),  # not alive
        ("garbage", timedelta(minutes=5), None),
        ("1", timedelta(minutes=5), None),  # PID 1 is never the dream
        ("", timedelta(minutes=5), None),  # emptied by a rollback
    ],
)
def test_the_lock_is_held_while_fresh_and_its_process_alive(
    text: str, age: timedelta, held: int | None
) -> None:
    state = dream_state((text, NOW - age), [], NOW, _alive)
    assert state.holder == held
    assert state.last == NOW - age


@pytest.mark.parametrize(
    ("since_last", "sessions", "due"),
    [
        (timedelta(hours=25), 5, True),
        (timedelta(hours=25), 4, False),
        (timedelta(hours=23), 9, False),
        (None, 5, True),  # never consolidated: time always passes
    ],
)
def test_a_dream_is_due_after_24_hours_and_5_sessions(
    since_last: timedelta | None, sessions: int, due: bool
) -> None:
    last = None if since_last is None else NOW - since_last
    lock = None if last is None else ("", last)
    older = [NOW - timedelta(days=30)] * 3  # saved before the last dream: not counted
    newer = [NOW - timedelta(minutes=n + 1) for n in range(sessions)]
    state = dream_state(lock, older + newer if last else newer, NOW, _alive)
    assert (state.due, state.sessions) == (due, sessions)


def _deleted(tmp_path: Path) -> tuple[Path, ClaudeStore]:
    """A directory reviewed, then a topic file deleted by a consolidation (one to unhide)."""
    directory = write_directory(tmp_path)
    memory = store(directory, tmp_path)
    memory.read()
    (directory / "feedback_testing.md").unlink()
    (directory / "MEMORY.md").write_text(INDEX.replace(INDEX.splitlines()[2] + "\n", ""))
    return directory, memory


def test_unhide_is_refused_in_one_line_while_the_dream_holds_the_lock(tmp_path: Path) -> None:
    directory, memory = _deleted(tmp_path)
    _lock(directory, str(os.getpid()), NOW)  # this process: alive
    before = hashes(directory)
    with pytest.raises(DreamingError) as caught:
        memory.unhide(["feedback_testing.md"])
    said = str(caught.value)
    assert said.startswith(f"{directory}: Claude Code is consolidating") and "\n" not in said
    assert LOCK in said and "nothing was restored" in said
    assert hashes(directory) == before and memory.log() == []
    (directory / LOCK).write_text("")  # its rollback (or a dream that ended): free again
    memory.unhide(["feedback_testing.md"])
    assert (directory / "feedback_testing.md").read_bytes() == TESTING


def test_apply_and_undo_are_refused_while_the_dream_holds_the_lock(tmp_path: Path) -> None:
    directory = write_directory(tmp_path)
    memory = store(directory, tmp_path)
    memory.read()
    (directory / "user_role.md").write_text("the agent's rewrite\n")
    plan = memory.plan()
    _lock(directory, str(os.getpid()), NOW)
    before = hashes(directory)
    with pytest.raises(DreamingError, match="nothing was applied"):
        memory.apply(plan, set())  # leaving the rewrite out would put it back
    assert hashes(directory) == before and memory.log() == []
    os.unlink(directory / LOCK)
    memory.apply(plan, set())
    _lock(directory, str(os.getpid()), NOW)
    put_back = hashes(directory)
    with pytest.raises(DreamingError, match="nothing was undone"):
        memory.undo(memory.log()[0].run_id)
    assert hashes(directory) == put_back and len(memory.log()) == 1


def test_the_cli_says_the_refusal_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUGGETS_DATA_DIR", str(tmp_path / "data"))
    directory = write_directory(tmp_path)
    assert run(directory, "notes")[0] == 0  # seen once
    (directory / "feedback_testing.md").unlink()
    _lock(directory, str(os.getpid()), datetime.now().astimezone())
    code, out, err = run(directory, "unhide", "feedback_testing.md")
    [said] = [line for line in err.splitlines() if "nothing was restored" in line]
    assert code == 1 and out == "" and said.endswith("to wait for it")
    assert not (directory / "feedback_testing.md").exists()


def test_a_write_waits_for_the_dream_when_told_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, memory = _deleted(tmp_path)
    _lock(directory, str(os.getpid()), NOW)
    slept = []

    def dream_ends(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            (directory / LOCK).write_text("")

    wait_out(directory, ticking(), 10, "restored", dream_ends)
    assert slept == [1.0, 1.0, 1.0]  # looked again each second until it ended
    (directory / LOCK).write_text(str(os.getpid()))
    _at(directory / LOCK, NOW)
    with pytest.raises(DreamingError, match="after waiting 2 s"):
        wait_out(directory, ticking(), 2, "restored", lambda seconds: None)
    waiting = ClaudeStore(directory, ticking(), tmp_path / "record", Settings.of(dream_wait=5))
    dreamed = []

    def ends_at_once(seconds: float) -> None:
        dreamed.append(seconds)
        os.unlink(directory / LOCK)

    monkeypatch.setattr(dream, "pause", ends_at_once)
    waiting.unhide(["feedback_testing.md"])
    assert dreamed == [1.0] and (directory / "feedback_testing.md").exists()


def test_opening_says_when_the_last_consolidation_ran_and_whether_one_is_due(
    tmp_path: Path,
) -> None:
    directory = write_directory(tmp_path)
    _lock(directory, "", NOW - timedelta(hours=30))  # rolled back or ended: not held
    for minutes in range(5):
        transcript = tmp_path / f"{uuid.UUID(int=minutes)}.jsonl"
        transcript.write_text("{}\n")
        _at(transcript, NOW - timedelta(minutes=minutes + 1))
    (tmp_path / "notes.jsonl").write_text("{}\n")  # not a session's name: not counted
    said = store(directory, tmp_path).open().messages
    assert "last consolidated 2026-11-24 03:00 UTC (30 h ago); 5 sessions since: one is due" in (
        "\n".join(said)
    )
    (tmp_path / f"{uuid.UUID(int=0)}.jsonl").unlink()
    said = store(directory, tmp_path).open(read=False).messages
    assert any("4 sessions since: none due" in line for line in said)
    for minutes in (1, 2, 3):
        (tmp_path / f"{uuid.UUID(int=minutes)}.jsonl").unlink()
    said = store(directory, tmp_path).open(read=False).messages
    assert any("; 1 session since: none due" in line for line in said)


def test_a_directory_never_consolidated_says_nothing_of_it(tmp_path: Path) -> None:
    said = store(write_directory(tmp_path), tmp_path).open().messages
    assert not any("consolidat" in line for line in said)


def test_an_unwritable_record_fails_before_restoring_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record's folder made unwritable (its permissions, as another user would meet them:
    the tests run as root, so the refusal is the system call's)."""
    directory, memory = _deleted(tmp_path)
    seen = tmp_path / "record" / "seen"
    real_open = os.open

    def refusing(path: str | os.PathLike[str], flags: int, *args: int, **kw: int) -> int:
        if flags & os.O_CREAT and Path(path).parent in (seen, seen / "blobs"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", refusing)
    before = hashes(directory)
    with pytest.raises(NuggetsError) as caught:
        memory.unhide(["feedback_testing.md"])
    said = str(caught.value)
    assert said == f"{seen}: cannot be written (Permission denied); nothing was restored"
    assert hashes(directory) == before and memory.log() == []


def test_a_second_undo_of_an_undone_batch_says_already_undone(tmp_path: Path) -> None:
    directory, memory = _deleted(tmp_path)
    memory.unhide(["feedback_testing.md"])
    newest, oldest = memory.log()[0].run_id, memory.log()[-1].run_id
    memory.undo(newest)
    for run_id in (newest, oldest):
        with pytest.raises(NuggetsError, match=f"run {run_id} was already undone by "):
            memory.undo(run_id)


def test_the_demo_holds_a_dream_its_deletions_and_the_sessions_since(tmp_path: Path) -> None:
    directory = materialize_claude_demo(tmp_path / "demo-claude" / "memory", NOW, data_dir=tmp_path)
    memory = ClaudeStore(directory, ticking(NOW), settings=Settings.of(data_dir=tmp_path))
    state = memory.dream()
    assert state.holder is None and state.last is not None  # its process long gone
    assert state.sessions == demo.SESSIONS_SINCE and state.due
    deleted = {n["id"] for n in memory.read().notes if n["hidden"]}
    assert deleted == {"reference_dashboards.md", "project_standup.md"}
    assert any("one is due" in line for line in memory.open().messages)
