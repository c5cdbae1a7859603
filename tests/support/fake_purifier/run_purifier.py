"""A fake of memory-purifier's orchestrator, for the tests of acting through the purifier
(docs/PURIFIER.md): the same command line as its `scripts/run_purifier.py` with the `file`
backend (no model), the same lock (`runtime/locks/purifier-run.lock`), the same artifacts'
shape and the same memory-log events. Every paragraph of a source file becomes one claim.
Like its orchestrator, an ok run rewrites every artifact in `runtime/` (claims, manifest,
entities, routes, summary, downstream signal), writes `lastRun` and its cursor into the config it
is handed (`--config`), and runs the config's `downstream.wiki_trigger_command` with the
manifest's path.

Set FAKE_PURIFIER_FAIL to a message to make a run fail with it (its `haltReason`), or
FAKE_PURIFIER_SKIP to a reason to make it skip as its orchestrator does when nothing changed:
a manifest of the skipped attempt, its memory-log event, no claim or view written."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

SOURCES = ("MEMORY.md", "RTMEMORY.md", "PROCEDURES.md")
COMPONENT = "memory-purifier.purifier"
SCORES = {
    "semantic_cluster_confidence": 0.9,
    "canonical_clarity": 0.8,
    "provenance_strength": 0.8,
    "contradiction_pressure": 0.0,
    "freshness": 0.9,
    "confidence": 0.85,
    "route_fitness": 0.9,
    "supersession_confidence": 0.0,
}


def sources(workspace: Path) -> list[Path]:
    found = [workspace / name for name in SOURCES if (workspace / name).is_file()]
    return found + sorted((workspace / "episodes").glob("*.md"))


def claims(workspace: Path, run_id: str, now: str) -> list[dict]:
    out = []
    for path in sources(workspace):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            out.append(
                {
                    "id": "cl-" + hashlib.sha256(text.encode()).hexdigest()[:16],
                    "type": "fact",
                    "status": "resolved",
                    "text": text,
                    "subject": text.split()[0].lower(),
                    "predicate": "states",
                    "object": None,
                    "primaryHome": "LTMEMORY.md",
                    "secondaryTags": [],
                    "scores": SCORES,
                    "provenance": [
                        {
                            "source": str(path.relative_to(workspace)),
                            "lineSpan": [number, number],
                            "type": "direct",
                            "capturedAt": now,
                        }
                    ],
                    "contradictions": [],
                    "supersedes": [],
                    "supersededBy": [],
                    "freshnessPosture": "fresh",
                    "confidencePosture": "high",
                    "rationale": "fake",
                    "updatedInRunId": run_id,
                    "updatedAt_utc": now,
                }
            )
    return out


def log(root: Path, event: str, run_id: str, mode: str, status: str, now: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    line = {
        "timestamp_utc": now,
        "domain": "memory",
        "component": COMPONENT,
        "event": event,
        "run_id": run_id,
        "status": status,
        "mode": mode,
        "details": {},
    }
    with (root / f"memory-log-{now[:10]}.jsonl").open("a") as f:
        f.write(json.dumps(line) + "\n")


def publish(
    workspace: Path, runtime: Path, found: list[dict], run_id: str, mode: str, now: str
) -> None:
    with (runtime / "purified-claims.jsonl").open("w") as f:
        f.writelines(json.dumps(c) + "\n" for c in found)
    for name in (
        "purified-contradictions.jsonl",
        "rejected-candidates.jsonl",
        "deferred-candidates.jsonl",
    ):
        (runtime / name).touch()
    (runtime / "purified-manifest.json").write_text(
        json.dumps(
            {
                "manifestSchemaVersion": "1",
                "runId": run_id,
                "mode": mode,
                "status": "ok",
                "claimStats": {"total": len(found)},
            },
            indent=2,
        )
    )
    (runtime / "purified-entities.json").write_text(json.dumps({"runId": run_id}))
    (runtime / "purified-routes.json").write_text(json.dumps({"runId": run_id}))
    (runtime / "purifier-last-run-summary.json").write_text(
        json.dumps({"runId": run_id, "status": "ok"})
    )
    (runtime / "purifier-downstream-signal.json").write_text(json.dumps({"runId": run_id}))
    view = ["# LTMEMORY", "", f"_Regenerated {now} from `runtime/purified-claims.jsonl`._", ""]
    view += [f"- {c['text']}" for c in found]
    (workspace / "LTMEMORY.md").write_text("\n".join(view) + "\n")


def skipped(runtime: Path, run_id: str, mode: str) -> None:
    """Its manifest of a skipped attempt (its claims, ledgers and views untouched)."""
    manifest = runtime / "purified-manifest.json"
    data = json.loads(manifest.read_text()) if manifest.is_file() else {}
    data.update({"runId": run_id, "mode": mode, "status": "skipped", "publishCommitted": False})
    manifest.write_text(json.dumps(data, indent=2))


def read_config(config: str | None) -> dict:
    return json.loads(Path(config).read_text()) if config and Path(config).is_file() else {}


def record_run(config: str | None, settings: dict, run_id: str, mode: str, now: str) -> None:
    """Its lastRun and cursor, the whole config rewritten (as its orchestrator does)."""
    if not config:
        return
    settings["lastRun"] = {**settings.get("lastRun", {}), mode: now, "cursor": run_id}
    Path(config + ".tmp").write_text(json.dumps(settings, indent=2))
    os.replace(config + ".tmp", config)


def trigger(settings: dict, manifest: Path) -> None:
    """The operator's downstream command, with the manifest's path (as its trigger_wiki.py)."""
    command = (settings.get("downstream") or {}).get("wiki_trigger_command") or None
    if command:
        subprocess.run([*shlex.split(command), str(manifest)], timeout=60, check=False)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=["incremental", "reconciliation"])
    for option in (
        "--workspace",
        "--config",
        "--telemetry-root",
        "--global-log-root",
        "--backend",
        "--fixture-dir",
        "--run-id",
        "--runtime-dir",
    ):
        ap.add_argument(option)
    ap.add_argument("--acknowledge-upgrade", action="store_true")
    args = ap.parse_args()
    workspace = Path(args.workspace)
    runtime = Path(args.runtime_dir) if args.runtime_dir else workspace / "runtime"
    settings = read_config(args.config)
    mode = "reconciliation" if args.acknowledge_upgrade else args.mode
    now = datetime.now(UTC).isoformat()
    run_id = args.run_id or f"fake-{os.getpid()}"
    report = {"ok": True, "mode": mode, "runId": run_id}
    lock = runtime / "locks" / "purifier-run.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    if lock.exists():
        print(
            json.dumps({**report, "status": "skipped", "skipReason": "another run appears active"})
        )
        return 0
    lock.write_text(json.dumps({"run_id": run_id, "pid": os.getpid()}))
    global_log = Path(args.global_log_root)
    log(global_log, "run_started", run_id, mode, "started", now)
    try:
        failure = os.environ.get("FAKE_PURIFIER_FAIL")
        if failure:
            log(global_log, "run_failed", run_id, mode, "failed", now)
            print(json.dumps({**report, "ok": False, "status": "failed", "haltReason": failure}))
            return 1
        skip = os.environ.get("FAKE_PURIFIER_SKIP")
        if skip:
            skipped(runtime, run_id, mode)
            log(global_log, "run_skipped", run_id, mode, "skipped", now)
            print(json.dumps({**report, "status": "skipped", "haltReason": skip}))
            return 0
        if args.acknowledge_upgrade:
            for pending in (runtime / "locks").glob("purifier-upgrade-pending-*.json"):
                pending.unlink()
        found = claims(workspace, run_id, now)
        publish(workspace, runtime, found, run_id, mode, now)
        record_run(args.config, settings, run_id, mode, now)
        trigger(settings, runtime / "purified-manifest.json")
        log(global_log, "run_completed", run_id, mode, "ok", now)
        Path(args.telemetry_root).mkdir(parents=True, exist_ok=True)
        (Path(args.telemetry_root) / "last-run.md").write_text(f"# last run {run_id}\n")
        print(
            json.dumps(
                {**report, "status": "ok", "claimsNew": len(found), "claimsTotal": len(found)}
            )
        )
        return 0
    finally:
        lock.unlink()


if __name__ == "__main__":
    sys.exit(main())
