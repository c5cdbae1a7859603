"""Letting a group stand writes conflicts-settled.json like any file of ours: a write killed at
any step leaves `.conflicts-settled.json.*.nuggets-swap` (or part) files beside it, and the
next open settles them as the graph's are, saying so, in both stores; kills one after another
leave nothing piling up."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.journal.entries import journal_dir
from core.review.contradictions import Group, find_by_rules, find_contradictions
from core.review.decisions import read_settled, settle_both, settled_path
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.store import NuggetsStore
from tests.support.conflict_builders import answers_memory
from tests.support.figures import record
from tests.support.microclaw_rows import insert, make_db
from tests.support.note_builders import make_home
from tests.support.reliability_support import CLOCK, run_in_child, traced_steps

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _leftovers(directory: Path) -> list[str]:
    return sorted(
        p.name
        for p in directory.iterdir()
        if p.name.startswith(".conflicts-settled.json.")
        or p.name.endswith(".pending")
        or p.name.endswith(".nuggets-tmp")
    )


def _nuggets(tmp_path: Path) -> tuple[Any, Group, dict[str, Any]]:
    home = make_home(tmp_path, answers_memory())
    memory = NuggetsStore(home, CLOCK)
    notes = memory.read().notes
    [group] = find_contradictions(notes)
    return memory, group, {n["id"]: n for n in notes}


def _microclaw(tmp_path: Path) -> tuple[Any, Group, dict[str, Any]]:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    for text in ("db port is 5432", "db port is 6543"):
        insert(conn, text, confidence=0.9)
    conn.commit()
    conn.close()
    store = MicroClawStore(db.parent.parent)
    notes = store.read().notes
    [group] = find_by_rules(notes, store.topic_rules())
    return store, group, {n["id"]: n for n in notes}


STORES: dict[str, Callable[[Path], tuple[Any, Group, dict[str, Any]]]] = {
    "Nuggets": _nuggets,
    "MicroClaw": _microclaw,
}


def _letting_stand(store: Any, group: Group, notes: dict[str, Any]) -> Callable[[], None]:
    def let_stand() -> None:
        settle_both(store, group, notes)

    return let_stand


def _steps(store: Any, group: Group, notes: dict[str, Any]) -> list[str]:
    """The steps of letting the group stand (traced in a child, which writes it: undone)."""
    steps = traced_steps(_letting_stand(store, group, notes))
    store.undo(store.log()[0].run_id)
    return steps


@pytest.mark.parametrize("system", list(STORES))
def test_every_kill_of_both_stand_is_settled_on_the_next_open(tmp_path: Path, system: str) -> None:
    store, group, notes = STORES[system](tmp_path)
    folder = settled_path(store.journal_home).parent
    steps = _steps(store, group, notes)
    assert "new version ready" in steps
    for k in range(1, len(steps) + 1):
        outcome = run_in_child(_letting_stand(store, group, notes), crash_at=k)
        assert outcome.killed, (k, steps[k - 1])
        left = _leftovers(folder)
        messages = store.startup_messages()
        assert _leftovers(folder) == [] and _leftovers(journal_dir(store.journal_home)) == []
        for name in left:  # each one named by what settled it
            assert any(name in m or "journal entry" in m for m in messages), (name, messages)
        path = settled_path(store.journal_home)
        if path.exists():  # old or new, never a mix: it reads
            json.loads(path.read_text())
        newest = store.log()[0].kind  # the run journaled iff it landed
        assert (newest == "decide") == bool(read_settled(store.journal_home))
        if newest == "decide":  # landed: undo it, so the next kill writes again
            store.undo(store.log()[0].run_id)
            store.startup_messages()
        record("kills while letting a group stand, settled")


@pytest.mark.parametrize("system", list(STORES))
def test_swap_files_left_by_kills_do_not_pile_up(tmp_path: Path, system: str) -> None:
    store, group, notes = STORES[system](tmp_path)
    steps = _steps(store, group, notes)
    ready = steps.index("new version ready") + 1
    folder = settled_path(store.journal_home).parent
    for _ in range(3):
        assert run_in_child(_letting_stand(store, group, notes), ready).killed
        swaps = [n for n in _leftovers(folder) if n.endswith(".nuggets-swap")]
        assert len(swaps) == 1, swaps
        messages = store.startup_messages()
        assert any(swaps[0] in m and "removed" in m for m in messages), messages
        assert _leftovers(folder) == []
        record("kills while letting a group stand, settled")
