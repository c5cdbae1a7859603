"""`python -m bench.microclaw_plan [ROWS]`: the MicroClaw plan at ROWS rows (100k by default)
as a ratio to a plain `SELECT * FROM memories` of the same database.

Generates a schema-43 database (bench seed 7) in a temporary directory, then times in this
process the plain select (all rows fetched), reading the rows as notes, and the whole plan
(read + rules 1-4), back to back in each of a few rounds: the times are medians, the ratios the
medians of each round's ratios (the machine is shared). Prints one JSON object.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from core.clock import fixed_clock
from core.stores.microclaw.generate import generate
from core.stores.microclaw.paths import database_path
from core.stores.microclaw.store import MicroClawStore

NOW = datetime(2026, 11, 24, 9, tzinfo=UTC)
RUNS = 5


def _timed(step: Callable[[], object]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def _select_all(db: Path) -> None:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        conn.execute("SELECT * FROM memories").fetchall()
    finally:
        conn.close()


def main(rows: int = 100_000) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "mc"
        made = generate(database_path(data_dir), rows, NOW, chats=max(1, rows // 150), seed=7)
        store = MicroClawStore(data_dir, fixed_clock(NOW))
        db = database_path(data_dir)
        rounds = []  # each round times the three back to back: the ratios hold under load
        for _ in range(RUNS):
            rounds.append((_timed(lambda: _select_all(db)), _timed(store.read), _timed(store.plan)))
        plan = store.plan()
    select, read, planned = (statistics.median(r[k] for r in rounds) for k in range(3))
    ratio = statistics.median(r[2] / r[0] for r in rounds)
    read_ratio = statistics.median(r[1] / r[0] for r in rounds)
    return {
        "rows": rows,
        **{k: v for k, v in made.items() if k != "rows"},
        "select_all_s": round(select, 4),
        "read_as_notes_s": round(read, 4),
        "plan_s": round(planned, 4),
        "plan_vs_select": round(ratio, 2),
        "read_vs_select": round(read_ratio, 2),
        "archived": plan.result.hidden,
        "supersede_edges": plan.result.linked,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)))
