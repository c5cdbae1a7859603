"""One measurement in a fresh process: `python -m bench.measure TASK HOME`.

Prints one JSON object: `seconds` (wall time of the measured step, imports and interpreter start
excluded), `peak_rss_mb` (the process's peak resident set so far) and task details. The graph is
`HOME/graph/graph.json`; tasks that write work on a copy of HOME.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.browse.link_graph import groups, orphans
from core.clock import fixed_clock
from core.gc_pause import paused_gc
from core.models import ReflectionResult
from core.notes.vectors import vector_spec
from core.reflection.reflect import plan_pass
from core.stores.nuggets.graph_file import graph_path, read_graph
from core.stores.nuggets.store import NuggetsStore

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
COUNTS = ("inspected", "rewritten", "merged", "hidden", "tagged", "linked")


def _memory(home: Path) -> NuggetsStore:
    return NuggetsStore(home, fixed_clock(NOW))


def _counts(result: ReflectionResult) -> dict[str, int]:
    return {name: getattr(result, name) for name in COUNTS}


def _timed(step: Callable[..., Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = step()
    return time.perf_counter() - start, value


def parse(home: Path, gc_off: bool = False) -> dict[str, Any]:
    """The baseline: read the bytes and json.loads them, nothing else."""
    if gc_off:
        gc.disable()
    seconds, _ = _timed(lambda: json.loads(graph_path(home).read_bytes()))
    return {"seconds": seconds}


def load(home: Path) -> dict[str, Any]:
    seconds, graph = _timed(lambda: read_graph(graph_path(home)))
    return {"seconds": seconds, "notes": len(graph.notes)}


def plan(home: Path, uncapped: bool) -> dict[str, Any]:
    """Memory.plan from the file: load, the pass, the per-note before/after; `vectors` is the
    part of it that gives each changed note its vector, timed again alone afterwards."""
    seconds, made = _timed(lambda: _memory(home).plan(uncapped=uncapped))
    with paused_gc():  # each vector dropped as made: the peak RSS figure stays the plan's
        vectors, _ = _timed(lambda: any(vector_spec(diff.after) is None for diff in made.notes))
    return {
        "seconds": seconds,
        "vectors": vectors,
        "counts": _counts(made.result),
        "operations": len(made.operations),
    }


class _GraphAccess:
    """Counts opens of the graph file (and of swapped-out copies of it) through an audit hook."""

    def __init__(self, path: Path) -> None:
        self.name = path.name
        self.reads = 0
        self.writes = 0
        self.active = False
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.active or event != "open" or not isinstance(args[0], str | bytes | Path):
            return
        name = os.path.basename(os.fsdecode(args[0]))
        if name == self.name or name.startswith(f".{self.name}."):
            mode = args[1] if isinstance(args[1], str) else ""
            writing = any(flag in mode for flag in "wax+") or (
                isinstance(args[2], int) and args[2] & (os.O_WRONLY | os.O_RDWR)
            )
            if writing:
                self.writes += 1
            else:
                self.reads += 1


def apply_uncapped(home: Path) -> dict[str, Any]:
    """Plan the whole graph (not timed), then time applying every operation of it."""
    with tempfile.TemporaryDirectory(prefix="nuggets-bench-") as scratch:
        copy = Path(scratch) / "home"
        shutil.copytree(home / "graph", copy / "graph")
        memory = _memory(copy)
        made = memory.plan(uncapped=True)
        access = _GraphAccess(graph_path(copy))
        access.active = True
        seconds, _ = _timed(lambda: memory.apply(made))
        access.active = False
        return {
            "seconds": seconds,
            "operations": len(made.operations),
            "graph_reads": access.reads,
            "graph_writes": access.writes,
        }


def promotion(home: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="nuggets-bench-") as scratch:
        target = Path(scratch) / "memory" / "MEMORY.md"
        target.parent.mkdir()
        memory = NuggetsStore(home, fixed_clock(NOW), memory_md=target)
        seconds, made = _timed(memory.plan_promotion)
        return {"seconds": seconds, "entries": len(made.entries)}


def graph_lists(home: Path) -> dict[str, Any]:
    """The console's Orphans and Groups tabs: both lists, on a graph already loaded."""
    shelf = _memory(home).shelf()
    seconds, (lonely, linked) = _timed(lambda: (orphans(shelf), groups(shelf)))
    return {"seconds": seconds, "orphans": len(lonely), "groups": len(linked)}


def oracle(home: Path) -> dict[str, Any]:
    """The indexed pass and the pairwise oracle on the same notes, uncapped and capped."""
    from bench.oracle import oracle_pass

    notes = read_graph(graph_path(home)).notes
    found: dict[str, Any] = {}
    for label, uncapped in (("uncapped", True), ("capped", False)):
        fast_s, fast = _timed(lambda u=uncapped: plan_pass(notes, NOW, None, 10, u))
        slow_s, slow = _timed(lambda u=uncapped: oracle_pass(notes, NOW, None, 10, u))
        found[label] = {
            "indexed": fast_s,
            "oracle": slow_s,
            "identical": fast.result == slow.result
            and fast.operations == slow.operations
            and fast.workspace.notes == slow.workspace.notes,
        }
    found["seconds"] = found["uncapped"]["indexed"]
    return found


def profile(home: Path) -> dict[str, Any]:
    """A pyinstrument profile of the uncapped plan (text, trimmed to the frames that matter)."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.002)
    profiler.start()
    seconds, _ = _timed(lambda: _memory(home).plan(uncapped=True))
    profiler.stop()
    return {"seconds": seconds, "text": profiler.output_text(unicode=False, color=False)}


TASKS: dict[str, Callable[[Path], dict[str, Any]]] = {
    "parse": parse,
    "parse_gc_off": lambda home: parse(home, gc_off=True),
    "load": load,
    "plan_capped": lambda home: plan(home, uncapped=False),
    "plan_uncapped": lambda home: plan(home, uncapped=True),
    "apply_uncapped": apply_uncapped,
    "promotion": promotion,
    "graph_lists": graph_lists,
    "oracle": oracle,
    "profile": profile,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.measure")
    parser.add_argument("task", choices=sorted(TASKS))
    parser.add_argument("home", type=Path)
    args = parser.parse_args(argv)
    found = TASKS[args.task](args.home)
    found["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(found))


if __name__ == "__main__":
    main()
