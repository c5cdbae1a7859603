"""The bot keeps writing microclaw.db from another process (its own connection, busy timeout)
while we apply: none of its rows is lost or deleted, a plan it made stale is refused whole, the
one-shot apply plans again and lands; a run killed at any step is settled on the next open."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.errors import GraphError, StalePlanError, UndoConflictError
from core.safeio import crashpoints
from core.settings import Settings
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_rows import BOT, insert, make_db, plan_for, rows
from tests.support.paths import REPO

ROOT = REPO


def bot_db(tmp_path: Path, stale: int = 40) -> Path:
    """A data dir whose rows are half stale by rule 1 (confidence 0.2, seen long ago)."""
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    for n in range(stale * 2):
        insert(
            conn,
            f"fact {n} about the project",
            chat_id=None if n % 3 else 7,
            confidence=0.2 if n % 2 else 0.9,
        )
    conn.commit()
    conn.close()
    return db


def count(db: Path) -> int:
    conn = sqlite3.connect(db, timeout=5)
    try:
        return conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
    finally:
        conn.close()


TURNS = 6


def test_the_bot_writing_meanwhile_loses_nothing(tmp_path: Path) -> None:
    db = bot_db(tmp_path)
    store = MicroClawStore(
        db.parent.parent, busy_timeout=5.0, settings=Settings.of(journal_keep=100_000)
    )
    initial = set(rows(db))
    stop = tmp_path / "stop"
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT, str(db), str(stop)], stdout=subprocess.PIPE, text=True
    )
    while count(db) == len(initial):  # the bot has started writing
        time.sleep(0.01)
    seen_counts = [count(db)]
    counts = dict.fromkeys(("landed", "refused", "one-shot", "gave up", "undo conflict"), 0)
    for turn in range(TURNS):
        plan = store.plan()  # reviewed by a person: applied as planned, or refused
        time.sleep(0.02)
        try:
            counts["landed"] += store.apply(plan) is not None
        except StalePlanError:
            counts["refused"] += 1
        seen_counts.append(count(db))
        try:
            counts["one-shot"] += store.reflect()[1] is not None
        except StalePlanError:  # the bot kept it stale 8 times running: said, nothing written
            counts["gave up"] += 1
        seen_counts.append(count(db))
        newest = store.log()[0] if store.log() else None
        if turn % 2 == 0 and newest is not None and newest.kind == "reflect":
            try:
                store.undo(newest.run_id)  # undo lands between the bot's writes too
            except UndoConflictError:  # the bot edited one of its rows since: left as is
                counts["undo conflict"] += 1
    stop.touch()
    report = __import__("json").loads(bot.communicate()[0])
    final = rows(db)
    assert seen_counts == sorted(seen_counts)  # the row count never drops
    assert initial | set(report["inserted"]) == set(final)  # no row lost, none deleted
    for row_id, content in report["written"].items():
        assert final[int(row_id)]["content"] == content  # the bot's edits all survive
    log = store.log()
    undone = {h.undoes for h in log if h.undoes}
    by_us = {
        int(i[3:])
        for h in log
        if h.kind == "reflect"
        for i, image in store.run(h.run_id).after.items()
        if image["hidden"]
    }
    standing = {
        int(i[3:])
        for h in log
        if h.kind == "reflect" and h.run_id not in undone
        for i, image in store.run(h.run_id).after.items()
        if image["hidden"]
    }
    now_archived = {i for i, r in final.items() if r["is_archived"]}
    assert standing <= now_archived <= by_us  # archived exactly what our standing runs did
    assert undone or counts["undo conflict"], counts  # undo tried while the bot wrote
    assert counts["landed"] + counts["one-shot"] >= 1, counts
    assert not store.recover()


def test_a_plan_the_bot_made_stale_is_refused_whole(tmp_path: Path) -> None:
    db = bot_db(tmp_path)
    store = MicroClawStore(db.parent.parent)
    plan = store.plan()
    victim = plan.notes[-1].note_id
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=5);"
            'c.execute("UPDATE memories SET confidence = 0.25 WHERE id = ?",'
            " (int(sys.argv[2]),)); c.commit()",
            str(db),
            victim[3:],
        ],
        check=True,
    )
    before = rows(db)
    with pytest.raises(StalePlanError, match=victim):
        store.apply(plan)
    assert rows(db) == before and store.log() == []
    plan, entry = store.reflect()  # the one shot plans again and lands
    assert entry is not None and len(entry.after) == len(plan.operations)


def test_a_bot_holding_the_database_past_the_busy_timeout_refuses_cleanly(tmp_path: Path) -> None:
    db = bot_db(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1],"
            " isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True);"
            " time.sleep(3); c.execute('ROLLBACK')",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    store = MicroClawStore(db.parent.parent, busy_timeout=0.2)
    plan = store.plan()
    before = rows(db)
    with pytest.raises(GraphError, match="locked"):
        store.apply(plan)
    holder.wait()
    assert rows(db) == before and store.log() == [] and not store.recover()
    assert store.apply(plan) is not None  # once the bot lets go, the same plan applies


APPLY = r"""
import sys
sys.path.insert(0, sys.argv[2])
from tests.support.microclaw_rows import plan_for
from core.stores.microclaw.store import MicroClawStore
from pathlib import Path
db = Path(sys.argv[1])
store = MicroClawStore(db.parent.parent)
{action}
"""

ACTIONS = {
    "apply": "store.apply(plan_for(db, archive=(1, 3), links=((3, 5),)))",
    "unhide": "store.unhide(['mc-2'])",
    "undo": "store.undo(store.log()[0].run_id)",
}


def _steps(db: Path, action: str) -> list[str]:
    """The crash points an action passes, traced in this process on a copy."""
    copy = db.parent.parent.parent / "trace" / "runtime" / "microclaw.db"
    copy.parent.mkdir(parents=True)
    src = sqlite3.connect(db)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    _prepare(copy, action)
    trace = crashpoints.trace()
    try:
        exec(
            ACTIONS[action],
            {"store": MicroClawStore(copy.parent.parent), "db": copy, "plan_for": plan_for},
        )
    finally:
        crashpoints.reset()
    return list(trace)


def _prepare(db: Path, action: str) -> None:
    store = MicroClawStore(db.parent.parent)
    if action in ("unhide", "undo"):
        store.apply(plan_for(db, archive=(2,)))


@pytest.mark.slow
@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_a_run_killed_at_any_step_is_settled_on_the_next_open(tmp_path: Path, action: str) -> None:
    steps = _steps(make_db(tmp_path / "t" / "runtime" / "microclaw.db"), action)
    assert "db committed" in steps and "journal entry committed" in steps
    for n in range(1, len(steps) + 1):
        db = make_db(tmp_path / f"{action}{n}" / "runtime" / "microclaw.db")
        _prepare(db, action)
        store = MicroClawStore(db.parent.parent)
        before, runs_before = rows(db), len(store.log())
        child = subprocess.run(
            [sys.executable, "-c", APPLY.replace("{action}", ACTIONS[action]), str(db), str(ROOT)],
            env={**os.environ, crashpoints.CRASH_ENV: str(n)},
            cwd=ROOT,
        )
        assert child.returncode == -9, (action, n, steps[n - 1])
        messages = MicroClawStore(db.parent.parent).recover()
        after, log = rows(db), store.log()
        reflections = db.parent / "nuggets-review" / "reflections"
        assert not list(reflections.glob(".*")), messages  # nothing pending, nothing half-made
        if after == before:  # the transaction never committed: no run recorded
            assert len(log) == runs_before, (steps[n - 1], messages)
        else:  # it committed: exactly one run recorded, and it undoes cleanly
            assert len(log) == runs_before + 1, (steps[n - 1], messages)
            store.undo(log[0].run_id)
            assert rows(db) == before
        assert steps.index("db committed") < n or after == before
