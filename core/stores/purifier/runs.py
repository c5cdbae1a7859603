"""The purifier's runs, from the shared memory-log (`memory-log-*.jsonl`, component
`memory-purifier.purifier`): one per run id, its last event winning."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.stores.purifier import paths
from core.stores.purifier.artifacts import read_jsonl

FINAL_EVENTS = ("run_completed", "run_failed", "run_skipped")


@dataclass(frozen=True)
class PurifierRun:
    run_id: str
    at: str
    event: str
    status: str
    mode: str
    details: dict[str, Any]

    @property
    def summary(self) -> str:
        d = self.details
        counts = (
            f": {d.get('claims_new', 0)} new claims, {d.get('claims_total', 0)} total, "
            f"{d.get('contradiction_count', 0)} contradictions"
            if "claims_total" in d and self.status == "ok"
            else ""
        )
        reason = d.get("halt_reason") or d.get("skip_reason") or d.get("error") or ""
        return f"{self.mode} {self.status}{counts}" + (
            f" ({reason})" if reason and not counts else ""
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
    return sorted(runs.values(), key=lambda r: r.at)
