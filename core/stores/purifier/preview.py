"""Previewing the purifier's next run (docs/PURIFIER.md, "Acting through the purifier"): its
orchestrator runs on a temporary copy of the workspace and of its config (sandbox.py: real files
only, its trigger off, its telemetry in the copy too), and the claims and views it would change
become a plan whose changes are diffs. Nothing of the real workspace, config or telemetry is
written."""

from __future__ import annotations

import difflib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

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
from core.stores.purifier import paths, runner, sandbox
from core.stores.purifier.artifacts import read_artifacts
from core.stores.purifier.notes import purifier_notes


@dataclass
class Preview:
    """What the next run would change: the run's report, each changed note before and after
    (new claims: `before` None), and each changed view's unified diff."""

    result: runner.RunResult
    notes: list[tuple[RawNote | None, RawNote | None]] = field(default_factory=list)
    views: dict[str, list[str]] = field(default_factory=dict)


def preview(
    workspace: Path,
    found: runner.Installation,
    mode: str,
    acknowledge_upgrade: bool,
    extra: tuple[str, ...],
    before: list[RawNote],
) -> Preview:
    """Run the purifier on a copy of `workspace` and compare the copy with `before` (the notes
    as read) and the workspace's views."""
    with _temporary() as temp:
        box = sandbox.make(workspace, found.config, Path(temp))
        argv = runner.command(
            found, box.workspace, mode, box.telemetry, acknowledge_upgrade, extra, config=box.config
        )
        result = runner.run(argv, box.workspace)
        after = purifier_notes(read_artifacts(box.workspace))
        views = {name: _view_diff(workspace / name, box.workspace / name) for name in paths.VIEWS}
    return Preview(
        result,
        changed_notes(before, after),
        {name: lines for name, lines in views.items() if lines},
    )


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


def changed_notes(
    before: list[RawNote], after: list[RawNote]
) -> list[tuple[RawNote | None, RawNote | None]]:
    """Each note whose record differs, in the order of `after`, then those gone."""
    old = {note["id"]: note for note in before}
    new = {note["id"]: note for note in after}
    changed: list[tuple[RawNote | None, RawNote | None]] = [
        (old.get(i), note) for i, note in new.items() if _record(old.get(i)) != _record(note)
    ]
    return changed + [(note, None) for i, note in old.items() if i not in new]


def _record(note: RawNote | None) -> object:
    """What a change is judged by: the note without the run that last touched it."""
    if note is None:
        return None
    own = {
        k: v
        for k, v in (note.get("purifier") or {}).items()
        if k not in ("updatedInRunId", "updatedAt", "run")
    }
    return ({k: v for k, v in note.items() if k not in ("purifier", "updatedAt")}, own)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []


def _view_diff(old: Path, new: Path) -> list[str]:
    """The view's unified diff, none when only its "_Regenerated …" stamp would change."""
    diff = [
        line
        for line in difflib.unified_diff(_lines(old), _lines(new), lineterm="", n=0)
        if not line[1:].startswith("_Regenerated ")
    ]
    return diff if any(line[:1] in "+-" for line in diff[2:]) else []


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
            detail = "a new claim" if old is None else "changed by the next run"
            kind = "rewrite"
        changes.append(
            ReflectionChange(
                type=kind,
                nugget_name=str(shown.get("nuggetName")),
                note_id=shown["id"],
                detail=detail,
            )
        )
        blank = {**shown, "content": "", "title": "(not yet a claim)", "tags": []}
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
    """Each view the run would regenerate differently, one line with its counts."""
    if found is None:
        return []
    lines = []
    for name, diff in found.views.items():
        added = sum(1 for line in diff[2:] if line.startswith("+"))
        removed = sum(1 for line in diff[2:] if line.startswith("-"))
        lines.append(f"{name}: the next run rewrites it (+{added} −{removed} lines)")
    return lines
