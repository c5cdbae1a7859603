"""The run log (README.md, "Run log"): one JSON line per writing command, and a short report of
the last run.

`<home>/telemetry/memory-log-YYYY-MM-DD.jsonl` (or a directory the operator names, e.g. the
one other memory tools of the agent share) gets one line per run: `timestamp`, `domain`
`memory`, `component` `nuggets-review.<command>`, `event` (`run_completed`, `run_skipped`,
`run_failed`), `run_id`, `status`, `counts`, and `error` on failure. `last-run.md` beside it is
overwritten with what ran, the counts, the warnings and how to undo. Dry runs write neither.

Both files are for a person as much as for a program: every text in them goes through the
inert-text rule (core/safeio/inert_text.py; in the JSON line as \\u escapes). They are written
without ever
following a link (core/safeio/no_follow.py): a file that cannot be written safely is not written,
and
said (docs/RUNS.md, "The run log").

API: `RunRecord` (filled in by a command), `LogPlace`, `log_place(home, chosen, parts)`,
`record_run(place, record, now) -> Logged`, `last_run_text(record, at) -> str`,
`log_file(directory, now) -> Path`.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from core.clock import shown_time, to_iso
from core.errors import NuggetsError
from core.safeio.inert_text import inert_json, one_line
from core.safeio.no_follow import append, locked, open_directory, remove_temp_files, replace

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
    undoes: list[str] = field(default_factory=list)  # the runs `nuggets undo` takes back
    error: str | None = None
    dry: bool = False  # a dry run: nothing is logged

    def add_counts(self, counts: dict[str, int]) -> None:
        self.counts = {**self.counts, **counts}

    def skipped(self, why: str) -> None:
        self.event, self.status, self.summary = "run_skipped", "skipped", why

    def failed(self, error: str) -> None:
        self.event, self.status, self.error = "run_failed", "failed", error


@dataclass(frozen=True)
class LogPlace:
    """Where the run log goes: `base` as the operator named it (followed), then the folders
    `below` it, which are never followed (see core/safeio/no_follow.py)."""

    base: Path
    below: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        return self.base.joinpath(*self.below)


@dataclass
class Logged:
    """What recording a run did: the log file, what it settled, what it could not write."""

    path: Path
    notices: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def log_place(
    home: Path, chosen: Path | None = None, parts: tuple[str, ...] = ("telemetry",)
) -> LogPlace:
    """The directory `chosen` (--telemetry-dir), else the folders `parts` below `home` (the
    store's choice: `telemetry`, or beside its journal)."""
    if chosen is not None:
        return LogPlace(chosen)
    return LogPlace(home, parts)


def log_file(directory: Path, now: datetime) -> Path:
    return directory / f"memory-log-{now.astimezone(UTC):%Y-%m-%d}.jsonl"


def _line(record: RunRecord, at: str, run_id: str) -> bytes:
    doc: dict[str, object] = {
        "timestamp": at,
        "domain": DOMAIN,
        "component": f"{COMPONENT}.{record.command}",
        "event": record.event,
        "run_id": run_id,
        "status": record.status,
        "counts": record.counts,
    }
    if record.error is not None:
        doc["error"] = record.error
    # Controls, bidi and lone surrogates as \u escapes: the same data, nothing a terminal acts on.
    return (inert_json(json.dumps(doc, ensure_ascii=False)) + "\n").encode("utf-8")


def record_run(place: LogPlace, record: RunRecord, now: datetime) -> Logged:
    """Append the run's line and overwrite last-run.md; each file that cannot be written is a
    problem in what is returned, never an exception."""
    at = to_iso(now)
    run_id = (
        record.run_id
        or f"{record.command}-{now.astimezone(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
    )
    logged = Logged(log_file(place.path, now))
    try:
        directory = open_directory(place.base, place.below)
    except (OSError, NuggetsError) as exc:
        logged.problems.append(_why(place.path, exc))
        return logged
    try:
        _attempt(
            logged,
            logged.path,
            lambda: append(directory, logged.path.name, _line(record, at, run_id), logged.path),
        )
        report = place.path / LAST_RUN
        with locked(directory) as ours:  # leftovers are settled only while no run writes one
            if ours:
                logged.notices += remove_temp_files(directory, LAST_RUN)
            text = last_run_text(record, at, run_id).encode("utf-8")
            _attempt(logged, report, lambda: replace(directory, LAST_RUN, text, report))
    finally:
        os.close(directory)
    return logged


def _attempt(logged: Logged, path: Path, write: Callable[[], None]) -> None:
    try:
        write()
    except (OSError, NuggetsError) as exc:
        logged.problems.append(_why(path, exc))


def _why(path: Path, exc: Exception) -> str:
    if isinstance(exc, OSError):
        return f"{path}: {exc.strerror or exc}"
    return str(exc)


def last_run_text(record: RunRecord, at: str, run_id: str | None = None) -> str:
    """The report, every line of it inert (a note id or path may hold anything)."""
    lines = [
        f"# Last nuggets-review run: {record.command}",
        "",
        f"- When: {shown_time(at)}",
        f"- Run: {run_id or record.run_id or '-'}",
        f"- Outcome: {record.event} ({record.status})",
    ]
    if record.summary:
        lines.append(f"- What: {record.summary}")
    if record.counts:
        lines.append("- Counts: " + ", ".join(f"{k} {v}" for k, v in record.counts.items()))
    if record.error:
        lines.append(f"- Error: {record.error}")
    undo = ", then ".join(f"`nuggets undo {run_id}`" for run_id in record.undoes)
    lines.append(f"- Undo: {undo}" if undo else "- Undo: nothing to undo")
    if record.warnings:
        lines += ["", "## Warnings", "", *(f"- {w}" for w in record.warnings)]
    return "\n".join(one_line(line) for line in lines) + "\n"
