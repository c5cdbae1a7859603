"""`python -m bench.purifier_read [CLAIMS] [LEDGER]`: opening a generated memory-purifier
workspace (bench/purifier_generate.py; 100,000 claims and 300,000 ledger rows by default) as a
ratio to a plain `json.loads` of every line of its JSONL files.

Times in this process, back to back in each of a few rounds (the machine is shared): the plain
parse of every line of the claims, contradictions and both ledgers; the first page of notes
(`first_notes`, what the console shows while the rest is read); and opening the whole of it as
the console does (a fresh store: its health lines and every note). The times are medians, the
ratio the median of each round's ratio; each also as CPU time of this process (steadier when
other programs share the machine). Prints one JSON object."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bench.purifier_generate import generate
from core.clock import fixed_clock
from core.stores.purifier import paths
from core.stores.purifier.store import PurifierStore

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
RUNS = 3
PAGE = 200  # the console's first page (nuggets_tui/screens/main.py, FIRST_PAGE)
FILES = (paths.CLAIMS, paths.CONTRADICTIONS, paths.REJECTED, paths.DEFERRED)


def _timed(step: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds."""
    start, cpu = time.perf_counter(), time.process_time()
    step()
    return time.perf_counter() - start, time.process_time() - cpu


def plain_parse(workspace: Path) -> int:
    """Every line of the JSONL files through `json.loads`, nothing else."""
    parsed = 0
    for name in FILES:
        for line in (paths.runtime_dir(workspace) / name).read_bytes().splitlines():
            json.loads(line)
            parsed += 1
    return parsed


def open_whole(workspace: Path) -> int:
    """What the console does to open it: settle and say the health lines, then every note."""
    store = PurifierStore(workspace, fixed_clock(NOW))
    store.recover()
    return len(store.shelf().graph.notes)


def first_page(workspace: Path) -> int:
    return len(PurifierStore(workspace, fixed_clock(NOW)).first_notes(PAGE))


def main(claims: int = 100_000, ledger: int = 300_000) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        made = generate(workspace, claims, ledger)
        size = sum((paths.runtime_dir(workspace) / name).stat().st_size for name in FILES)
        rounds = [
            (
                _timed(lambda: plain_parse(workspace)),
                _timed(lambda: first_page(workspace)),
                _timed(lambda: open_whole(workspace)),
            )
            for _ in range(RUNS)
        ]
        notes = open_whole(workspace)
    figures: dict[str, float] = {**made, "jsonl_mb": round(size / 1e6, 1), "notes": notes}
    for clock, suffix in ((0, ""), (1, "_cpu")):
        plain, first, whole = (statistics.median(r[k][clock] for r in rounds) for k in range(3))
        figures |= {
            f"plain_json_loads_s{suffix}": round(plain, 3),
            f"first_page_s{suffix}": round(first, 4),
            f"open_whole_s{suffix}": round(whole, 3),
            f"whole_vs_plain{suffix}": round(
                statistics.median(r[2][clock] / r[0][clock] for r in rounds), 2
            ),
        }
    return figures


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(main(*sizes)))
