"""The purifier's runs, from the shared memory-log (`memory-log-*.jsonl`, component
`memory-purifier.purifier`): one per run id, its last event winning, with the purifier's own
status word and, for a run that did not publish, its reason where the purifier wrote one
(its `last-run.md`, a failure record, the kept staging of an oversized run)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.safeio.open_regular import GRAPH_BYTES, read_regular
from core.stores.purifier import paths
from core.stores.purifier.artifacts import read_json, read_jsonl

FINAL_EVENTS = ("run_completed", "run_failed", "run_skipped")
STAGING = ".staging-purifier"
BATCHES_PER_PASS = 10  # its scoring scripts' --oversized-hard-cap default (no config key sets it)


@dataclass(frozen=True)
class PurifierRun:
    run_id: str
    at: str
    event: str
    status: str
    mode: str
    details: dict[str, Any]
    reason: str = ""  # why it skipped or failed, in the purifier's words

    @property
    def summary(self) -> str:
        d = self.details
        counts = (
            f": {d.get('claims_new', 0)} new claims, {d.get('claims_total', 0)} total, "
            f"{d.get('contradiction_count', 0)} contradictions"
            if "claims_total" in d and self.status == "ok"
            else ""
        )
        return f"{self.mode} {self.status}{counts}" + (
            f" ({self.reason})" if self.reason and not counts else ""
        )


def read_runs(workspace: Path, notices: list[str]) -> list[PurifierRun]:
    """Every run the memory-log holds, oldest first (a run without its end: `started`)."""
    runs: dict[str, PurifierRun] = {}
    root = paths.telemetry_root(workspace)
    files = sorted(root.glob("memory-log-*.jsonl")) if root.is_dir() else []
    for path in files:
        rows, _ = read_jsonl(path, notices)
        for row in rows:
            if row.get("component") != paths.COMPONENT or not isinstance(row.get("run_id"), str):
                continue
            event = str(row.get("event") or "")
            if event not in FINAL_EVENTS and row["run_id"] in runs:
                continue
            details: dict[str, Any] = row["details"] if isinstance(row.get("details"), dict) else {}
            runs[row["run_id"]] = PurifierRun(
                row["run_id"],
                str(row.get("timestamp_utc") or row.get("timestamp") or ""),
                event,
                str(row.get("status") or ""),
                str(row.get("mode") or ""),
                details,
            )
    reasons = run_reasons(workspace, [r.run_id for r in runs.values() if r.status != "ok"])
    return sorted(
        (
            PurifierRun(r.run_id, r.at, r.event, r.status, r.mode, r.details, reasons[r.run_id])
            if reasons.get(r.run_id)
            else r
            for r in runs.values()
        ),
        key=lambda r: r.at,
    )


def run_reasons(workspace: Path, run_ids: list[str]) -> dict[str, str]:
    """Why each of these runs did not publish, from what the purifier kept of it: the kept
    staging of a run over its cluster cap, its failure record, or `last-run.md` (its last run
    only)."""
    said = last_run_reason(read_text(paths.last_run_md(workspace)))
    reasons: dict[str, str] = {}
    for run_id in run_ids:
        oversized = oversized_run(workspace, run_id)
        reasons[run_id] = (
            oversized.line()
            if oversized is not None
            else failure_record_reason(workspace, run_id) or said.get(run_id, "")
        )
    return reasons


def read_text(path: Path) -> str:
    try:
        return read_regular(path, GRAPH_BYTES).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""


def last_run_reason(text: str) -> dict[str, str]:
    """`last-run.md`'s run id and its `Halt reason:` line (none when it wrote none)."""
    run = re.search(r"^- Run ID: `([^`]+)`", text, re.MULTILINE)
    halt = re.search(r"^- Halt reason: (.+)$", text, re.MULTILINE)
    return {run.group(1): halt.group(1).strip()} if run and halt else {}


def failure_record_reason(workspace: Path, run_id: str) -> str:
    """A failed pass's own first error, from its failure record in its locks folder."""
    for path in sorted(paths.locks_dir(workspace).glob(f"purifier-failed-*-{run_id}.json")):
        info = read_json(path, [])
        errors = info.get("errors") or []
        first = str(errors[0])[:160] if isinstance(errors, list) and errors else "no error said"
        return f"its {info.get('pass')} pass failed: {first}"
    return ""


@dataclass(frozen=True)
class Oversized:
    """A run with more clusters than its Pass 2 scores (its batch size × its batch cap)."""

    run_id: str
    clusters: int
    scored: int

    def line(self) -> str:
        return (
            f"{self.clusters} clusters, more than the {self.scored} one run scores "
            f"(limits.max_clusters_per_batch × {BATCHES_PER_PASS}): nothing was published"
        )


def oversized_run(workspace: Path, run_id: str) -> Oversized | None:
    """The run's kept Pass-2 staging when it stopped at its cap (`partialBatches`)."""
    staged = paths.runtime_dir(workspace) / STAGING / run_id / "pass2.json"
    info = read_json(staged, []) if staged.is_file() else {}
    pending = info.get("partialBatches")
    clusters, size = info.get("cluster_count"), info.get("batch_size")
    if not isinstance(pending, dict) or not isinstance(clusters, int):
        return None
    cap = size * BATCHES_PER_PASS if isinstance(size, int) and size > 0 else clusters
    return Oversized(run_id, clusters, min(cap, clusters))
