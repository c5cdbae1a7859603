"""The operator's decision on a contradiction group (docs/VERDICTS.md, "Deciding"), as an
ordinary plan.

- *one stands*: every other member is archived with a link to the kept note, reason
  `superseded by <id>` (a `SupersedeOp` each);
- *merge*: the others are merged into the kept note by the reflection merge (a `MergeOp` each);
- *both stand*: nothing is written to the notes; the group is remembered in a small file beside
  the journal (`<home>/conflicts-settled.json`), keyed on the members' ids and contents, so it
  is not asked again until one of them changes.

The plans go through `Memory.apply` like the pass's: reviewed as a diff, journaled, undoable.

API:
- `decision_operations(group, keep, how, ran_at) -> tuple[list[Operation], ReflectionResult]`
  (pure; `how` is "keep" or "merge"; `UnknownNoteError` when `keep` is not a member)
- `plan_decision(memory, group, keep, how="keep", graph=None) -> Plan`
- `settled_key(notes) -> str`, `read_settled(home, notices=None) -> set[str]`,
  `settle_both(home, group, notes_by_id) -> bool` (False: already remembered),
  `open_groups(groups, notes_by_id, settled) -> list[Group]` (groups not settled as both stand),
  `standing_apart(notes, rules, settled) -> dict[str, int]` (note id -> the number of the group
  it was let stand in, for the pass: notes let stand together are never merged together)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from core.errors import NuggetsError, StalePlanError, UnknownNoteError
from core.journal.entries import journal_dir
from core.models import (
    JournalEntry,
    MergeOp,
    Operation,
    Plan,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    SupersedeOp,
)
from core.notes import fields
from core.notes.snapshot import Graph
from core.review.contradictions import Group, TopicRules, find_by_rules
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import read_regular

How = Literal["keep", "merge"]
SETTLED_FILE = "conflicts-settled.json"
SETTLED_BYTES = 16 * 1024 * 1024
SETTLED_DEPTH = 2  # {"bothStand": ["<key>", ...]}


def decision_operations(group: Group, keep: str, how: How, ran_at: str,
                        nugget_of: Mapping[str, str] | None = None
                        ) -> tuple[list[Operation], ReflectionResult]:
    """The operations of keeping `keep` (the others superseded, or merged into it)."""
    if keep not in group.note_ids:
        raise UnknownNoteError(f"note {keep} is not in group {group.id} "
                               f"(its notes: {', '.join(group.note_ids)})")
    operations: list[Operation] = []
    changes: list[ReflectionChange] = []
    nugget_of = nugget_of or {}
    for other in (i for i in group.note_ids if i != keep):
        op_id = len(operations) + 1
        nugget = nugget_of.get(other, group.nugget)
        if how == "merge":
            operations.append(MergeOp(id=op_id, winner_id=keep, loser_id=other))
            changes.append(ReflectionChange(type="merge", nugget_name=nugget, note_id=keep,
                                            detail=f"Merged contradicting note {other}"))
        else:
            operations.append(SupersedeOp(id=op_id, note_id=other, winner_id=keep))
            changes.append(ReflectionChange(type="hide", nugget_name=nugget, note_id=other,
                                            detail=f"Superseded by {keep}"))
    count = len(operations)
    result = ReflectionResult(ran_at=ran_at, inspected=len(group.note_ids), changes=changes,
                              merged=count if how == "merge" else 0,
                              hidden=count if how == "keep" else 0)
    return operations, result


def plan_decision(memory: Any, group: Group, keep: str, how: How = "keep",
                  graph: Graph | None = None) -> Plan:
    """The decision as a plan on `memory` (a `Memory`, or any store with `plan_operations`)."""
    require_plans(memory)
    if graph is None:
        graph = memory.read()
    nugget_of = {}
    for note_id in group.note_ids:
        note = graph.get(note_id)
        if note is None:
            raise StalePlanError(f"note {note_id} of group {group.id} is gone; list the "
                                   "groups again")
        nugget_of[note_id] = fields.nugget(note)
    operations, result = decision_operations(group, keep, how, memory.now(), nugget_of)
    plan: Plan = memory.plan_operations(operations, result, graph=graph)
    return plan


def require_plans(memory: Any) -> None:
    """A store that cannot plan decided operations yet says so in one line."""
    if not callable(getattr(memory, "plan_operations", None)):
        system = getattr(memory, "system", "this memory")
        raise NuggetsError(f"deciding contradictions and acting on verdicts is not available "
                           f"for {system} yet")


# -- both stand ---------------------------------------------------------------------------------


def settled_key(notes: Iterable[RawNote]) -> str:
    """Changes when a member's content (or title) changes, or the members change."""
    parts = sorted(f"{n['id']}\x00{fields.text(n, 'title')}\x00{fields.text(n, 'content')}"
                   for n in notes)
    return hashlib.sha256("\x01".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def settled_path(home: Path) -> Path:
    return journal_dir(home).parent / SETTLED_FILE


def read_settled(home: Path, notices: list[str] | None = None) -> set[str]:
    """The keys of the groups the operator let both stand (none when the file is absent).

    With `notices`, a file that cannot be read is said there, in one line, and read as no
    groups let stand, so that listing and deciding contradictions goes on; without, it is an
    error. (Letting another group stand is refused while it cannot be read: it is never
    written over.)"""
    try:
        return _read_settled(settled_path(home))[0]
    except NuggetsError as exc:
        if notices is None:
            raise
        notices.append(f"{exc}; no group is taken as let stand until then")
        return set()


def _read_settled(path: Path) -> tuple[set[str], str | None]:
    """The keys, and the file's text (None: no file)."""
    try:
        data = read_regular(path, SETTLED_BYTES)
    except FileNotFoundError:
        return set(), None
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
        keys = loads(text, SETTLED_DEPTH)["bothStand"]
        if not isinstance(keys, list):
            raise TypeError("bothStand is not a list")
        return {str(k) for k in keys}, text
    except (ValueError, KeyError, TypeError) as exc:
        why = f" ({exc})" if isinstance(exc, JsonReadError) else ""
        raise NuggetsError(f"{path}: not a list of settled conflicts{why}; move it "
                           "aside") from None


def settle_both(store: Any, group: Group,
                notes_by_id: Mapping[str, RawNote]) -> JournalEntry | None:
    """Remember that both (all) notes of the group stand, as a journaled run of the store
    (kind "decide", undone like any run); None when already remembered."""
    path = settled_path(store.journal_home)
    settled, before = _read_settled(path)
    key = settled_key(notes_by_id[i] for i in group.note_ids)
    if key in settled:
        return None
    after = json.dumps({"bothStand": sorted(settled | {key})}, indent=2) + "\n"
    entry: JournalEntry = store.write_file(path, before, after, "decide",
                                           f"both stand: {group.topic} ({group.id})")
    return entry


def open_groups(groups: list[Group], notes_by_id: Mapping[str, RawNote],
                settled: set[str]) -> list[Group]:
    """The groups still to decide: those not let stand as they now read."""
    if not settled:
        return groups
    return [g for g in groups
            if settled_key(notes_by_id[i] for i in g.note_ids) not in settled]


def standing_apart(notes: list[RawNote], rules: TopicRules, settled: set[str]) -> dict[str, int]:
    """The notes of every group let both stand, as it now reads: id -> the group's number."""
    if not settled:
        return {}
    by_id = {n["id"]: n for n in notes}
    apart: dict[str, int] = {}
    for number, group in enumerate(find_by_rules(notes, rules)):
        if settled_key(by_id[i] for i in group.note_ids) in settled:
            apart.update(dict.fromkeys(group.note_ids, number))
    return apart
