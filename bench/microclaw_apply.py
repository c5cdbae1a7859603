"""`python -m bench.microclaw_apply [ROWS]`: applying the whole MicroClaw plan at ROWS rows
(100k by default) as a ratio to a plain `SELECT * FROM memories` of the same database.

Generates a schema-43 database (bench seed 7), plans once, then times applying that plan (one
guarded transaction, the journal written ahead) on fresh copies of the database, the median of
a few runs; and the undo of one such run. Prints one JSON object.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.microclaw_plan import NOW, _select_all, _timed
from core.clock import fixed_clock
from core.stores.microclaw.generate import generate
from core.stores.microclaw.paths import database_path
from core.stores.microclaw.store import MicroClawStore

RUNS = 3


def _checkpoint(db: Path) -> None:
    """Fold the WAL into the file, so one file copy is the whole database."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def main(rows: int = 100_000) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        pristine = Path(tmp) / "pristine"
        generate(database_path(pristine), rows, NOW, chats=max(1, rows // 150), seed=7)
        _checkpoint(database_path(pristine))
        plan = MicroClawStore(pristine, fixed_clock(NOW)).plan()
        select = statistics.median(
            _timed(lambda: _select_all(database_path(pristine))) for _ in range(RUNS)
        )
        applied, undone = [], []
        for run in range(RUNS):
            data_dir = Path(tmp) / f"run{run}"
            database_path(data_dir).parent.mkdir(parents=True)
            shutil.copyfile(database_path(pristine), database_path(data_dir))
            store = MicroClawStore(data_dir, fixed_clock(NOW))
            start = time.perf_counter()
            entry = store.apply(plan)
            applied.append(time.perf_counter() - start)
            assert entry is not None
            start = time.perf_counter()
            store.undo(entry.run_id)
            undone.append(time.perf_counter() - start)
    apply_s, undo_s = statistics.median(applied), statistics.median(undone)
    return {
        "rows": rows,
        "operations": len(plan.operations),
        "archived": plan.result.hidden,
        "supersede_edges": plan.result.linked,
        "select_all_s": round(select, 4),
        "apply_s": round(apply_s, 4),
        "apply_vs_select": round(apply_s / select, 2),
        "undo_s": round(undo_s, 4),
        "undo_vs_select": round(undo_s / select, 2),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)))
