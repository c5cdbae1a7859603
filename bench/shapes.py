"""Every shape of memory at three sizes (issue: linear at every shape).

For each shape of `generate.SHAPES_BY_NUMBER` and each size, in fresh processes: `json.load` of
the graph file (the baseline), the uncapped plan from the file (what the console's `c` computes,
plus reading the file), the capped dry run as a command (`nuggets reflect`, the whole process
timed from outside: interpreter start, imports, reading and checking, planning, printing),
applying the uncapped plan, and the console's orphans and groups. Each figure is reported as a
ratio to `json.load` of the same file measured in the same run, with the growth exponent of the
uncapped plan fitted over the sizes (least squares on log time against log notes).
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.generate import SHAPES_BY_NUMBER, generate
from core.stores.nuggets.graph_file import dump_graph

TASKS = ("parse", "plan_uncapped", "apply_uncapped", "graph_lists")
COMMAND = "reflect_command"
# The targets of the issue, as ratios to json.load of the same file (the exponent apart).
EXPONENT_LIMIT = 1.1
LIMITS = {"plan_uncapped": 5.0, COMMAND: 2.5, "apply_uncapped": 4.0}
LISTS_LIMIT_S = 1.0
NOW = "2026-11-01T09:00:00Z"


def make_home(root: Path, shape: int, size: int, seed: int) -> tuple[Path, int]:
    home = root / f"shape{shape}-{size}"
    path = home / "graph" / "graph.json"
    path.parent.mkdir(parents=True)
    data = dump_graph(generate(size, seed, SHAPES_BY_NUMBER[shape]))
    path.write_bytes(data)
    return home, len(data)


def command_seconds(home: Path, env: dict[str, str]) -> dict[str, Any]:
    """`nuggets reflect` (the capped dry run) as a person runs it, timed from outside."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "nuggets_tui.cli", "--home", str(home), "reflect"],
        capture_output=True,
        env={**env, "NUGGETS_NOW": NOW},
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"nuggets reflect failed:\n{done.stderr.decode()[-3000:]}")
    return {"seconds": seconds}


def measure_shapes(
    shapes: list[int],
    sizes: list[int],
    runs: int,
    seed: int,
    scratch: Path,
    worker: Callable[..., dict[str, Any]],
    env: dict[str, str],
    progress: Callable[[str], None],
    found: dict[str, Any],
    measured: Callable[[], None],
) -> None:
    """Fills `found` as {shape: {size: {"bytes": n, task: [seconds of each run]}}} (keys as
    strings, for JSON), calling `measured` after each size so a cut-short run keeps its
    figures."""
    for shape in shapes:
        for size in sizes:
            progress(f"shape {shape}, {size} notes: generating")
            home, size_bytes = make_home(scratch, shape, size, seed)
            row: dict[str, Any] = {"bytes": size_bytes}
            for run in range(runs):
                for task in (*TASKS, COMMAND):
                    progress(f"shape {shape}, {size} notes: {task} run {run + 1}/{runs}")
                    got = (
                        command_seconds(home, env)
                        if task == COMMAND
                        else worker("bench.measure", task, str(home))
                    )
                    row.setdefault(task, []).append(got["seconds"])
                    if "vectors" in got:
                        row.setdefault(f"{task}_vectors", []).append(got["vectors"])
            found.setdefault(str(shape), {})[str(size)] = row
            shutil.rmtree(home)
            measured()


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def exponent(sizes: list[int], seconds: list[float]) -> float | None:
    """The slope of log(seconds) against log(sizes), least squares."""
    if len(sizes) < 2 or min(seconds) <= 0:
        return None
    xs, ys = [math.log(s) for s in sizes], [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def _mark(met: bool) -> str:
    return "" if met else " ✗"


# What dominates where a shape misses a target, from profiles of this code (cProfile, 10k notes).
DOMINATES = [
    "Where the figures miss, from pyinstrument profiles of this code at 100k notes (shape 3, "
    "the worst; the work counted by `tests/engine/test_linear_work.py` grows linearly on every "
    "shape, what remains is per-note cost):",
    "- *uncapped*: the pass's own per-note work (see the profile of shape 1 above: phase 2 "
    "normalize/tokenize/retag and recording each change, the merge phase's token sets and "
    "indexes, the link phase), then the vectors of the changed notes (the *vectors* figure, "
    "18-38 us a note on this machine, 14-26% of the plan).",
    "- *command* (shape 3, 17.5 s profiled): reading and checking the file 9.0 s (the json "
    "decoder 3.6 s, recording repeated keys through `object_pairs_hook` 1.5 s, the check of "
    "every note `core/notes/checks.py` 2.9 s), then the capped pass 8.4 s, of which 5.2 s index "
    "the one merge group holding every note (`_MergeGroups.index`); interpreter start and "
    "imports ~0.6 s (pydantic and the models ~0.25 s; Textual is not imported).",
    "- *apply* (shape 3, 19.3 s profiled): the indented writer in Python "
    "`core/notes/json_writer.py` "
    "9.8 s (51%), the journal entry 6.6 s (34%: the json module's C encoder on 2 x 96k note "
    "images 4.0 s, UTF-8 0.5 s, the pydantic dump of the operations 0.4 s, writing 0.85 s); "
    "no second parse, no replay and no vector recompute any more (the plan's snapshot and "
    "after-images are taken).",
    "- shape (7): per-byte text work on 10 KB notes (normalize, tokens, token masks, the prefix "
    "order of long sets): ~3 ms a note, against ~0.1 ms for `json.load` to read it.",
    "- *lists* (shape 3, 2.4 s profiled with another process on the second core): orphans "
    "1.3 s (the pairs of every link 0.4 s, the set of linked ends 0.5 s, the visible view "
    "0.3 s, built once and shared with groups), groups 1.1 s (the link ends 0.4 s, the "
    "union-find 0.3 s); the figures swing with the machine's load more than the others.",
]


def shapes_section(shapes: dict[str, Any]) -> list[str]:
    lines = ["## Shapes", ""]
    if not shapes:
        return [*lines, "Not run (`--no-shapes`)."]
    lines += [
        "Generated by `bench/generate.py` with a `Shape` of parameters; the engine has no case "
        "for any of them. Medians over the runs; each ratio is to `json.load` of the same file "
        "measured in the same run, in a fresh process. *uncapped* is `Memory.plan(uncapped=True)`"
        " from the file (the console's `c` plans the same on notes it already holds, so it costs "
        "less), *vectors* the part of it that gives every changed note the agent's vector "
        "(`core/notes/vectors.py`, timed again alone); *command* is `nuggets reflect` (the capped "
        "dry run) timed from outside, the whole process; *apply* applies the uncapped plan "
        "(planning not timed); *lists* is the "
        "console's Orphans and Groups computed on a loaded graph (their tables lay out a page). "
        f"Targets: exponent ≤ {EXPONENT_LIMIT}; at the largest size uncapped ≤ "
        f"{LIMITS['plan_uncapped']:g}×, command ≤ {LIMITS[COMMAND]:g}×, apply ≤ "
        f"{LIMITS['apply_uncapped']:g}×, lists ≤ {LISTS_LIMIT_S:g} s; ✗ marks a miss. The "
        "machine is shared (2 cores, several people): single figures are noisy.",
        "",
        "*exponent* is that of the uncapped plan; *json.load exponent* that of the baseline "
        "itself over the same sizes: above 1 the machine (memory, caches, the other users) makes "
        "large files cost more per byte for every step alike.",
        "",
        "| shape | notes | file | json.load | uncapped | command | apply | lists | exponent | "
        "json.load exponent |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for shape, by_size in shapes.items():
        sizes = sorted(map(int, by_size))
        fitted = exponent(sizes, [_median(by_size[str(s)]["plan_uncapped"]) for s in sizes])
        baseline = exponent(sizes, [_median(by_size[str(s)]["parse"]) for s in sizes])
        for size in sizes:
            row = by_size[str(size)]
            base = _median(row["parse"])
            last = size == sizes[-1]
            cells = []
            for task in ("plan_uncapped", COMMAND, "apply_uncapped"):
                ratio = _median(row[task]) / base
                vectors = row.get(f"{task}_vectors")
                part = f"; vectors {_median(vectors):.2f} s" if vectors else ""
                cells.append(
                    f"{_median(row[task]):.2f} s ({ratio:.1f}×{part})"
                    f"{_mark(not last or ratio <= LIMITS[task])}"
                )
            lists = _median(row["graph_lists"])
            cells.append(f"{lists:.2f} s{_mark(not last or lists <= LISTS_LIMIT_S)}")
            slope = (
                ""
                if not last or fitted is None
                else (f"{fitted:.2f}{_mark(fitted <= EXPONENT_LIMIT)}")
            )
            base_slope = "" if not last or baseline is None else f"{baseline:.2f}"
            label = f"({shape}) {SHAPES_BY_NUMBER[int(shape)].label}" if size == sizes[0] else ""
            lines.append(
                f"| {label} | {size:,} | {row['bytes'] / 1e6:.0f} MB | {base:.2f} s | "
                + " | ".join(cells)
                + f" | {slope} | {base_slope} |"
            )
    return [*lines, "", *DOMINATES]
