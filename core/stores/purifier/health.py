"""What the purifier gets wrong silently, one line each with what to do (docs/PURIFIER.md,
"Runs and health"): given what was read and the time, and the small files the purifier keeps
of a run that did not publish (its locks, its kept staging's scope and Pass-2 counts), read
here without writing."""

from __future__ import annotations

import os
import shlex
from datetime import datetime
from pathlib import Path
from typing import Any

from core.clock import shown_time
from core.safeio.inert_text import one_line
from core.stores.purifier import paths
from core.stores.purifier.artifacts import Artifacts, read_json
from core.stores.purifier.notes import newest_candidates
from core.stores.purifier.runs import (
    BATCHES_PER_PASS,
    STAGING,
    Oversized,
    PurifierRun,
    oversized_run,
)

STALE_LOCK_HOURS = 2
FAILED = ("failed", "partial_failure")
WARNING_CHARS = 400


def health_lines(
    artifacts: Artifacts, runs: list[PurifierRun], workspace: Path, now: datetime
) -> list[str]:
    manifest = artifacts.manifest
    failed = _failed_runs(manifest, runs)
    oversized = _oversized_run(workspace, manifest, failed)
    lines = [
        *_dropped_changes(workspace, manifest, runs, failed, oversized),
        *_oversized(oversized),
        *_manifest_attempt(manifest, runs),
        *_claim_stats(manifest, artifacts),
        *_reappended(artifacts),
        *manifest_warnings(manifest),
    ]
    lines += _locks(paths.locks_dir(workspace), workspace, now)
    return lines


def ours(workspace: Path, args: str) -> str:
    """Our own command for a workspace, the one a health line says to run first."""
    return f"nuggets --purifier {shlex.quote(str(workspace))} {args}"


def _failed_runs(manifest: dict[str, Any], runs: list[PurifierRun]) -> list[PurifierRun]:
    """The failed and partial runs, oldest first: the memory-log's, and the manifest's attempt
    when the log does not hold it."""
    failed = [r for r in runs if r.status in FAILED]
    run_id = str(manifest.get("runId") or "")
    if manifest.get("status") in FAILED and run_id not in {r.run_id for r in runs}:
        at = str(manifest.get("finishedAt_utc") or manifest.get("finishedAt") or "")
        failed.append(PurifierRun(run_id, at, "", str(manifest["status"]), "", {}))
    return failed


def _dropped_changes(
    workspace: Path,
    manifest: dict[str, Any],
    runs: list[PurifierRun],
    failed: list[PurifierRun],
    oversized: Oversized | None,
) -> list[str]:
    """A failed run recorded its sources' new hashes, so incremental runs skip those changes;
    it stays said until a published reconciliation after it, or a published incremental run
    that processed every file it dropped (its kept staging scope.json names them)."""
    dropped = [
        run
        for run in failed
        if (oversized is None or run.run_id != oversized.run_id)
        and not _recovered(run, _dropped_paths(workspace, run.run_id), runs, manifest)
    ]
    if not dropped:
        return []
    last = dropped[-1]
    files = sorted({p for run in dropped for p in _dropped_paths(workspace, run.run_id) or []})
    what = f"its changes to {', '.join(files)} are" if files else "its sources' changes are"
    return [
        f"run {last.run_id} failed but the manifest already records its sources' new hashes: "
        f"{what} still unprocessed (incremental runs report 'no changed inputs' for them, "
        "and a later incremental run does not bring them back); run a reconciliation: "
        f"{ours(workspace, 'reflect --apply --reconcile')} "
        "(the purifier's own: run_purifier.py --mode reconciliation)"
    ]


def manifest_warnings(manifest: dict[str, Any]) -> list[str]:
    """The purifier's own warnings in its manifest, one line each in its words: codes with
    their fields (upgrade_acknowledged, backend_deprecated_default, config_defaulted…) and
    plain strings (supersession_chain_warning: …), mixed in one list."""
    lines = []
    warnings = manifest.get("warnings")
    for warning in warnings if isinstance(warnings, list) else []:
        if isinstance(warning, dict):
            fields = ", ".join(
                f"{k} {v}" for k, v in warning.items() if k not in ("code", "reason")
            )
            said = str(warning.get("code") or "warning") + (f" ({fields})" if fields else "")
            said += f": {warning['reason']}" if warning.get("reason") else ""
        else:
            said = str(warning)
        said = one_line(said)
        lines.append(
            f"the purifier's run {manifest.get('runId')} warns: "
            + (said if len(said) <= WARNING_CHARS else said[: WARNING_CHARS - 1] + "…")
        )
    return lines


def _has_key(value: object, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


def _dropped_paths(workspace: Path, run_id: str) -> list[str] | None:
    """The files a failed run had in scope (its kept staging scope.json); None: unknown."""
    scope = read_json(paths.runtime_dir(workspace) / STAGING / run_id / "scope.json", [])
    rows = scope.get("scope")
    if not isinstance(rows, list):
        return None
    return [str(r["path"]) for r in rows if isinstance(r, dict) and isinstance(r.get("path"), str)]


def _recovered(
    run: PurifierRun,
    dropped: list[str] | None,
    runs: list[PurifierRun],
    manifest: dict[str, Any],
) -> bool:
    later = [r for r in runs if r.status == "ok" and r.at > run.at]
    if any(r.mode == "reconciliation" for r in later):
        return True
    if dropped is None or not later:
        return False
    processed = set()
    for r in later:  # the manifest keeps the segments of its own run only
        if r.run_id == manifest.get("runId") and manifest.get("publishCommitted"):
            processed |= {str(p) for p in manifest.get("processedSegments") or []}
    return set(dropped) <= processed


def _oversized_run(
    workspace: Path, manifest: dict[str, Any], failed: list[PurifierRun]
) -> Oversized | None:
    """The last failed run when it stopped at its cluster cap: its kept Pass-2 staging, else
    the manifest's signature of it (a purifier pass failed with no errors and no record)."""
    if not failed:
        return None
    last = failed[-1]
    found = oversized_run(workspace, last.run_id)
    if found is not None or manifest.get("runId") != last.run_id:
        return found
    signature = {"pass": "purifier", "errors": None, "failed_record_path": None}
    for failure in manifest.get("partialFailures") or []:
        if isinstance(failure, dict) and all(failure.get(k, 0) == v for k, v in signature.items()):
            return Oversized(last.run_id, 0, 0)
    return None


def _oversized(found: Oversized | None) -> list[str]:
    if found is None:
        return []
    counted = (
        f"{found.clusters} clusters, more than the {found.scored} one run scores"
        if found.clusters
        else "more clusters than one run scores"
    )
    raise_to = f" (to at least {-(-found.clusters // BATCHES_PER_PASS)})" if found.clusters else ""
    return [
        f"run {found.run_id} had {counted} (limits.max_clusters_per_batch × {BATCHES_PER_PASS}): "
        "every run, a reconciliation too, ends partial_failure and publishes nothing; raise "
        f"limits.max_clusters_per_batch in the purifier's config{raise_to}, or split the sources"
    ]


def _manifest_attempt(manifest: dict[str, Any], runs: list[PurifierRun]) -> list[str]:
    status = manifest.get("status")
    if not manifest or status == "ok":
        return []
    published = [r for r in runs if r.status == "ok"]
    last = (
        f"the last published run is {published[-1].run_id} ({shown_time(published[-1].at)})"
        if published
        else "no published run is in the memory-log"
    )
    return [
        f"the manifest describes run {manifest.get('runId')} ({status}), not the last "
        f"published run ({last}): its counts and warnings are that attempt's; the claims "
        "shown are the files'"
    ]


def _claim_stats(manifest: dict[str, Any], artifacts: Artifacts) -> list[str]:
    stats = manifest.get("claimStats")
    if not isinstance(stats, dict) or not artifacts.claims:
        return []
    counted = sum(v for v in stats.values() if isinstance(v, int))
    if counted == len(artifacts.claims):
        return []
    return [
        f"the manifest's claimStats counts {counted} claims (only its run's), the claims "
        f"file holds {len(artifacts.claims)}: the counts here come from the claims file"
    ]


def _reappended(artifacts: Artifacts) -> list[str]:
    rows = len(
        [
            r
            for r in artifacts.rejected + artifacts.deferred
            if isinstance(r.get("candidate_id"), str)
        ]
    )
    distinct = len(newest_candidates(artifacts))
    if rows <= distinct:
        return []
    return [
        f"the rejected/deferred ledgers hold {rows} rows for {distinct} candidates "
        "(reconciliations re-append them): each is shown once, its newest row; nothing "
        "to do"
    ]


def _locks(locks: Path, workspace: Path, now: datetime) -> list[str]:
    lines: list[str] = []
    if not locks.is_dir():
        return lines
    notices: list[str] = []
    for path in sorted(locks.glob("purifier-upgrade-pending-*.json")):
        info = read_json(path, notices)
        lines.append(
            f"upgrade pending ({info.get('from')} -> {info.get('to')}): the purifier "
            "refuses to run until the upgrade is acknowledged (a forced "
            f"reconciliation): {ours(workspace, 'reflect --apply --acknowledge-upgrade')}"
            " (the purifier's own: run_purifier.py --acknowledge-upgrade)"
        )
    for path in sorted(locks.glob("purifier-failed-*.json")):
        info = read_json(path, notices)
        errors = info.get("errors") or ["?"]
        lines.append(
            f"run {info.get('run_id')}: its {info.get('pass')} pass failed "
            f"({str(errors[0])[:120]}); the model's raw output is in {path.name}"
        )
    lock = locks / "purifier-run.lock"
    if lock.is_file():
        lines += _run_lock(lock, read_json(lock, notices), now)
    return lines + notices


def _run_lock(lock: Path, info: dict[str, Any], now: datetime) -> list[str]:
    """The purifier judges its run lock by its age alone (its file's mtime): younger than
    STALE_LOCK_HOURS its next run skips, older it takes the lock over and runs."""
    age = (now.timestamp() - lock.stat().st_mtime) / 3600
    pid = info.get("pid")
    gone = isinstance(pid, int) and pid > 0 and not _alive(pid)
    owner = f"held by process {pid}, which is gone" if gone else "its run crashed?"
    if age >= STALE_LOCK_HOURS:
        return [
            f"{lock.name} is {age:.1f}h old ({owner}): the purifier's next run takes it over "
            f"(stale after {STALE_LOCK_HOURS}h) and runs; nothing to do"
        ]
    if gone:
        return [
            f"{lock.name} is {owner}: the purifier's next run skips ('another run appears "
            f"active') until the lock is {STALE_LOCK_HOURS}h old, in "
            f"{STALE_LOCK_HOURS - age:.1f}h; remove {lock.name} if no purifier runs"
        ]
    return []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
