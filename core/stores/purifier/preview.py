"""Previewing the purifier's next run (docs/PURIFIER.md, "Acting through the purifier"): its
orchestrator runs on a temporary copy of the workspace and of its config (sandbox.py: real files
only, its trigger off, its telemetry in the copy too), and the claims and views it would change
become a plan whose changes are diffs: the copy's files before and after its run, read alike, run
stamps aside. Nothing of the real workspace, config or telemetry is written."""

from __future__ import annotations

import difflib
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.models import (
    ChangeType,
    HideOp,
    NoteDiff,
    Operation,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    RewriteOp,
)
from core.notes import fields
from core.safeio.inert_text import one_line
from core.stores.purifier import paths, runner, sandbox
from core.stores.purifier.artifacts import Artifacts, read_artifacts
from core.stores.purifier.health import manifest_warnings
from core.stores.purifier.notes import newest_candidates, purifier_notes

STAMPS = frozenset(
    {
        "updatedAt",
        "updatedAt_utc",
        "updatedInRunId",
        "timezone",
        "contradictionClusterId",  # drawn anew on every run that flags the claim
        "duplicateDisposition",  # new_claim -> reuse_existing on its first re-emission
        "duplicateReason",
        "duplicateTargetClaimId",  # its own id on a reuse; a link only for a duplicate
        "run_id",
        "timestamp",
        "timestamp_utc",
    }
)
NESTED_STAMPS = frozenset({"flaggedInRunId", "capturedAt", "captured_at"})
SKIPPED = ("skipped", "skipped_superseded")  # its statuses of a run that writes no claim
VALUE_CHARS = 60  # of a field's value in a change's words
SHOWN_LINES = 40  # of each view's diff, and of the new contradiction records
_UPDATED = re.compile(r"_Updated: \d{4}-\d{2}-\d{2}_")


@dataclass
class Preview:
    """What the next run would change: the run's report, each changed note before and after
    (new claims: `before` None) with what changed in words, each changed view's unified diff,
    the contradiction records it would add and the warnings its manifest would carry."""

    result: runner.RunResult
    notes: list[tuple[RawNote | None, RawNote | None]] = field(default_factory=list)
    views: dict[str, list[str]] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> bool:
        return self.result.status in SKIPPED


def preview(
    workspace: Path,
    found: runner.Installation,
    mode: str,
    acknowledge_upgrade: bool,
    extra: tuple[str, ...],
) -> Preview:
    """Run the purifier on a copy of `workspace` and compare the copy's files after the run
    with the same files before it, read the same way."""
    with _temporary() as temp:
        box = sandbox.make(workspace, found.config, Path(temp))
        argv = runner.command(
            found, box.workspace, mode, box.telemetry, acknowledge_upgrade, extra, config=box.config
        )
        before = read_artifacts(box.workspace)
        old_views = {name: _lines(box.workspace / name) for name in paths.VIEWS}
        result = runner.run(argv, box.workspace)
        if result.status in SKIPPED:
            return Preview(result)  # nothing would change
        after = read_artifacts(box.workspace)
        views = {
            name: view_diff(old_views[name], _lines(box.workspace / name)) for name in old_views
        }
    return compared(result, before, after, views)


def compared(
    result: runner.RunResult,
    before: Artifacts,
    after: Artifacts,
    views: dict[str, list[str]] | None = None,
) -> Preview:
    """The difference between two reads of the purifier's files, run stamps aside."""
    found = Preview(result, views={name: lines for name, lines in (views or {}).items() if lines})
    found.notes, found.details = changed_records(before, after)
    found.records = new_records(before.contradictions, after.contradictions)
    found.warnings = manifest_warnings(after.manifest) if after.manifest != before.manifest else []
    return found


def _temporary() -> tempfile.TemporaryDirectory[str]:
    """A folder only we can enter (0700) under $TMPDIR, removed afterwards."""
    try:
        return tempfile.TemporaryDirectory(
            prefix="nuggets-purifier-preview-", ignore_cleanup_errors=True
        )
    except OSError as exc:
        raise sandbox.PreviewRefused(
            f"{tempfile.gettempdir()}: no temporary folder for the "
            f"preview ({exc.strerror or exc}; nothing was run)"
        ) from None


def unstamped(record: dict[str, Any]) -> dict[str, Any]:
    """A claim or ledger row without what every run rewrites (its run, its times, the ids it
    draws anew), keeping a probable duplicate's target (a link)."""
    found: dict[str, Any] = {}
    for key, value in record.items():
        if key in STAMPS:
            continue
        if isinstance(value, list):
            value = [
                {k: v for k, v in item.items() if k not in NESTED_STAMPS}
                if isinstance(item, dict)
                else item
                for item in value
            ]
        found[key] = value
    target = record.get("duplicateTargetClaimId")
    if record.get("status") == "probable_duplicate" and target != record.get("id"):
        found["duplicateTargetClaimId"] = target
    return found


def changed_records(
    before: Artifacts, after: Artifacts
) -> tuple[list[tuple[RawNote | None, RawNote | None]], dict[str, str]]:
    """Each claim or candidate whose record differs beyond run stamps (a candidate also when a
    run promoted it), in the order of `after`, then those gone; and what changed, in words."""
    old, new = _records(before), _records(after)
    old_notes = {n["id"]: n for n in purifier_notes(before)}
    new_notes = {n["id"]: n for n in purifier_notes(after)}
    changed: list[tuple[RawNote | None, RawNote | None]] = []
    details: dict[str, str] = {}
    for note_id, record in new.items():
        was = old.get(note_id)
        fresh, stale = new_notes[note_id], old_notes.get(note_id)
        if was == record and _verdict(stale) == _verdict(fresh):
            continue
        changed.append((stale, fresh))
        details[note_id] = described(was, record, stale, fresh)
    for note_id in old:
        if note_id not in new:
            changed.append((old_notes[note_id], None))
    return changed, details


def _records(found: Artifacts) -> dict[str, dict[str, Any]]:
    records = {str(c["id"]): unstamped(c) for c in found.claims if isinstance(c.get("id"), str)}
    for cid, (_name, row) in newest_candidates(found).items():
        records.setdefault(cid, unstamped(row))
    return records


def _verdict(note: RawNote | None) -> object:
    return (note.get("purifier") or {}).get("verdict") if note is not None else None


def described(
    was: dict[str, Any] | None,
    now: dict[str, Any],
    stale: RawNote | None,
    fresh: RawNote,
) -> str:
    """What changed in one record, in words: its status, its text, its links and any other
    field the purifier rewrote."""
    if was is None:
        kind = "claim" if "status" in now else "candidate"
        return f"a new {kind} ({_short(now.get('status') or now.get('verdict'))})"
    parts = []
    if _verdict(stale) != _verdict(fresh):
        parts.append(f"verdict {_verdict(stale)} -> {_verdict(fresh)}")
    for key in sorted(set(was) | set(now)):
        if was.get(key) == now.get(key):
            continue
        old_value, new_value = was.get(key), now.get(key)
        if (
            isinstance(old_value, str | int | float | None)
            and isinstance(new_value, str | int | float | None)
            and key != "text"
        ):
            parts.append(f"{key} {_short(old_value)} -> {_short(new_value)}")
        else:
            parts.append(f"{key} changed")
    return "changed by the next run: " + "; ".join(parts)


def _short(value: object) -> str:
    said = one_line(str(value))
    return said if len(said) <= VALUE_CHARS else said[: VALUE_CHARS - 1] + "…"


def new_records(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    """The contradiction records the run would add, one line each (the purifier adds one per
    claim and competitor on every run that flags them)."""
    held = {json.dumps(r, sort_keys=True) for r in before}
    lines = []
    for record in after:
        if json.dumps(record, sort_keys=True) in held:
            continue
        rival = record.get("competingClaimId") or f"the text “{record.get('competingText')}”"
        lines.append(
            f"a new contradiction record {record.get('contradictionClusterId')}: "
            f"{record.get('claimId')} against {rival} ({record.get('relation') or 'contested'})"
        )
    if len(lines) > SHOWN_LINES:
        lines = lines[:SHOWN_LINES] + [f"… and {len(lines) - SHOWN_LINES} more records"]
    return [one_line(line) for line in lines]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []


def view_diff(old: list[str], new: list[str]) -> list[str]:
    """The view's unified diff (no context lines), its run stamps aside: none when only its
    "_Regenerated …" line or its claims' "_Updated: <date>_" would change."""
    matcher = difflib.SequenceMatcher(None, _unstamped(old), _unstamped(new), autojunk=False)
    diff = ["--- ", "+++ "]
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        diff.append(f"@@ -{i1 + 1},{i2 - i1} +{j1 + 1},{j2 - j1} @@")
        diff += [f"-{line}" for line in old[i1:i2]] + [f"+{line}" for line in new[j1:j2]]
    return diff if len(diff) > 2 else []


def _unstamped(lines: list[str]) -> list[str]:
    return [
        "_Regenerated_" if line.startswith("_Regenerated ") else _UPDATED.sub("_Updated_", line)
        for line in lines
    ]


def operations(
    found: Preview, now: str
) -> tuple[list[Operation], list[NoteDiff], ReflectionResult]:
    """The preview as a plan's parts: a changed or new claim is a rewrite (its new text), a
    claim or candidate the run drops or archives is a hide."""
    ops: list[Operation] = []
    diffs: list[NoteDiff] = []
    changes: list[ReflectionChange] = []
    for old, new in found.notes:
        shown = new if new is not None else old
        assert shown is not None
        number = len(ops) + 1
        kind: ChangeType
        if new is None or (fields.hidden(new) and not (old and fields.hidden(old))):
            ops.append(HideOp(id=number, note_id=shown["id"]))
            detail = (
                "dropped by the next run"
                if new is None
                else f"archived by the next run ({(new.get('purifier') or {}).get('status')})"
            )
            kind = "hide"
        else:
            ops.append(
                RewriteOp(id=number, note_id=shown["id"], content=str(new.get("content") or ""))
            )
            detail = found.details.get(shown["id"]) or (
                "a new claim" if old is None else "changed by the next run"
            )
            kind = "rewrite"
        changes.append(
            ReflectionChange(
                type=kind,
                nugget_name=str(shown.get("nuggetName")),
                note_id=shown["id"],
                detail=detail,
            )
        )
        blank = {**shown, "content": "", "tags": [], "links": []}  # its own row, not yet written
        diffs.append(
            NoteDiff(
                note_id=shown["id"],
                before=old if old is not None else blank,
                after=new if new is not None else {**shown, "hidden": True},
            )
        )
    result = ReflectionResult(
        ran_at=now,
        inspected=len(found.notes),
        rewritten=sum(1 for c in changes if c.type == "rewrite"),
        hidden=sum(1 for c in changes if c.type == "hide"),
        changes=changes,
    )
    return ops, diffs, result


def view_lines(found: Preview | None) -> list[str]:
    """Each view the run would regenerate differently: a line with its counts, then its diff
    lines (at most `SHOWN_LINES`)."""
    if found is None:
        return []
    lines = []
    for name, diff in found.views.items():
        body = diff[2:]
        added = sum(1 for line in body if line.startswith("+"))
        removed = sum(1 for line in body if line.startswith("-"))
        lines.append(f"{name}: the next run rewrites it (+{added} −{removed} lines)")
        lines += [f"  {one_line(line)}" for line in body[:SHOWN_LINES]]
        if len(body) > SHOWN_LINES:
            lines.append(f"  … and {len(body) - SHOWN_LINES} more lines")
    return lines


def lines_for(found: Preview | None, note_ids: set[str]) -> list[str]:
    """What the run would write beside these notes' records, for one change's pane: each
    changed view's count line and the lines of its diff that hold one of their texts, the new
    contradiction records and the warnings that name one of them."""
    if found is None:
        return []
    texts = {
        str(note.get("content") or "").strip()
        for pair in found.notes
        for note in pair
        if note is not None and note["id"] in note_ids
    } - {""}
    lines = []
    for name, diff in found.views.items():
        body = diff[2:]
        added = sum(1 for line in body if line.startswith("+"))
        removed = sum(1 for line in body if line.startswith("-"))
        lines.append(f"{name}: the next run rewrites it (+{added} −{removed} lines)")
        held = [line for line in body if line[:1] in "+-" and line[1:].strip() in texts]
        lines += [f"  {one_line(line)}" for line in held[:SHOWN_LINES]]
    named = [line for line in found.records + found.warnings if any(i in line for i in note_ids)]
    return lines + named[:SHOWN_LINES]


def said(found: Preview) -> list[str]:
    """What the preview says besides its plan: the run's line (or that it would skip), the
    warnings its manifest would carry, the contradiction records it would add, its views."""
    if found.skipped:
        return [
            f"preview: the purifier would skip its next run ({found.result.reason or 'its reason'}"
            f"): nothing would change ({found.result.line()})"
        ]
    lines = [f"preview: {found.result.line()}"]
    lines += [f"preview: {warning}" for warning in found.warnings]
    lines += [f"preview: {record}" for record in found.records]
    return lines + view_lines(found)
