"""What the purifier gets wrong silently, one line each with what to do (docs/PURIFIER.md,
"Health"). Pure: given what was read, and the time."""

from __future__ import annotations

import os
import shlex
from datetime import datetime
from pathlib import Path
from typing import Any

from core.safeio.inert_text import one_line
from core.stores.purifier import paths
from core.stores.purifier.artifacts import Artifacts, read_json
from core.stores.purifier.notes import newest_candidates
from core.stores.purifier.runs import PurifierRun

STALE_LOCK_HOURS = 2
CLUSTER_CAP = 200
FAILED = ("failed", "partial_failure")
WARNING_CHARS = 400


def health_lines(
    artifacts: Artifacts, runs: list[PurifierRun], workspace: Path, now: datetime
) -> list[str]:
    manifest = artifacts.manifest
    lines = [
        *_dropped_changes(manifest, runs, workspace),
        *_oversized(manifest),
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


def _dropped_changes(
    manifest: dict[str, Any], runs: list[PurifierRun], workspace: Path
) -> list[str]:
    last_ok = max((r.at for r in runs if r.status == "ok"), default="")
    failed = [r for r in runs if r.status in FAILED and r.at > last_ok]
    if manifest.get("status") in FAILED and manifest.get("sourceInventory"):
        run = str(manifest.get("runId"))
    elif failed:
        run = failed[-1].run_id
    else:
        return []
    return [
        f"run {run} failed but the manifest already records its sources' new hashes: the "
        f"next incremental run reports 'no changed inputs' and drops those changes; "
        f"run a reconciliation: {ours(workspace, 'reflect --apply --reconcile')} "
        f"(the purifier's own: run_purifier.py --mode reconciliation)"
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


def _oversized(manifest: dict[str, Any]) -> list[str]:
    if not _has_key(manifest, "pending_cluster_count"):
        return []
    return [
        f"the last run had more than {CLUSTER_CAP} clusters: every run ends partial_failure "
        "and never publishes; raise limits.max_clusters_per_batch or split the sources"
    ]


def _manifest_attempt(manifest: dict[str, Any], runs: list[PurifierRun]) -> list[str]:
    status = manifest.get("status")
    if not manifest or status == "ok":
        return []
    published = [r for r in runs if r.status == "ok"]
    last = (
        f"the last published run is {published[-1].run_id} ({published[-1].at[:16]})"
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
    age = (now.timestamp() - lock.stat().st_mtime) / 3600
    pid = info.get("pid")
    if isinstance(pid, int) and pid > 0 and not _alive(pid):
        return [
            f"{lock.name} is held by process {pid}, which is gone: the next run skips until "
            f"it is {STALE_LOCK_HOURS}h old; remove {lock.name} if no purifier runs"
        ]
    if age > STALE_LOCK_HOURS:
        return [
            f"{lock.name} is {age:.1f}h old (stale after {STALE_LOCK_HOURS}h): a run "
            "crashed; the next run takes it over, or remove it"
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
