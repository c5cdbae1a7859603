"""The agent's changes since the last review, as a plan (docs/CLAUDE_CODE.md, "The agent's
changes"): each topic file added, edited or deleted, and MEMORY.md edited, between the reviewed
baseline and the directory as it is, is one operation with both versions as notes. Keeping a
change accepts it; applying puts each change left out back as it was. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from core.models import (
    HideOp,
    NoteDiff,
    Operation,
    Plan,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    RewriteOp,
)
from core.notes.snapshot import fingerprint
from core.stores.claude.budget import Proposal
from core.stores.claude.directory import Files
from core.stores.claude.notes import index_note, topic_note
from core.stores.claude.paths import INDEX
from core.stores.claude.seen import State, sha

Kind = Literal["added", "edited", "deleted"]


@dataclass(frozen=True)
class Change:
    name: str
    kind: Kind
    before: bytes | None  # the reviewed version (None: the file was not there)
    after: bytes | None  # as it is now (None: deleted)


def files_fingerprint(files: Files) -> str:
    raw = b"".join(name.encode() + b"\0" + sha(data).encode() + b"\0"
                   for name, data in sorted(files.data.items()))
    return fingerprint(raw)


def changes_since(baseline: State, files: Files,
                  blob: Callable[[str], bytes | None]) -> tuple[list[Change], list[str]]:
    """Each file that differs from the baseline; what cannot be compared (a reviewed version
    whose copy is missing), one line each."""
    found, missing = [], []
    for name in sorted(set(baseline.files) | set(files.data)):
        digest, now = baseline.files.get(name), files.data.get(name)
        if now is not None and digest == sha(now):
            continue
        before = blob(digest) if digest else None
        if digest and before is None:
            missing.append(f"{name}: its reviewed version's copy is missing; not compared")
            continue
        kind: Kind = "added" if before is None else "deleted" if now is None else "edited"
        found.append(Change(name, kind, before, now))
    return found, missing


def file_note(name: str, data: bytes, at: str) -> RawNote:
    if name == INDEX:
        return index_note(data, at, set())[0]
    return topic_note(name, data, at, None)


def _diff(change: Change, at: str, reviewed_at: str) -> NoteDiff:
    before = file_note(change.name, change.before or b"", reviewed_at)
    if change.after is None:
        after = dict(before, hidden=True, archivedAt=at)
    else:
        after = file_note(change.name, change.after, at)
    if change.before is None:  # a new file: named as it is now, from nothing
        before = dict(before, title=after["title"], nuggetName=after["nuggetName"])
    return NoteDiff(note_id=change.name, before=before, after=after)


def _operation(number: int, change: Change, after: RawNote) -> Operation:
    if change.kind == "deleted":
        return HideOp(id=number, note_id=change.name)
    return RewriteOp(id=number, note_id=change.name, content=after["content"])


def _detail(change: Change) -> str:
    what = {"added": "the agent added this file", "edited": "the agent rewrote this file",
            "deleted": "the agent deleted this file"}[change.kind]
    return f"{what}; keep it, or leave it out to put back the reviewed version"


def changes_plan(changes: list[Change], base: str, at: str, reviewed_at: str,
                 inspected: int) -> Plan:
    diffs = [_diff(c, at, reviewed_at) for c in changes]
    operations = [_operation(i, c, d.after)
                  for i, (c, d) in enumerate(zip(changes, diffs, strict=True), start=1)]
    result = ReflectionResult(
        ran_at=at, inspected=inspected,
        rewritten=sum(c.kind != "deleted" for c in changes),
        hidden=sum(c.kind == "deleted" for c in changes),
        changes=[ReflectionChange(type="hide" if c.kind == "deleted" else "rewrite",
                                  nugget_name=str(d.after.get("nuggetName") or ""),
                                  note_id=c.name, detail=_detail(c))
                 for c, d in zip(changes, diffs, strict=True)])
    return Plan(ran_at=at, base_fingerprint=base, limit=0, uncapped=True, result=result,
                operations=operations, notes=diffs)


def proposal_detail(proposal: Proposal) -> str:
    fits = "" if proposal.fits else " (still past it: merge topics to shorten the index)"
    return (f"{INDEX} is past its load budget: move {proposal.moved} lines of detail to "
            f"{proposal.detail_name}, a new topic file one new entry names; every entry "
            f"stays{fits}")


def add_budget_proposal(plan: Plan, current: bytes, proposal: Proposal, at: str) -> None:
    """The proposal as one more operation on MEMORY.md, left out unless kept (its new topic
    file is written with it: the store's side file)."""
    before = file_note(INDEX, current, at)
    after = file_note(INDEX, proposal.index_text.encode(), at)
    number = len(plan.operations) + 1
    plan.operations.append(RewriteOp(id=number, note_id=INDEX, content=after["content"]))
    plan.notes.append(NoteDiff(note_id=INDEX, before=before, after=after))
    plan.result.changes.append(ReflectionChange(type="rewrite", nugget_name="index",
                                                note_id=INDEX, detail=proposal_detail(proposal)))
    plan.result.rewritten += 1
    plan.unkept_by_default.append(number)
