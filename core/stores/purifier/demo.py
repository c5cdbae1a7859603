"""A demo memory-purifier workspace from our own generator (docs/PURIFIER.md, "The demo"):
every artifact kind, every claim status, rejected and deferred candidates (one re-appended by a
reconciliation), a contradiction open and one outdated, runs in the shared memory-log (one
failed, one skipped), a failure record with the model's raw output and a pending upgrade. Its
shape follows the fixtures from real runs (tests/fixtures/purifier/)."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from core.clock import to_iso
from core.safeio.atomic_write import atomic_write
from core.stores.purifier import paths
from core.stores.purifier.journal import review_home

PASS1 = (
    "durability",
    "future_judgment_value",
    "action_value",
    "identity_relationship_weight",
    "cross_time_persistence",
    "noise_risk",
)
PASS2 = (
    "semantic_cluster_confidence",
    "canonical_clarity",
    "provenance_strength",
    "contradiction_pressure",
    "freshness",
    "confidence",
    "route_fitness",
    "supersession_confidence",
)
SOURCES = {
    "MEMORY.md": "# Memory\n\nThe deploy target is the staging cluster in eu-west-1.\n\n"
    "The operator prefers short status reports.\n\nHad lunch at noon.\n\n"
    "Maybe switch the CI runner to arm64 next quarter.\n\n"
    "The build image still runs Python 3.9.\n",
    "RTMEMORY.md": "# Runtime memory\n\nThe deploy target moved to eu-central-1.\n\n"
    "The operator likes short status reports, in bullets.\n\n"
    "The operator now wants detailed reports for incidents.\n",
    "PROCEDURES.md": "# Procedures\n\n## Release\n\n1. Tag the release.\n2. Run the smoke tests.\n",
}
# id suffix, text, type, home, status, source, span, extra
CLAIMS: list[tuple[str, str, str, str, str, str, list[int], dict[str, Any]]] = [
    (
        "0001",
        "The deploy target is the staging cluster in eu-west-1.",
        "fact",
        "LTMEMORY.md",
        "superseded",
        "MEMORY.md",
        [3, 3],
        {"supersededBy": ["cl-demo000000000002"]},
    ),
    (
        "0002",
        "The deploy target moved to eu-central-1.",
        "fact",
        "LTMEMORY.md",
        "resolved",
        "RTMEMORY.md",
        [3, 3],
        {"supersedes": ["cl-demo000000000001"]},
    ),
    (
        "0003",
        "The operator prefers short status reports.",
        "preference",
        "LTMEMORY.md",
        "resolved",
        "MEMORY.md",
        [5, 5],
        {},
    ),
    (
        "0004",
        "The operator likes short status reports, in bullets.",
        "preference",
        "LTMEMORY.md",
        "probable_duplicate",
        "RTMEMORY.md",
        [5, 5],
        {"duplicateTargetClaimId": "cl-demo000000000003"},
    ),
    (
        "0005",
        "The operator now wants detailed reports for incidents.",
        "preference",
        "LTMEMORY.md",
        "contested",
        "RTMEMORY.md",
        [7, 7],
        {
            "contradictions": [
                {
                    "competingClaimId": "cl-demo000000000003",
                    "competingText": None,
                    "relation": "contested",
                }
            ]
        },
    ),
    (
        "0006",
        "The build image still runs Python 3.9.",
        "fact",
        "LTMEMORY.md",
        "stale",
        "MEMORY.md",
        [11, 11],
        {},
    ),
    (
        "0007",
        "Release: tag the release, then run the smoke tests.",
        "procedure",
        "PLAYBOOKS.md",
        "resolved",
        "PROCEDURES.md",
        [3, 6],
        {},
    ),
    (
        "0008",
        "The db migration moved the orders table.",
        "episode",
        "EPISODES.md",
        "retire_candidate",
        "episodes/2026-10-12-migration.md",
        [1, 3],
        {},
    ),
    (
        "0009",
        "Whether the cache should move to the new cluster is open.",
        "open_question",
        "LTMEMORY.md",
        "unresolved",
        "RTMEMORY.md",
        [3, 3],
        {
            "contradictions": [
                {
                    "competingClaimId": "cl-demo000000000001",
                    "competingText": None,
                    "relation": "stale",
                }
            ]
        },
    ),
]


def _claim(
    at: str,
    spec: tuple[str, str, str, str, str, str, list[int], dict[str, Any]],
) -> dict[str, Any]:
    suffix, text, kind, home, status, source, span, extra = spec
    scores = dict.fromkeys(PASS2, 0.8) | {"contradiction_pressure": 0.0}
    claim = {
        "id": f"cl-demo00000000{suffix}",
        "sourceClusterId": f"clust-demo{suffix}",
        "type": kind,
        "status": status,
        "text": text,
        "subject": text.split()[1],
        "predicate": "is",
        "object": None,
        "primaryHome": home,
        "secondaryTags": [],
        "profileScope": "business",
        "scores": scores,
        "provenance": [{"source": source, "lineSpan": span, "type": "direct", "capturedAt": at}],
        "crossSurfaceSupport": [source],
        "contradictions": [],
        "contradictionClusterId": None,
        "supersedes": [],
        "supersededBy": [],
        "freshnessPosture": "stale" if status == "stale" else "fresh",
        "confidencePosture": "high",
        "rationale": "demo",
        "routeRationale": "demo",
        "duplicateDisposition": "new_claim",
        "duplicateTargetClaimId": None,
        "updatedInRunId": "demo-run-4",
        "updatedAt": at,
        "updatedAt_utc": at,
        "timezone": "UTC",
    }
    claim.update(extra)
    if claim["contradictions"]:
        claim["contradictionClusterId"] = f"contra-demo{suffix}"
    return claim


def _candidate(
    cid: str, text: str, verdict: str, run: str, at: str, scores: tuple[float, ...]
) -> dict[str, Any]:
    named = dict(zip(PASS1, scores, strict=True))
    strength = round(sum(scores[:5]) - scores[5], 3)
    return {
        "candidate_id": cid,
        "run_id": run,
        "text": text,
        "type_hint": "fact",
        "source_refs": [{"source": "MEMORY.md", "line_span": [7, 7], "captured_at": at}],
        "verdict": verdict,
        "strength": strength,
        "scores": named,
        "rationale": f"demo {verdict}",
        "merge_candidate_ids": [],
        "compress_target": None,
        "timestamp": at,
        "timestamp_utc": at,
        "timezone": "UTC",
    }


def _lines(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def _event(
    run: str, event: str, status: str, mode: str, at: str, details: dict[str, Any]
) -> dict[str, Any]:
    return {
        "timestamp": at,
        "timestamp_utc": at,
        "timezone": "UTC",
        "domain": "memory",
        "component": paths.COMPONENT,
        "event": event,
        "run_id": run,
        "status": status,
        "mode": mode,
        "details": details,
    }


def demo_files(now: datetime) -> dict[str, bytes]:
    """The demo's files, by path relative to the directory holding `workspace/`."""
    at = [to_iso(now - timedelta(days=4 - i)) for i in range(5)]
    claims = [_claim(at[3], spec) for spec in CLAIMS]
    contradictions = [
        {
            "contradictionClusterId": c["contradictionClusterId"],
            "claimId": c["id"],
            "competingClaimId": x["competingClaimId"],
            "competingText": None,
            "relation": x["relation"],
            "flaggedInRunId": "demo-run-4",
            "recordedAt": at[3],
            "recordedAt_utc": at[3],
            "timezone": "UTC",
        }
        for c in claims
        for x in c["contradictions"]
    ]
    low, mid = (0.1, 0.1, 0.05, 0.0, 0.1, 0.85), (0.4, 0.3, 0.2, 0.1, 0.2, 0.3)
    rejected = [
        _candidate("cand-demo-lunch", "Had lunch at noon.", "reject", "demo-run-1", at[0], low)
    ]
    deferred = [
        _candidate(
            "cand-demo-arm64",
            "Maybe switch the CI runner to arm64 next quarter.",
            "defer",
            r,
            t,
            mid,
        )
        for r, t in (("demo-run-1", at[0]), ("demo-run-4", at[3]))
    ]
    manifest = {
        "version": "1.7.0",
        "logicVersion": "1.5.0",
        "manifestSchemaVersion": "1",
        "artifactSchemaVersion": "1",
        "runId": "demo-run-4",
        "mode": "reconciliation",
        "status": "ok",
        "finishedAt_utc": at[3],
        "sourceInventory": [],
        "claimStats": {"resolved": 3, "contested": 1},
        "warnings": [],
        "partialFailures": [],
    }
    events = [
        _event(
            "demo-run-1",
            "run_completed",
            "ok",
            "incremental",
            at[0],
            {"claims_new": 7, "claims_total": 7, "contradiction_count": 0},
        ),
        _event(
            "demo-run-2",
            "run_failed",
            "partial_failure",
            "incremental",
            at[1],
            {"halt_reason": "pass1 partial_failure"},
        ),
        _event(
            "demo-run-3",
            "run_skipped",
            "skipped",
            "incremental",
            at[2],
            {"skip_reason": "no changed or new inputs since last successful cursor"},
        ),
        _event(
            "demo-run-4",
            "run_completed",
            "ok",
            "reconciliation",
            at[3],
            {"claims_new": 2, "claims_total": 9, "contradiction_count": 2},
        ),
    ]
    failure = {
        "run_id": "demo-run-2",
        "pass": "promotion",
        "attempts": 2,
        "errors": ["batch 0: verdicts[0] strength=2.9 != formula=2.400 (|diff|>0.01)"],
        "raw_response": 'Sure! Here are the verdicts: {"run_id": "demo-run-2"}',
    }
    upgrade = {
        "from": "1.5.0",
        "to": "1.6.0",
        "reason": "logic_version_mismatch",
        "detected_at": at[4],
    }
    runtime = "workspace/runtime/"
    files = {f"workspace/{name}": text.encode() for name, text in SOURCES.items()}
    files |= {
        runtime + paths.CLAIMS: _lines(claims),
        runtime + paths.CONTRADICTIONS: _lines(contradictions),
        runtime + paths.REJECTED: _lines(rejected),
        runtime + paths.DEFERRED: _lines(deferred),
        runtime + paths.MANIFEST: json.dumps(manifest, indent=2).encode(),
        runtime + "locks/purifier-failed-promotion-demo-run-2.json": json.dumps(failure).encode(),
        runtime + "locks/purifier-upgrade-pending-1.5.0-1.6.0.json": json.dumps(upgrade).encode(),
        "workspace/LTMEMORY.md": b"# LTMEMORY\n\n- The deploy target moved to eu-central-1.\n",
        "workspace/PLAYBOOKS.md": b"# PLAYBOOKS\n\n- Release: tag, then smoke tests.\n",
        f"telemetry/memory-log-{now:%Y-%m-%d}.jsonl": _lines(events),
        "telemetry/memory-purifier/last-run.md": b"# memory-purifier - last run\n\n"
        b"**Status:** `ok`\n\n- Run ID: `demo-run-4`\n",
    }
    return files


def materialize_purifier_demo(
    workspace: Path, now: datetime, reset: bool = False, data: Path | None = None
) -> Path:
    """Write the demo under workspace's parent (our own data dir), unless it is there; `reset`
    also forgets our review of it (its marks, settled groups and journal, under `data`, our
    data directory)."""
    root = workspace.parent
    if reset and root.exists():
        shutil.rmtree(root)
    if reset and data is not None:
        shutil.rmtree(review_home(workspace, data), ignore_errors=True)
    if (workspace / "runtime" / paths.CLAIMS).exists():
        return workspace
    for name, content in demo_files(now).items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, content)
    return workspace
