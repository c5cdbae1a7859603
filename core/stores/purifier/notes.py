"""The purifier's records as the engine's notes (docs/PURIFIER.md, "Notes"): every claim, and
every distinct rejected or deferred candidate (the newest run's row winning: reconciliations
re-append them). Archived: the claims the purifier keeps out of its views."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.errors import GraphError
from core.models import RawNote
from core.review.default_scorer import SCORE_NAMES
from core.review.verdicts import DRIFT, strength_of
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular
from core.stores.purifier.artifacts import Artifacts

ARCHIVED_STATUSES = frozenset({"superseded", "stale", "retire_candidate", "probable_duplicate"})
LEDGERS = (("rejected", "rejected"), ("deferred", "deferred"))
TITLE_CHARS = 80


def title_of(text: str) -> str:
    for line in text.splitlines():
        line = line.strip().lstrip("#-*0123456789. ").strip()
        if line:
            return line[:TITLE_CHARS]
    return "(empty)"


def _link(to: object, reason: str, at: str) -> dict[str, str] | None:
    return {"to": to, "reason": reason, "createdAt": at} if isinstance(to, str) and to else None


def _claim_links(claim: dict[str, Any], at: str) -> list[dict[str, str]]:
    own = claim.get("id")
    found = [_link(i, "supersedes", at) for i in claim.get("supersedes") or []]
    found += [_link(i, "superseded by", at) for i in claim.get("supersededBy") or []]
    target = claim.get("duplicateTargetClaimId")
    if target != own and claim.get("status") == "probable_duplicate":
        found.append(_link(target, "probable duplicate of", at))
    for c in claim.get("contradictions") or []:
        if isinstance(c, dict):
            found.append(
                _link(
                    c.get("competingClaimId"),
                    f"contradicts ({c.get('relation') or 'contested'})",
                    at,
                )
            )
    return [link for link in found if link is not None and link["to"] != own]


def sources_of(refs: object, line_key: str) -> list[dict[str, Any]]:
    """The provenance as the notes' neutral `sources` (core/browse/sources.py)."""
    found = []
    for ref in refs if isinstance(refs, list) else []:
        if isinstance(ref, dict) and isinstance(ref.get("source"), str):
            found.append({"file": ref["source"], "lines": ref.get(line_key) or []})
    return found


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def claim_note(claim: dict[str, Any]) -> RawNote:
    text = str(claim.get("text") or "")
    at = str(claim.get("updatedAt_utc") or claim.get("updatedAt") or "")
    status = str(claim.get("status") or "")
    scores: dict[str, Any] = claim["scores"] if isinstance(claim.get("scores"), dict) else {}
    confidence = _number(scores.get("confidence"))
    note: RawNote = {
        "id": str(claim.get("id")),
        "nuggetName": str(claim.get("primaryHome") or "unrouted"),
        "title": title_of(text),
        "content": text,
        "tags": [t for t in claim.get("secondaryTags") or [] if isinstance(t, str)],
        "links": _claim_links(claim, at),
        "hidden": status in ARCHIVED_STATUSES,
        "kind": "note",
        "hits": 0,
        "subject": str(claim.get("subject") or ""),
        "scope": "shared",
        "type": str(claim.get("type") or ""),
        "source": "agent_reflection",
        "confidence": confidence if confidence is not None else 0.7,
        "stability": "durable",
        "createdAt": at,
        "updatedAt": at,
        "lastAccessedAt": at,
        "sources": sources_of(claim.get("provenance"), "lineSpan"),
        "purifier": {
            "record": "claim",
            "status": status,
            "scores": scores,
            "provenance": claim.get("provenance") or [],
            "freshnessPosture": claim.get("freshnessPosture"),
            "confidencePosture": claim.get("confidencePosture"),
            "rationale": claim.get("rationale"),
            "runId": claim.get("updatedInRunId"),
        },
        # Pass 1's scores of a claim are not kept by the purifier: its verdict is that it
        # survived; its Pass-2 confidence stands as its strength.
        "storedVerdict": {
            "verdict": "promote",
            "scores": dict(scores),
            "strength": confidence or 0.0,
            "why": f"survived Pass 1 into a {status or 'claim'} claim "
            f"(Pass-2 confidence {confidence})",
        },
    }
    if note["hidden"]:
        note["archivedAt"] = at
    return note


def newest_candidates(artifacts: Artifacts) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each candidate id once: its newest row of either ledger, with the ledger's name."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, rows in (("rejected", artifacts.rejected), ("deferred", artifacts.deferred)):
        for row in rows:
            cid = row.get("candidate_id")
            if not isinstance(cid, str):
                continue
            at = str(row.get("timestamp_utc") or row.get("timestamp") or "")
            held = found.get(cid)
            if held is None or at >= str(held[1].get("timestamp_utc") or ""):
                found[cid] = (name, row)
    return found


def drift_of(row: dict[str, Any]) -> str | None:
    """Why a candidate's stored strength is flagged: it drifts more than 0.01 from the formula."""
    scores, strength = row.get("scores"), _number(row.get("strength"))
    if not isinstance(scores, dict) or strength is None:
        return None
    try:
        expected = strength_of({n: float(scores[n]) for n in SCORE_NAMES})
    except (KeyError, TypeError, ValueError):
        return "its scores are incomplete"
    if abs(expected - strength) > DRIFT + 1e-9:
        return f"stored strength {strength:g} drifts from the formula's {expected:g}"
    return None


def candidate_note(name: str, row: dict[str, Any], held_by: str | None) -> RawNote:
    text = str(row.get("text") or "")
    at = str(row.get("timestamp_utc") or row.get("timestamp") or "")
    verdict = str(row.get("verdict") or ("reject" if name == "rejected" else "defer"))
    scores: dict[str, Any] = row["scores"] if isinstance(row.get("scores"), dict) else {}
    strength = _number(row.get("strength")) or 0.0
    drift = drift_of(row)
    why = str(row.get("rationale") or verdict)
    links = [_link(i, "merge with", at) for i in row.get("merge_candidate_ids") or []]
    return {
        "id": str(row["candidate_id"]),
        "nuggetName": name,
        "title": title_of(text),
        "content": text,
        "tags": [],
        "links": [link for link in links if link],
        "hidden": False,
        "kind": "note",
        "hits": 0,
        "subject": "",
        "scope": "shared",
        "type": str(row.get("type_hint") or ""),
        "source": "agent_reflection",
        "confidence": 0.7,
        "stability": "temporary",
        "createdAt": at,
        "updatedAt": at,
        "lastAccessedAt": at,
        "sources": sources_of(row.get("source_refs"), "line_span"),
        "purifier": {
            "record": "candidate",
            "verdict": verdict,
            "runId": row.get("run_id"),
            "provenance": [
                {"source": r.get("source"), "lineSpan": r.get("line_span")}
                for r in row.get("source_refs") or []
                if isinstance(r, dict)
            ],
            "heldByClaim": held_by,
            "drift": drift,
            "compressTarget": row.get("compress_target"),
            "rationale": why,
        },
        "storedVerdict": {
            "verdict": verdict,
            "scores": dict(scores),
            "strength": strength,
            "why": why + (f" [flagged: {drift}]" if drift else ""),
            "compressTarget": row.get("compress_target"),
            "mergeCandidateIds": list(row.get("merge_candidate_ids") or []),
        },
    }


def purifier_notes(artifacts: Artifacts) -> list[RawNote]:
    notes = [claim_note(c) for c in artifacts.claims if isinstance(c.get("id"), str)]
    held = {
        " ".join(str(c.get("text") or "").split()): c["id"]
        for c in artifacts.claims
        if isinstance(c.get("id"), str)
    }
    for _cid, (name, row) in sorted(newest_candidates(artifacts).items()):
        text = " ".join(str(row.get("text") or "").split())
        notes.append(candidate_note(name, row, held.get(text) if name == "deferred" else None))
    seen: set[str] = set()
    unique = []
    for note in notes:  # a claim id twice in the file: the first row stands, as in a dict
        if note["id"] not in seen:
            seen.add(note["id"])
            unique.append(note)
    return unique


def provenance_problems(notes: list[RawNote], workspace: Path) -> list[str]:
    """One line per note whose provenance names a missing file or a line past its end."""
    lengths: dict[str, int | None] = {}
    problems = []
    for note in notes:
        if note["purifier"].get("status") == "retire_candidate":
            continue  # its files are gone: that is why the purifier retires it
        for ref in note["purifier"].get("provenance") or []:
            source, span = ref.get("source"), ref.get("lineSpan")
            if not isinstance(source, str):
                continue
            if source not in lengths:
                lengths[source] = _line_count(workspace / source)
            count = lengths[source]
            if count is None:
                problems.append(
                    f"{note['id']}: its provenance names {source}, which is not in "
                    "the workspace (removed? a reconciliation retires it)"
                )
                break
            if isinstance(span, list) and span and isinstance(span[-1], int) and span[-1] > count:
                problems.append(
                    f"{note['id']}: its provenance names {source} line {span[-1]}, "
                    f"past its end ({count} lines): the file changed since"
                )
                break
    return problems


def _line_count(path: Path) -> int | None:
    try:
        data = read_regular(path, MEMORY_MD_BYTES)
    except (OSError, GraphError):
        return None
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def join_contradictions(notes: list[RawNote], records: list[dict[str, Any]]) -> None:
    """Mark each claim of a contradiction with its cluster (topics.py groups them: open, or
    outdated when one side is superseded or retired)."""
    by_id = {n["id"]: n for n in notes}
    for record in records:
        cluster = record.get("contradictionClusterId")
        for key in ("claimId", "competingClaimId"):
            note = by_id.get(str(record.get(key)))
            if note is not None:
                note["purifier"].setdefault("contradictionClusters", []).append(str(cluster))
