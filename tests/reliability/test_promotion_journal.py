"""Every MEMORY.md write is journaled like an applied run (docs/RUNS.md): the file's before- and
after-image in the entry, `nuggets undo RUN_ID` puts the before-image back while the file is
unchanged since (else it is refused, naming the file), a crash leaves the journal iff the write
landed, and undo of a promotion that created the file removes it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.errors import NuggetsError
from core.journal.entries import journal_dir, write_pending
from core.models import JournalEntry
from core.notes.snapshot import EMPTY_FINGERPRINT, fingerprint
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.figures import record
from tests.support.reliability_support import (
    CLOCK,
    leftovers,
    make_home,
    note,
    run_in_child,
    traced_steps,
)

HAND = "# Memory\r\n\r\nHand-written, CRLF.\r\n"


def _memory(tmp_path: Path, memory_md: str | None = HAND) -> tuple[NuggetsStore, Path]:
    home = make_home(
        tmp_path,
        [note("d", "deploy", "run make deploy", hits=5), note("t", "tone", "plain words", hits=4)],
        memory_md=memory_md,
    )
    target = home / "memory" / "MEMORY.md"
    return NuggetsStore(home, CLOCK, target), target


def test_a_promotion_is_journaled_with_the_files_before_and_after_image(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path)
    memory.promote(memory.plan_promotion())
    [header] = memory.log()
    entry = memory.run(header.run_id)
    assert entry.kind == "promote" and entry.file_name == "MEMORY.md"  # by its role
    assert entry.file_before == HAND
    assert entry.file_after == target.read_bytes().decode()
    assert entry.base_fingerprint == fingerprint(HAND.encode())
    assert entry.result_fingerprint == fingerprint(target.read_bytes())
    assert memory.promotion_run == entry
    assert [(e.note_id, e.action) for e in entry.promoted or []] == [("d", "add"), ("t", "add")]


def test_undo_restores_the_before_image_byte_for_byte(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path)
    memory.promote(memory.plan_promotion())
    run = memory.log()[0].run_id
    undone = memory.undo(run)
    assert target.read_bytes() == HAND.encode()
    assert undone.kind == "undo" and undone.undoes == run and undone.file_name == "MEMORY.md"
    with pytest.raises(NuggetsError, match="already undone"):
        memory.undo(run)


def test_undo_is_refused_naming_the_file_when_it_changed_since(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path)
    memory.promote(memory.plan_promotion())
    target.write_text(target.read_text() + "agent line\n")
    changed = target.read_bytes()
    with pytest.raises(NuggetsError, match=f"{target}.*changed since"):
        memory.undo(memory.log()[0].run_id)
    assert target.read_bytes() == changed


def test_undo_of_the_promotion_that_created_the_file_removes_it(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path, memory_md=None)
    memory.promote(memory.plan_promotion())
    entry = memory.run(memory.log()[0].run_id)
    assert entry.base_fingerprint == EMPTY_FINGERPRINT and entry.file_before is None
    memory.undo(entry.run_id)
    assert not target.exists()
    assert sorted(p.name for p in target.parent.iterdir()) == []


def test_an_unchanged_file_writes_no_journal_entry(tmp_path: Path) -> None:
    memory, _ = _memory(tmp_path)
    memory.promote(memory.plan_promotion())
    memory.promote(memory.plan_promotion())
    assert len(memory.log()) == 1


def test_a_pending_promotion_entry_is_settled_by_what_is_on_disk(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path)
    plan = memory.plan_promotion()
    landed = JournalEntry(
        run_id="20261101T100000Z-0007",
        seq=7,
        kind="promote",
        at="2026-11-01T10:00:00Z",
        base_fingerprint=plan.base_fingerprint,
        result_fingerprint=fingerprint(plan.after_text.encode()),
        before={},
        after={},
        file_name=str(target),
        file_before=plan.before_text,
        file_after=plan.after_text,
    )
    write_pending(memory.home, landed)
    assert any("discarded journal entry" in m for m in memory.recover())  # it never landed
    write_pending(memory.home, landed)
    target.write_text(plan.after_text, newline="")
    assert any("recovered journal entry" in m for m in memory.recover())
    assert [e.run_id for e in memory.log()] == [landed.run_id]


def _cli(home: Path, target: Path, *args: str):  # type: ignore[no-untyped-def]
    env = {
        "NUGGETS_NOW": "2026-11-01T10:00:00Z",
        "TZ": "UTC",
        "NUGGETS_HOME": "",
        "NUGGETS_MEMORY_MD": str(target),
    }
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def test_the_command_line_says_the_run_and_undoes_it(tmp_path: Path) -> None:
    memory, target = _memory(tmp_path)
    applied = _cli(memory.home, target, "promote", "--apply")
    assert applied.exit_code == 0, applied.output
    run = memory.log()[0].run_id
    assert f"nuggets undo {run}" in applied.stdout
    logged = _cli(memory.home, target, "log")
    assert run in logged.stdout and "MEMORY.md" in logged.stdout
    undone = _cli(memory.home, target, "undo", run)
    assert undone.exit_code == 0 and "restored MEMORY.md" in undone.stdout
    assert target.read_bytes() == HAND.encode()
    header, whole = (journal_dir(memory.home) / f"{run}.json").read_text().splitlines()
    data = json.loads(whole)  # the entry's second line; the first is its header
    assert data["memoryMd"] == "MEMORY.md" and data["kind"] == "promote"
    assert json.loads(header)["memoryMd"] == "MEMORY.md"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_undo_of_a_creation_killed_at_every_step_leaves_the_file_or_none(tmp_path: Path) -> None:
    def promoted(name: str) -> tuple[NuggetsStore, Path, str]:
        memory, target = _memory(tmp_path / name, memory_md=None)
        memory.promote(memory.plan_promotion())
        return memory, target, memory.log()[0].run_id

    memory, _, run = promoted("traced")
    steps = traced_steps(lambda: memory.undo(run))
    assert "file moved aside" in steps
    outcomes = set()
    for k in range(1, len(steps) + 1):
        memory, target, run = promoted(f"k{k}")
        written = target.read_bytes()
        assert run_in_child(lambda memory=memory, run=run: memory.undo(run), crash_at=k).killed
        memory.recover()
        kinds = [e.kind for e in memory.log()]
        if target.exists():
            assert (target.read_bytes(), kinds) == (written, ["promote"]), steps[k - 1]
        else:
            assert kinds == ["undo", "promote"], steps[k - 1]
        assert leftovers(memory.home) == []
        outcomes.add(target.exists())
    assert outcomes == {True, False}
    record("kill points tried", len(steps))
    record("crash trials", len(steps))
