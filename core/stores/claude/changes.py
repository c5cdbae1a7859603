"""The agent's changes since the last review, as a plan (docs/CLAUDE_CODE.md, "The agent's
changes"): each topic file added, edited or deleted, and MEMORY.md edited, between the reviewed
baseline and the directory as it is, is one operation with both versions as notes. Keeping a
change accepts it; applying puts each change left out back as it was. Pure."""

from __future__ import annotations

import difflib
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
from core.stores.claude import index
from core.stores.claude.budget import Proposal
from core.stores.claude.directory import Files
from core.stores.claude.hygiene import Fix
from core.stores.claude.merge import Merge
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
    raw = b"".join(
        name.encode() + b"\0" + sha(data).encode() + b"\0"
        for name, data in sorted(files.data.items())
    )
    return fingerprint(raw)


def changes_since(
    baseline: State, files: Files, blob: Callable[[str], bytes | None]
) -> tuple[list[Change], list[str]]:
    """Each file that differs from the baseline; what cannot be compared (a reviewed version
    whose copy is missing), one line each."""
    found, missing = [], []
    for name in sorted(set(baseline.files) | set(files.data)):
        if name in files.unread:
            continue  # there, but not read: neither a change nor a deletion
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


def _detail(change: Change) -> str:
    what = {
        "added": "the agent added this file",
        "edited": "the agent rewrote this file",
        "deleted": "the agent deleted this file",
    }[change.kind]
    return f"{what}; keep it, or leave it out to put back the reviewed version"


@dataclass(frozen=True)
class Item:
    """One change of the plan: an operation's kind, its notes, what it says."""

    hide: bool
    diff: NoteDiff
    detail: str


def lines_of(data: bytes) -> list[str] | None:
    try:
        return index.lines_with_ends(data.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def index_hunks(before: list[str], after: list[str]) -> list[tuple[int, int, int, int]]:
    """The runs of index lines that differ: (from, to) in the reviewed version, then now."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def merged_index(before: list[str], after: list[str], kept: set[int]) -> str:
    """MEMORY.md as it is with each hunk not in `kept` (1-based) put back as reviewed."""
    out, at = [], 0
    for number, (i1, i2, j1, j2) in enumerate(index_hunks(before, after), start=1):
        out += after[at:j1]
        out += after[j1:j2] if number in kept else before[i1:i2]
        at = j2
    return "".join(out + after[at:])


def hunk_id(number: int) -> str:
    return f"{INDEX}:{number}"


def _what_lines(old: int, new: int) -> str:
    if not old:
        return f"the agent added {new} line(s) to {INDEX}"
    if not new:
        return f"the agent removed {old} line(s) of {INDEX}"
    return f"the agent rewrote {old} line(s) of {INDEX} as {new}"


def _hunk_items(change: Change, at: str, reviewed_at: str) -> list[Item] | None:
    before = lines_of(change.before or b"")
    after = lines_of(change.after or b"")
    if before is None or after is None:
        return None
    base = file_note(INDEX, b"", reviewed_at)
    items = []
    for number, (i1, i2, j1, j2) in enumerate(index_hunks(before, after), start=1):
        where = (
            f"lines {j1 + 1}-{j2}"
            if j2 > j1 + 1
            else f"line {j1 + 1}"
            if j2 > j1
            else f"after line {j1}"
        )
        note = dict(base, id=hunk_id(number), title=f"{INDEX} {where}", links=[])
        items.append(
            Item(
                False,
                NoteDiff(
                    note_id=hunk_id(number),
                    before=dict(note, content="".join(before[i1:i2]), firstLine=i1 + 1),
                    after=dict(note, content="".join(after[j1:j2]), updatedAt=at, firstLine=j1 + 1),
                ),
                f"{_what_lines(i2 - i1, j2 - j1)}; keep it, or leave it out to put back the "
                "reviewed lines",
            )
        )
    return items


def _items(change: Change, at: str, reviewed_at: str) -> list[Item]:
    if change.name == INDEX and change.kind == "edited":
        hunks = _hunk_items(change, at, reviewed_at)
        if hunks is not None:
            return hunks
    return [Item(change.kind == "deleted", _diff(change, at, reviewed_at), _detail(change))]


def changes_plan(
    changes: list[Change], base: str, at: str, reviewed_at: str, inspected: int
) -> Plan:
    items = [item for c in changes for item in _items(c, at, reviewed_at)]
    operations: list[Operation] = [
        HideOp(id=i, note_id=item.diff.note_id)
        if item.hide
        else RewriteOp(id=i, note_id=item.diff.note_id, content=item.diff.after["content"])
        for i, item in enumerate(items, start=1)
    ]
    result = ReflectionResult(
        ran_at=at,
        inspected=inspected,
        rewritten=sum(not item.hide for item in items),
        hidden=sum(item.hide for item in items),
        changes=[
            ReflectionChange(
                type="hide" if item.hide else "rewrite",
                nugget_name=str(item.diff.after.get("nuggetName") or ""),
                note_id=item.diff.note_id,
                detail=item.detail,
            )
            for item in items
        ],
    )
    return Plan(
        ran_at=at,
        base_fingerprint=base,
        limit=0,
        uncapped=True,
        result=result,
        operations=operations,
        notes=[item.diff for item in items],
    )


def proposal_detail(proposal: Proposal) -> str:
    fits = "" if proposal.fits else " (still past it: merge topics to shorten the index)"
    into = [m.name for m in proposal.files if m.before is not None]
    new = [m.name for m in proposal.files if m.before is None]
    where = [f"the topic file(s) their entries name ({', '.join(into)})"] if into else []
    where += [f"new topic file(s) one new entry each names ({', '.join(new)})"] if new else []
    cut = proposal.cut()
    past = f"; recall would show only part of {', '.join(cut)}" if cut else ""
    return (
        f"{INDEX} is past its load budget: move {proposal.moved} lines of detail into "
        f"{' and '.join(where)}; every entry stays{fits}{past}"
    )


def add_budget_proposal(plan: Plan, current: bytes, proposal: Proposal, at: str) -> None:
    """The proposal as one more operation on MEMORY.md, left out unless kept (its new topic
    file is written with it: the store's side file)."""
    before = file_note(INDEX, current, at)
    after = file_note(INDEX, proposal.index_text.encode(), at)
    after["claude"] = dict(
        after["claude"],
        detailFiles=[[m.name, m.lines, m.before is None] for m in proposal.files],
        moved=proposal.moved,
    )  # what the confirmation names
    number = len(plan.operations) + 1
    plan.operations.append(RewriteOp(id=number, note_id=INDEX, content=after["content"]))
    plan.notes.append(NoteDiff(note_id=INDEX, before=before, after=after))
    plan.result.changes.append(
        ReflectionChange(
            type="rewrite", nugget_name="index", note_id=INDEX, detail=proposal_detail(proposal)
        )
    )
    plan.result.rewritten += 1
    plan.unkept_by_default.append(number)


def add_fixes(plan: Plan, fixes: list[Fix], at: str) -> None:
    """Each hygiene fix as one more change of its own, left out unless kept."""
    base = file_note(INDEX, b"", at)
    for fix in fixes:
        number = len(plan.operations) + 1
        title = f"{INDEX}: {'add' if fix.added else 'remove'} {fix.line.strip()[:60]}"
        note = dict(base, id=fix.note_id, title=title, links=[])
        before = dict(note, content="" if fix.added else fix.line)
        after = dict(note, content=fix.line if fix.added else "")
        plan.operations.append(RewriteOp(id=number, note_id=fix.note_id, content=after["content"]))
        plan.notes.append(NoteDiff(note_id=fix.note_id, before=before, after=after))
        plan.result.changes.append(
            ReflectionChange(
                type="rewrite", nugget_name="index", note_id=fix.note_id, detail=fix.detail
            )
        )
        plan.result.rewritten += 1
        plan.unkept_by_default.append(number)


def add_merges(plan: Plan, merges: list[Merge], files: Files, at: str) -> None:
    """Each merge as one more change, left out unless kept: the kept file's rewrite, with the
    removed file archived and its index lines going shown beside it."""
    for merge in merges:
        number = len(plan.operations) + 1
        before = file_note(merge.kept, files.data[merge.kept], at)
        after = file_note(merge.kept, merge.text.encode(), at)
        gone = file_note(merge.removed, files.data[merge.removed], at)
        archived = dict(
            gone, hidden=True, archivedAt=at, claude=dict(gone["claude"], mergedInto=merge.kept)
        )
        plan.operations.append(RewriteOp(id=number, note_id=merge.kept, content=merge.text))
        plan.notes += [
            NoteDiff(note_id=merge.kept, before=before, after=after),
            NoteDiff(note_id=merge.removed, before=gone, after=archived),
        ]
        if merge.index_lines:
            lines = "".join(e.text + "\n" for e in merge.index_lines)
            base = file_note(INDEX, b"", at)
            note = dict(
                base,
                id=merge_index_id(merge.removed),
                links=[],
                title=f"{INDEX}: the entries naming {merge.removed}",
                claude=dict(base["claude"], mergedInto=merge.kept),
            )
            plan.notes.append(
                NoteDiff(
                    note_id=note["id"],
                    before=dict(note, content=lines),
                    after=dict(note, content=""),
                )
            )
        plan.result.changes.append(
            ReflectionChange(
                type="merge",
                nugget_name=str(after.get("nuggetName") or ""),
                note_id=merge.kept,
                detail=merge.detail(),
            )
        )
        plan.result.merged += 1
        plan.unkept_by_default.append(number)


def merge_index_id(removed: str) -> str:
    """The id of the preview of the index lines a merge removes."""
    return f"{INDEX}~{removed}"
