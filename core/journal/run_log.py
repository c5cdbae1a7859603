"""The run log (README.md, "Run log"): one JSON line per writing command, and a short report of
the last run.

`<home>/telemetry/memory-log-YYYY-MM-DD.jsonl` (or a directory the operator names, e.g. the
one other memory tools of the agent share) gets one line per run: `timestamp`, `domain`
`memory`, `component` `nuggets-review.<command>`, `event` (`run_completed`, `run_skipped`,
`run_failed`), `run_id`, `status`, `counts`, and `error` on failure. `last-run.md` beside it is
overwritten with what ran, the counts, the warnings and how to undo. Dry runs write neither.

API: `RunRecord` (filled in by a command), `record_run(directory, record, now) -> Path`,
`last_run_text(record, at) -> str`, `telemetry_dir(home, chosen=None) -> Path`,
`log_file(directory, now) -> Path`.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from core.clock import to_iso
from core.safeio.atomic_write import atomic_write

DOMAIN = "memory"
COMPONENT = "nuggets-review"
LAST_RUN = "last-run.md"


@dataclass
class RunRecord:
    command: str
    event: str = "run_completed"
    status: str = "ok"
    run_id: str | None = None  # the journal's run id when the command wrote one
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    summary: str = ""
    undo: str | None = None  # the command that undoes the run
    error: str | None = None
    dry: bool = False  # a dry run: nothing is logged

    def add_counts(self, counts: dict[str, int]) -> None:
        self.counts = {**self.counts, **counts}

    def skipped(self, why: str) -> None:
        self.event, self.status, self.summary = "run_skipped", "skipped", why

    def failed(self, error: str) -> None:
        self.event, self.status, self.error = "run_failed", "failed", error


def telemetry_dir(home: Path, chosen: Path | None = None) -> Path:
    return chosen if chosen is not None else home / "telemetry"


def log_file(directory: Path, now: datetime) -> Path:
    return directory / f"memory-log-{now.astimezone(UTC):%Y-%m-%d}.jsonl"


def _line(record: RunRecord, at: str, run_id: str) -> bytes:
    doc: dict[str, object] = {
        "timestamp": at, "domain": DOMAIN, "component": f"{COMPONENT}.{record.command}",
        "event": record.event, "run_id": run_id, "status": record.status,
        "counts": record.counts,
    }
    if record.error is not None:
        doc["error"] = record.error
    return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")


def record_run(directory: Path, record: RunRecord, now: datetime) -> Path:
    """Append the run's line and overwrite last-run.md; returns the log file."""
    at = to_iso(now)
    run_id = record.run_id or f"{record.command}-{now.astimezone(UTC):%Y%m%dT%H%M%S}-" \
        f"{secrets.token_hex(3)}"
    directory.mkdir(parents=True, exist_ok=True)
    path = log_file(directory, now)
    # One write of one line in append mode: lines of concurrent runs never interleave.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, _line(record, at, run_id))
    finally:
        os.close(fd)
    atomic_write(directory / LAST_RUN, last_run_text(record, at, run_id).encode("utf-8"))
    return path


def last_run_text(record: RunRecord, at: str, run_id: str | None = None) -> str:
    lines = [f"# Last nuggets-review run: {record.command}", "",
             f"- When: {at}", f"- Run: {run_id or record.run_id or '-'}",
             f"- Outcome: {record.event} ({record.status})"]
    if record.summary:
        lines.append(f"- What: {record.summary}")
    if record.counts:
        lines.append("- Counts: " + ", ".join(f"{k} {v}" for k, v in record.counts.items()))
    if record.error:
        lines.append(f"- Error: {record.error}")
    lines.append(f"- Undo: `{record.undo}`" if record.undo else "- Undo: nothing to undo")
    if record.warnings:
        lines += ["", "## Warnings", "", *(f"- {w}" for w in record.warnings)]
    return "\n".join(lines) + "\n"
