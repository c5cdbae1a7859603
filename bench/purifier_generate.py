"""A generated memory-purifier workspace of any size, for the benchmark (bench/purifier_read.py):
CLAIMS claims in `runtime/purified-claims.jsonl` shaped like the ones the real purifier writes
(tests/fixtures/purifier/), LEDGER rows in the rejected and deferred ledgers (each candidate
re-appended by three runs, as reconciliations do), a contradiction per hundred claims, the
manifest, and the source files the provenance names (every line it names exists).

`python -m bench.purifier_generate DIR [CLAIMS] [LEDGER]` (our own generator; seed 7)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from core.stores.purifier.demo import PASS1, PASS2

AT = "2026-11-24T09:00:00.000000Z"
STATUSES = (
    ("resolved", 80),
    ("superseded", 6),
    ("stale", 4),
    ("contested", 4),
    ("unresolved", 3),
    ("probable_duplicate", 2),
    ("retire_candidate", 1),
)
HOMES = (
    ("LTMEMORY.md", "fact"),
    ("PLAYBOOKS.md", "procedure"),
    ("EPISODES.md", "episode"),
    ("HISTORY.md", "event"),
    ("WISHES.md", "preference"),
)
WORDS = (
    "deploy",
    "target",
    "cluster",
    "operator",
    "report",
    "release",
    "cache",
    "schema",
    "runner",
    "backup",
    "latency",
    "incident",
    "rollback",
    "token",
    "budget",
    "region",
    "queue",
    "review",
    "index",
    "migration",
    "alert",
    "window",
    "owner",
    "quota",
)
SOURCES = ("MEMORY.md", "RTMEMORY.md", "PROCEDURES.md")
RUNS = ("run-0001", "run-0002", "run-0003")


def _text(rng: random.Random, index: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 18)))
    return f"Memory {index}: the {words}."


def _claim(rng: random.Random, index: int, count: int) -> dict[str, Any]:
    status = rng.choices([s for s, _ in STATUSES], [w for _, w in STATUSES])[0]
    home, kind = rng.choice(HOMES)
    line = index // len(SOURCES) + 1
    own = f"cl-{index:016x}"
    other = f"cl-{rng.randrange(count):016x}"
    claim: dict[str, Any] = {
        "id": own,
        "sourceClusterId": f"clust-{index:016x}",
        "type": kind,
        "status": status,
        "text": _text(rng, index),
        "subject": rng.choice(WORDS),
        "predicate": "is",
        "object": None,
        "primaryHome": home,
        "secondaryTags": rng.sample(WORDS, 2),
        "profileScope": "business",
        "scores": {name: round(rng.random(), 2) for name in PASS2},
        "provenance": [
            {
                "source": SOURCES[index % len(SOURCES)],
                "lineSpan": [line, line],
                "type": "direct",
                "capturedAt": AT,
            }
        ],
        "crossSurfaceSupport": [SOURCES[index % len(SOURCES)]],
        "contradictions": [],
        "contradictionClusterId": None,
        "supersedes": [],
        "supersededBy": [],
        "freshnessPosture": "fresh",
        "confidencePosture": "high",
        "rationale": "canonicalized",
        "routeRationale": f"{kind} -> {home}",
        "duplicateDisposition": "new_claim",
        "duplicateTargetClaimId": None,
        "duplicateReason": "no_candidates_above_threshold",
        "normalizationSignature": f"{index}|is|{home}",
        "routeValidationState": "strong",
        "routeAffinityScore": 1.0,
        "routeSuggestedHome": None,
        "updatedInRunId": rng.choice(RUNS),
        "updatedAt": AT,
        "updatedAt_utc": AT,
        "timezone": "UTC",
    }
    if status == "superseded":
        claim["supersededBy"] = [other]
    elif status == "probable_duplicate":
        claim["duplicateTargetClaimId"] = other
    elif status == "contested":
        claim["contradictions"] = [
            {"competingClaimId": other, "competingText": None, "relation": "contested"}
        ]
    return claim


def _row(rng: random.Random, candidate: int, run: str, verdict: str) -> dict[str, Any]:
    scores = {name: round(rng.random(), 2) for name in PASS1}
    line = candidate // len(SOURCES) + 1
    return {
        "candidate_id": f"cand-{candidate:016x}",
        "run_id": run,
        "text": _text(rng, candidate),
        "type_hint": "fact",
        "source_refs": [
            {
                "source": SOURCES[candidate % len(SOURCES)],
                "line_span": [line, line],
                "captured_at": AT,
            }
        ],
        "verdict": verdict,
        "strength": round(rng.uniform(-1, 1), 3),
        "scores": scores,
        "rationale": f"{verdict}: generated",
        "merge_candidate_ids": [],
        "compress_target": None,
        "timestamp": AT,
        "timestamp_utc": f"{AT[:-8]}{run[-1]}Z",
        "timezone": "UTC",
    }


def _write_jsonl(path: Path, rows: Any) -> int:
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
            written += 1
    return written


def generate(
    workspace: Path, claims: int = 100_000, ledger: int = 300_000, seed: int = 7
) -> dict[str, int]:
    """Write the workspace; what it holds."""
    rng = random.Random(seed)
    runtime = workspace / "runtime"
    runtime.mkdir(parents=True, exist_ok=True)
    lines = max(claims, ledger) // len(SOURCES) + 2
    for name in SOURCES:
        (workspace / name).write_text("".join(f"- line {n}\n" for n in range(1, lines + 1)))
    _write_jsonl(runtime / "purified-claims.jsonl", (_claim(rng, i, claims) for i in range(claims)))
    contradictions = _write_jsonl(
        runtime / "purified-contradictions.jsonl",
        (
            {
                "contradictionClusterId": f"contra-{i}",
                "claimId": f"cl-{i * 100:016x}",
                "competingClaimId": f"cl-{i * 100 + 1:016x}",
                "relation": "contested",
                "runId": "run-0003",
            }
            for i in range(claims // 100)
        ),
    )
    candidates = max(1, ledger // len(RUNS))
    for name, verdict, part in (("rejected", "reject", 0), ("deferred", "defer", 1)):
        _write_jsonl(
            runtime / f"{name}-candidates.jsonl",
            (
                _row(rng, c, run, verdict)
                for run in RUNS
                for c in range(candidates)
                if c % 2 == part
            ),
        )
    (runtime / "purified-manifest.json").write_text(
        json.dumps(
            {
                "manifestSchemaVersion": "1",
                "lastRunId": "run-0003",
                "lastRunStatus": "ok",
                "claimStats": {"total": claims},
            }
        )
    )
    return {
        "claims": claims,
        "ledger_rows": candidates * len(RUNS),
        "candidates": candidates,
        "contradictions": contradictions,
    }


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[2:4]]
    print(json.dumps(generate(Path(sys.argv[1]), *sizes)))
