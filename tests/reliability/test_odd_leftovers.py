"""A symlinked graph whose target has an odd name (245 characters, glob's special characters,
another name than graph.json): writes land, a write killed at any step is settled from what it
left beside the target, and a write that fails is never reported as written."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from core.errors import GraphError
from core.models import JournalEntry
from core.notes.snapshot import fingerprint
from core.safeio.atomic_write import side_name
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.figures import record
from tests.support.reliability_support import (
    copy_home,
    make_home,
    memory_of,
    messy_notes,
    run_in_child,
    traced_steps,
)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

TARGET_NAMES = {
    "245 characters": "m" * 240 + ".json",
    "glob characters": "mem[1]*?.json",
    "another name": "mem.json",
}


def _linked_home(root: Path, target_name: str) -> tuple[Path, Path]:
    """A home whose graph.json is a symlink to `target_name` in a directory of its own."""
    home = make_home(root, messy_notes())
    graph = home / "graph" / "graph.json"
    target = root / "elsewhere" / target_name
    target.parent.mkdir()
    target.write_bytes(graph.read_bytes())
    graph.unlink()
    graph.symlink_to(target)
    return home, target


def _side_files(home: Path, target: Path) -> list[str]:
    found = [
        p.name
        for d in (target.parent, home / "graph", home / "reflections")
        if d.is_dir()
        for p in d.iterdir()
        if ".nuggets-" in p.name or p.name.endswith(".pending")
    ]
    return sorted(found)


def _apply(memory: NuggetsStore) -> JournalEntry | None:
    return memory.apply(memory.plan(uncapped=True))


@pytest.mark.parametrize("shape", list(TARGET_NAMES))
def test_a_write_through_an_odd_symlink_lands_and_journals(tmp_path: Path, shape: str) -> None:
    home, target = _linked_home(tmp_path, TARGET_NAMES[shape])
    before = target.read_bytes()
    entry = _apply(memory_of(home))
    assert entry is not None and target.read_bytes() != before
    assert entry.result_fingerprint == fingerprint(target.read_bytes())
    assert (home / "graph" / "graph.json").is_symlink()
    assert [e.run_id for e in memory_of(home).log()] == [entry.run_id]
    assert _side_files(home, target) == []
    memory_of(home).undo(entry.run_id)
    assert target.read_bytes() == before
    record("odd leftovers tried")


def _copy(template_root: Path, root: Path, target_name: str) -> tuple[Path, Path]:
    """A copy of the template whose symlink points at the copy's own target."""
    copy_home(template_root, root)
    home, target = root / "home", root / "elsewhere" / target_name
    (home / "graph" / "graph.json").unlink()
    (home / "graph" / "graph.json").symlink_to(target)
    return home, target


@pytest.mark.parametrize("shape", list(TARGET_NAMES))
def test_killed_at_every_step_through_an_odd_symlink(tmp_path: Path, shape: str) -> None:
    name = TARGET_NAMES[shape]
    template, target = _linked_home(tmp_path / "template", name)
    old = target.read_bytes()
    traced, _ = _copy(template.parent, tmp_path / "traced", name)
    steps = traced_steps(lambda: _apply(memory_of(traced)))
    assert len(steps) >= 5, steps
    outcomes = set()
    for k in range(1, len(steps) + 1):
        home, target = _copy(template.parent, tmp_path / f"k{k}", name)
        child = run_in_child(lambda home=home: _apply(memory_of(home)), crash_at=k)
        assert child.killed, (k, steps[k - 1], child)
        had_leftovers = bool(_side_files(home, target))
        messages = memory_of(home).recover()
        assert bool(messages) == had_leftovers, (steps[k - 1], messages)
        assert _side_files(home, target) == [], steps[k - 1]
        read_graph(home / "graph" / "graph.json")
        entries = memory_of(home).log()
        expected = entries[0].result_fingerprint if entries else fingerprint(old)
        assert fingerprint(target.read_bytes()) == expected, steps[k - 1]
        outcomes.add("new" if entries else "old")
    assert outcomes == {"old", "new"}
    record("odd leftovers tried", len(steps))
    record("kill points tried", len(steps))
    record("crash trials", len(steps))


def test_a_write_that_fails_before_landing_is_not_reported_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path, messy_notes())
    before = (home / "graph" / "graph.json").read_bytes()

    def fails(*args: object, **kwargs: object) -> str:
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))

    monkeypatch.setattr("core.stores.nuggets.store.replace_if_unchanged", fails)
    with pytest.raises(GraphError) as raised:
        _apply(memory_of(home))
    assert "cannot be written" in str(raised.value) and "was written" not in str(raised.value)
    monkeypatch.undo()
    assert (home / "graph" / "graph.json").read_bytes() == before
    assert _side_files(home, home / "graph" / "graph.json") == []
    assert memory_of(home).log() == []
    assert _apply(memory_of(home)) is not None  # and the memory works on
    record("odd leftovers tried")


def test_a_temporary_file_left_beside_the_graph_is_removed(tmp_path: Path) -> None:
    home, target = _linked_home(tmp_path, TARGET_NAMES["245 characters"])
    left = target.with_name(f".{side_name(target.name)}.0123456789ab.nuggets-tmp")
    left.write_bytes(b'{"version": 3, "no')  # a write killed half-way (the demo's, say)
    messages = memory_of(home).recover()
    assert not left.exists() and any(left.name in m for m in messages)
    assert memory_of(home).recover() == []
    record("odd leftovers tried")
