"""The purifier's records as the engine's notes (docs/PURIFIER.md, "Notes"): every claim, and
every distinct rejected or deferred candidate (the newest run's row winning: reconciliations
re-append them). Archived: the claims the purifier keeps out of its views."""

from __future__ import annotations

import hashlib
import re
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
COMPETING = "competing"  # the nugget of the texts a contradiction names with no claim
_MARKER = re.compile(r"^(?:#{1,6}|[-*+]|\d{1,9}[.)])\s+")  # a heading, a bullet, "3." or "3)"


def title_of(text: str) -> str:
    """A claim has no title of its own: its first line, whole, without a list or heading
    marker. Only a front end that runs out of room cuts it, where the room ends."""
    for line in text.splitlines():
        line = " ".join(_MARKER.sub("", line.strip()).split())
        if line:
            return line
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


def _spans(refs: object, line_key: str) -> set[tuple[str, tuple[int, ...]]]:
    """Each (source, lines) a record names."""
    found = set()
    for ref in refs if isinstance(refs, list) else []:
        if isinstance(ref, dict) and isinstance(ref.get("source"), str):
            lines = ref.get(line_key)
            span = tuple(n for n in lines if isinstance(n, int)) if isinstance(lines, list) else ()
            found.add((ref["source"], span))
    return found


Span = tuple[str, tuple[int, ...]]


def claims_by_span(claims: list[dict[str, Any]]) -> dict[Span, dict[str, Any]]:
    """Each (source, lines) the claims' provenance names, with the newest claim naming it."""
    found: dict[Span, dict[str, Any]] = {}
    for claim in claims:
        at = str(claim.get("updatedAt_utc") or "")
        for span in _spans(claim.get("provenance"), "lineSpan"):
            held = found.get(span)
            if held is None or at > str(held.get("updatedAt_utc") or ""):
                found[span] = claim
    return found


def promoted_later(
    row: dict[str, Any], by_span: dict[Span, dict[str, Any]]
) -> dict[str, Any] | None:
    """The claim a later run made of a rejected or deferred candidate: one whose provenance
    names the candidate's source and lines, written after the candidate's row (a promoted
    candidate leaves no row of its own; its claim's text is Pass 2's, not the candidate's)."""
    at = str(row.get("timestamp_utc") or "")
    for span in sorted(_spans(row.get("source_refs"), "line_span")):
        claim = by_span.get(span)
        if claim is not None and str(claim.get("updatedAt_utc") or "") > at:
            return claim
    return None


def candidate_note(name: str, row: dict[str, Any], claim: dict[str, Any] | None) -> RawNote:
    """A rejected or deferred candidate; `claim`: the claim a later run promoted it into."""
    text = str(row.get("text") or "")
    at = str(row.get("timestamp_utc") or row.get("timestamp") or "")
    verdict = str(row.get("verdict") or ("reject" if name == "rejected" else "defer"))
    scores: dict[str, Any] = row["scores"] if isinstance(row.get("scores"), dict) else {}
    strength = _number(row.get("strength")) or 0.0
    drift = drift_of(row)
    why = str(row.get("rationale") or verdict)
    links = [_link(i, "merge with", at) for i in row.get("merge_candidate_ids") or []]
    held_by = str(claim["id"]) if claim is not None else None
    if claim is not None:
        links.append(_link(held_by, "promoted into", at))
        why = (
            f"promoted later into {held_by} by run {claim.get('updatedInRunId')} (its "
            f"provenance names this candidate's source lines); run {row.get('run_id')} had "
            f"said {verdict}: {why}"
        )
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
            "verdict": "promoted" if claim is not None else verdict,
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
            "verdict": "promote" if claim is not None else verdict,
            "scores": dict(scores),
            "strength": strength,
            "why": why + (f" [flagged: {drift}]" if drift else ""),
            "compressTarget": row.get("compress_target"),
            "mergeCandidateIds": list(row.get("merge_candidate_ids") or []),
        },
    }


def purifier_notes(artifacts: Artifacts) -> list[RawNote]:
    claims = [c for c in artifacts.claims if isinstance(c.get("id"), str)]
    notes = [claim_note(c) for c in claims]
    by_span = claims_by_span(claims)
    for _cid, (name, row) in sorted(newest_candidates(artifacts).items()):
        notes.append(candidate_note(name, row, promoted_later(row, by_span)))
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
    """Mark each side of every contradiction record with its cluster (a claim is in as many
    clusters as records name it: the purifier draws a new cluster per claim per run), add a
    note for each competitor the records name by text only, and give the sides of records
    that still stand one topic each (topics.py groups them)."""
    by_id = {n["id"]: n for n in notes}
    texts: dict[str, RawNote] = {}
    pairs: list[tuple[str, str, str]] = []
    for record in records:
        cluster = str(record.get("contradictionClusterId"))
        claim = by_id.get(str(record.get("claimId")))
        rival = by_id.get(str(record.get("competingClaimId"))) or _competitor(record, claim, texts)
        for note in (claim, rival):
            if note is not None:
                held = note["purifier"].setdefault("contradictionClusters", [])
                if cluster not in held:
                    held.append(cluster)
        if claim is not None and rival is not None:
            pairs.append((claim["id"], rival["id"], cluster))
    notes.extend(texts.values())
    by_id.update((i, n) for i, n in texts.items())
    for note_ids, clusters in _standing(pairs, by_id):
        topic = ", ".join(clusters[:2]) + (f" (+{len(clusters) - 2} more)" if clusters[2:] else "")
        for note_id in note_ids:
            by_id[note_id]["purifier"]["contradictionTopic"] = topic


def _standing(
    pairs: list[tuple[str, str, str]], by_id: dict[str, RawNote]
) -> list[tuple[list[str], list[str]]]:
    """The claims (and texts) the records tie together while every one of them stands, each
    set with its clusters in the records' order."""
    parent: dict[str, str] = {}

    def root(i: str) -> str:
        while parent.setdefault(i, i) != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    standing = [p for p in pairs if not (by_id[p[0]]["hidden"] or by_id[p[1]]["hidden"])]
    for a, b, _ in standing:
        parent[root(a)] = root(b)
    found: dict[str, tuple[list[str], list[str]]] = {}
    for a, b, cluster in standing:
        ids, clusters = found.setdefault(root(a), ([], []))
        ids.extend(i for i in (a, b) if i not in ids)
        if cluster not in clusters:
            clusters.append(cluster)
    return list(found.values())


def _competitor(
    record: dict[str, Any], claim: RawNote | None, texts: dict[str, RawNote]
) -> RawNote | None:
    """The note of a competitor the record names by its text only (or by an id no claim
    has), one per claim and text however many runs recorded it."""
    text = record.get("competingText")
    if claim is None or not isinstance(text, str) or not text.strip():
        return None
    note_id = "ct-" + hashlib.sha256(f"{claim['id']}\n{text}".encode()).hexdigest()[:16]
    if note_id not in texts:
        texts[note_id] = competing_note(note_id, text, record, claim)
    return texts[note_id]


def competing_note(note_id: str, text: str, record: dict[str, Any], claim: RawNote) -> RawNote:
    """A text a contradiction record sets against a claim, with no claim of its own: shown
    beside the claim (nugget `competing`), archived when the claim is."""
    at = str(record.get("recordedAt_utc") or record.get("recordedAt") or "")
    relation = str(record.get("relation") or "contested")
    why = (
        f"a competing text the purifier recorded against {claim['id']} ({relation}), "
        "not a claim: nothing is promoted from it"
    )
    note: RawNote = {
        "id": note_id,
        "nuggetName": COMPETING,
        "title": title_of(text),
        "content": text,
        "tags": [],
        "links": [{"to": claim["id"], "reason": f"contradicts ({relation})", "createdAt": at}],
        "hidden": bool(claim["hidden"]),
        "kind": "note",
        "hits": 0,
        "subject": str(claim.get("subject") or ""),
        "scope": "shared",
        "type": "competing text",
        "source": "agent_reflection",
        "confidence": 0.0,
        "stability": "temporary",
        "createdAt": at,
        "updatedAt": at,
        "lastAccessedAt": at,
        "sources": [],
        "purifier": {
            "record": "competing text",
            "status": relation,
            "claimId": claim["id"],
            "runId": record.get("flaggedInRunId"),
            "rationale": why,
        },
        "storedVerdict": {"verdict": "defer", "scores": {}, "strength": 0.0, "why": why},
    }
    if note["hidden"]:
        note["archivedAt"] = at
    return note
