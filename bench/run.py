"""The benchmark: generate graphs, measure each figure in fresh processes, write RESULTS.md.

`python -m bench` (everything, ~30 minutes on 2 cores: the sizes, the console, a profile, then the
shapes of bench/shapes.py) or `python -m bench --quick` (a smoke run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.generate import generate
from bench.report import Figures, load_figures, save_figures, write_report
from bench.shapes import measure_shapes
from core.stores.nuggets.graph_file import dump_graph

ROOT = Path(__file__).resolve().parents[1]
TASKS = (
    "parse",
    "parse_gc_off",
    "load",
    "plan_capped",
    "plan_uncapped",
    "apply_uncapped",
    "promotion",
)


def _worker_env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }


def _run_worker(module: str, *args: str) -> dict[str, Any]:
    env = _worker_env()
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _make_home(root: Path, size: int, seed: int) -> tuple[Path, dict[str, Any]]:
    home = root / f"home-{size}"
    path = home / "graph" / "graph.json"
    path.parent.mkdir(parents=True)
    data = dump_graph(generate(size, seed))
    path.write_bytes(data)
    return home, {"notes": size, "bytes": len(data)}


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _measure_size(home: Path, size: int, args: argparse.Namespace, figures: Figures) -> None:
    for task in TASKS:
        for run in range(args.runs):
            _progress(f"  {size:>7} notes: {task} run {run + 1}/{args.runs}")
            figures.add(size, task, _run_worker("bench.measure", task, str(home)))
    if size <= args.oracle_max:
        for run in range(min(args.runs, args.oracle_runs)):
            _progress(f"  {size:>7} notes: oracle beside indexed run {run + 1}")
            figures.add(size, "oracle", _run_worker("bench.measure", "oracle", str(home)))


def _measure_console(home: Path, args: argparse.Namespace, figures: Figures) -> None:
    for run in range(args.runs):
        _progress(f"  console run {run + 1}/{args.runs}")
        found = _run_worker("bench.console", str(home), "3")
        figures.console.append(found)
        if "skipped" in found:
            return


def _profile(home: Path, figures: Figures) -> None:
    try:
        import pyinstrument  # noqa: F401
    except ImportError:
        figures.profile = "not profiled: pyinstrument is not installed (pip install pyinstrument)"
        return
    _progress("  profiling the uncapped plan")
    figures.profile = _run_worker("bench.measure", "profile", str(home))["text"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 1k and 10k notes, 2 runs, oracle at 1k only; "
        "shapes 2, 5 and 8 at 1k, 2k and 4k",
    )
    parser.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1_000, 10_000, 100_000],
        help="comma-separated note counts",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (min and median)")
    parser.add_argument(
        "--oracle-max",
        type=int,
        default=10_000,
        help="largest size at which the pairwise oracle runs beside the pass",
    )
    parser.add_argument("--oracle-runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-console", action="store_true")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument(
        "--shapes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 2, 3, 4, 5, 6, 7, 8],
        help="the graph shapes to measure (bench/generate.py SHAPES_BY_NUMBER)",
    )
    parser.add_argument(
        "--shape-sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[10_000, 30_000, 100_000],
        help="note counts of each shape",
    )
    parser.add_argument("--shape-runs", type=int, default=1, help="runs per shape figure")
    parser.add_argument("--no-shapes", action="store_true")
    parser.add_argument(
        "--no-microclaw", action="store_true", help="skip the MicroClaw store's plan and apply"
    )
    parser.add_argument(
        "--only-shapes",
        action="store_true",
        help="measure the shapes only (not the sizes, console and profile)",
    )
    parser.add_argument(
        "--render",
        type=Path,
        default=None,
        metavar="JSON",
        help="only write the report again from the figures a run saved",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="where to write the report (default bench/RESULTS.md, "
        "bench/RESULTS-quick.md with --quick)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.runs, args.oracle_max = [1_000, 10_000], 2, 1_000
        args.no_profile = True
        args.shapes, args.shape_sizes = [2, 5, 8], [1_000, 2_000, 4_000]
    if args.out is None:
        args.out = ROOT / "bench" / ("RESULTS-quick.md" if args.quick else "RESULTS.md")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.render:
        write_report(load_figures(args.render), args.out)
        return
    started = time.perf_counter()
    figures = Figures(runs=args.runs, seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="nuggets-bench-") as scratch:
        homes = {}
        for size in [] if args.only_shapes else sorted(args.sizes):
            _progress(f"generating {size} notes")
            homes[size], figures.graphs[size] = _make_home(Path(scratch), size, args.seed)
            _measure_size(homes[size], size, args, figures)
        if homes and not args.no_console:
            figures.console_notes = max(homes)
            _measure_console(homes[max(homes)], args, figures)
        if homes and not args.no_profile:
            figures.profile_notes = max(homes)
            _profile(homes[max(homes)], figures)
        if not args.no_microclaw and not args.only_shapes:
            _progress(f"MicroClaw at {max(args.sizes):,} rows")
            figures.microclaw = {
                "plan": _run_worker("bench.microclaw_plan", str(max(args.sizes))),
                "apply": _run_worker("bench.microclaw_apply", str(max(args.sizes))),
            }
        if not args.no_shapes:

            def measured() -> None:
                figures.elapsed = time.perf_counter() - started
                save_figures(figures, args.out.with_suffix(".json"))
                write_report(figures, args.out)

            measure_shapes(
                args.shapes,
                args.shape_sizes,
                args.shape_runs,
                args.seed,
                Path(scratch),
                _run_worker,
                _worker_env(),
                _progress,
                figures.shapes,
                measured,
            )
    figures.elapsed = time.perf_counter() - started
    save_figures(figures, args.out.with_suffix(".json"))
    write_report(figures, args.out)
    _progress(f"wrote {args.out} in {figures.elapsed:.0f} s")


if __name__ == "__main__":
    main()
