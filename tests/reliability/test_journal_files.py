"""A journal entry names only files its store writes (core/journal/own_files.py). An entry edited
to name
another file (a path elsewhere, `..`, a file the store never writes, a symlink out of the
memory's folder) is refused with one line and nothing is written, in both stores, whether it is
undone or settled as a pending entry; `log` still lists the run and names the problem. Entries
written before names existed, holding the absolute path of the store's file, still undo."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from core.errors import NuggetsError
from core.journal.entries import journal_dir, write_pending
from core.models import FileImage, JournalEntry
from core.notes.snapshot import fingerprint
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.graph_file import graph_path
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.figures import record
from tests.support.microclaw_rows import insert, make_db
from tests.support.reliability_support import CLOCK, make_home, note

HAND = "# Memory\n\nHand-written.\n"
PRECIOUS = b"precious bytes, not ours\n"
PWNED = "written by a tampered journal entry\n"


def _entry_file(journal_home: Path, run_id: str) -> Path:
    return journal_dir(journal_home) / f"{run_id}.json"


def _retarget(path: Path, name: str, victim: Path) -> None:
    """Edit the entry (header and body alike, so only the file it names is wrong) to name
    `name` and to look as if it left `victim` as it is now: an undo that trusted it would
    write PWNED there."""
    lines = path.read_bytes().splitlines()
    for number, line in enumerate(lines):
        data = json.loads(line)
        data["memoryMd"] = name
        data["resultFingerprint"] = fingerprint(victim.read_bytes())
        if "memoryMdAfter" in data:
            data["memoryMdAfter"] = victim.read_bytes().decode("utf-8", "replace")
            data["memoryMdBefore"] = PWNED
        lines[number] = json.dumps(data, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")


def _nuggets(tmp_path: Path) -> tuple[NuggetsStore, Path, str]:
    """A memory with one promotion run; its MEMORY.md and run id."""
    home = make_home(tmp_path, [note("d", "deploy", "run make deploy", hits=5)], memory_md=HAND)
    target = home / "memory" / "MEMORY.md"
    memory = NuggetsStore(home, CLOCK, target)
    memory.promote(memory.plan_promotion())
    return memory, target, memory.log()[0].run_id


def _cli(memory: NuggetsStore, *args: str) -> Result:
    env = {
        "NUGGETS_NOW": "2026-11-01T10:00:00Z",
        "TZ": "UTC",
        "NUGGETS_HOME": "",
        "NUGGETS_MEMORY_MD": str(memory.promotion_target()),
    }
    return CliRunner().invoke(main, ["--home", str(memory.home), *args], env=env)


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.write_bytes(PRECIOUS)
    return victim


def _elsewhere(memory: NuggetsStore, tmp_path: Path) -> tuple[str, Path]:
    victim = _victim(tmp_path)
    return str(victim), victim


def _dot_dot(memory: NuggetsStore, tmp_path: Path) -> tuple[str, Path]:
    victim = _victim(tmp_path)
    os.chdir(memory.home)  # an old entry's relative path was read from where undo ran
    return "../victim", victim


def _the_graph(memory: NuggetsStore, tmp_path: Path) -> tuple[str, Path]:
    """A file of the memory, but not one a file run writes: the graph itself."""
    return str(graph_path(memory.home)), graph_path(memory.home)


def _settled_symlink(memory: NuggetsStore, tmp_path: Path) -> tuple[str, Path]:
    """Our own file, planted as a symlink out of the home: an old entry's absolute path."""
    victim = _victim(tmp_path)
    (memory.home / "conflicts-settled.json").symlink_to(victim)
    return str(memory.home / "conflicts-settled.json"), victim


NUGGETS_CASES: dict[str, Callable[[NuggetsStore, Path], tuple[str, Path]]] = {
    "an absolute path elsewhere": _elsewhere,
    "a relative path with ..": _dot_dot,
    "a file the store never writes that way (the graph)": _the_graph,
    "our file's name, a symlink out of the home": _settled_symlink,
}


@pytest.mark.parametrize("case", list(NUGGETS_CASES))
def test_nuggets_undo_of_an_entry_naming_another_file_is_refused(
    tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    memory, target, run_id = _nuggets(tmp_path)
    name, victim = NUGGETS_CASES[case](memory, tmp_path)
    _retarget(_entry_file(memory.home, run_id), name, victim)
    kept, written = victim.read_bytes(), target.read_bytes()
    undone = _cli(memory, "undo", run_id)
    assert undone.exit_code == 1, undone.output
    [line] = undone.stderr.splitlines()
    assert line.startswith("nuggets: ") and "not a readable journal entry" in line
    assert "not a file this memory writes" in line or "leads out of" in line
    assert victim.read_bytes() == kept and target.read_bytes() == written
    assert len(memory.log()) == 1  # no undo run was journaled
    record("journal entries naming a file not ours, refused")


def test_log_lists_the_run_and_names_the_problem(tmp_path: Path) -> None:
    memory, _, run_id = _nuggets(tmp_path)
    victim = _victim(tmp_path)
    _retarget(_entry_file(memory.home, run_id), str(victim), victim)
    logged = _cli(memory, "log")
    assert logged.exit_code == 0 and run_id in logged.stdout
    assert run_id in logged.stderr and "not a file this memory writes" in logged.stderr
    assert victim.read_bytes() == PRECIOUS


def test_a_pending_entry_naming_another_file_is_discarded_untouched(tmp_path: Path) -> None:
    """Settling decides a pending entry from the files it names: a tampered one must not make
    settling put a 'before' text back into a file elsewhere (a fact file image here)."""
    memory, _, _ = _nuggets(tmp_path)
    victim = _victim(tmp_path)
    graph = graph_path(memory.home)
    base = fingerprint(graph.read_bytes())
    image = FileImage(
        path="../victim",
        base_fingerprint="0" * 64,
        result_fingerprint=fingerprint(PRECIOUS),
        before_text=PWNED,
    )
    pending = JournalEntry(
        run_id="20261101T100000Z-0007",
        seq=7,
        kind="reflect",
        at="2026-11-01T10:00:00Z",
        base_fingerprint=base,
        result_fingerprint="1" * 64,
        before={},
        after={},
        files=[image],
    )
    write_pending(memory.home, pending)
    messages = memory.recover()
    assert any("discarded journal entry" in m for m in messages), messages
    assert victim.read_bytes() == PRECIOUS and graph.read_bytes() != b""
    record("journal entries naming a file not ours, refused")


def test_an_old_entry_with_the_absolute_path_of_memory_md_still_undoes(tmp_path: Path) -> None:
    memory, target, run_id = _nuggets(tmp_path)
    path = _entry_file(memory.home, run_id)
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    for data in lines:
        data["memoryMd"] = str(target)  # as entries were written before names
    path.write_bytes(b"\n".join(json.dumps(d, separators=(",", ":")).encode() for d in lines))
    undone = _cli(memory, "undo", run_id)
    assert undone.exit_code == 0, undone.output
    assert target.read_text() == HAND


# -- MicroClaw ----------------------------------------------------------------------------------


@pytest.fixture
def microclaw(tmp_path: Path) -> MicroClawStore:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    insert(conn, "The project deploys on Fridays", confidence=0.9)
    conn.commit()
    conn.close()
    (db.parent / "groups").mkdir()
    (db.parent / "groups" / "AGENTS.md").write_text(HAND)
    store = MicroClawStore(db.parent.parent)
    store.promote_now()
    return store


def _agents_md(store: MicroClawStore) -> Path:
    return store.home / "runtime" / "groups" / "AGENTS.md"


def _mc_elsewhere(store: MicroClawStore, tmp_path: Path) -> tuple[str, Path]:
    victim = _victim(tmp_path)
    return str(victim), victim


def _mc_database(store: MicroClawStore, tmp_path: Path) -> tuple[str, Path]:
    """The bot's own database: inside the data dir, never a file we write."""
    return str(store.graph_path), store.graph_path


def _mc_dot_dot(store: MicroClawStore, tmp_path: Path) -> tuple[str, Path]:
    victim = _victim(tmp_path)
    os.chdir(_agents_md(store).parent)
    return "../../../victim", victim


def _mc_symlink(store: MicroClawStore, tmp_path: Path) -> tuple[str, Path]:
    """The AGENTS.md it wrote, replaced by a symlink out of the scope folders: an old entry's
    absolute path to it."""
    victim = _victim(tmp_path)
    agents = _agents_md(store)
    victim.write_bytes(agents.read_bytes())  # as the run left it: only the link is wrong
    agents.unlink()
    agents.symlink_to(victim)
    return str(agents), victim


MICROCLAW_CASES: dict[str, Callable[[MicroClawStore, Path], tuple[str, Path]]] = {
    "an absolute path elsewhere": _mc_elsewhere,
    "the bot's database": _mc_database,
    "a relative path with ..": _mc_dot_dot,
    "AGENTS.md, a symlink out of the scope folders": _mc_symlink,
}


@pytest.mark.parametrize("case", list(MICROCLAW_CASES))
def test_microclaw_undo_of_an_entry_naming_another_file_is_refused(
    microclaw: MicroClawStore, tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    [header] = microclaw.log()
    name, victim = MICROCLAW_CASES[case](microclaw, tmp_path)
    _retarget(_entry_file(microclaw.journal_home, header.run_id), name, victim)
    kept = victim.read_bytes()
    with pytest.raises(NuggetsError) as refused:
        microclaw.undo(header.run_id)
    message = str(refused.value)
    assert "\n" not in message and "not a readable journal entry" in message
    assert "not a file this memory writes" in message or "leads out of" in message
    assert victim.read_bytes() == kept
    assert len(microclaw.log()) == 1
    record("journal entries naming a file not ours, refused")


def test_microclaw_names_agents_md_under_the_scope_folders_and_old_paths_undo(
    microclaw: MicroClawStore,
) -> None:
    [header] = microclaw.log()
    assert header.file_name == "groups/AGENTS.md"
    agents = _agents_md(microclaw)
    path = _entry_file(microclaw.journal_home, header.run_id)
    lines: list[dict[str, Any]] = [json.loads(line) for line in path.read_bytes().splitlines()]
    for data in lines:
        data["memoryMd"] = str(agents)  # as entries were written before names
    path.write_bytes(b"\n".join(json.dumps(d, separators=(",", ":")).encode() for d in lines))
    microclaw.undo(header.run_id)
    assert agents.read_text() == HAND


def test_a_promotion_to_another_memory_md_is_undone_by_naming_it_again(tmp_path: Path) -> None:
    """MEMORY.md is named by its role: undo resolves it as the memory is opened now."""
    memory, target, _ = _nuggets(tmp_path)
    other = tmp_path / "elsewhere" / "MEMORY.md"
    other.parent.mkdir()
    other.write_text(HAND)
    (memory.home / "graph" / "graph.json").write_text(
        json.dumps({"version": 3, "notes": [note("t", "tone", "plain words", hits=4)]})
    )
    promoted = _cli(memory, "promote", "--memory-md", str(other), "--apply")
    assert promoted.exit_code == 0, promoted.output
    run_id = memory.log()[0].run_id
    written, default = other.read_bytes(), target.read_bytes()
    refused = _cli(memory, "undo", run_id)  # the default MEMORY.md is not as the run left it
    assert refused.exit_code == 1 and "--memory-md" in refused.stderr
    assert other.read_bytes() == written and target.read_bytes() == default
    undone = _cli(memory, "undo", run_id, "--memory-md", str(other))
    assert undone.exit_code == 0, undone.output
    assert other.read_text() == HAND and target.read_bytes() == default
