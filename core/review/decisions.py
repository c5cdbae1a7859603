"""The operator's decision on a contradiction group (docs/VERDICTS.md, "Deciding"), as an
ordinary plan.

- *one stands*: every other member is archived with a link to the kept note, reason
  `superseded by <id>` (a `SupersedeOp` each);
- *merge*: the others are merged into the kept note by the reflection merge (a `MergeOp` each);
- *both stand*: nothing is written to the notes; the group is remembered in a small file beside
  the journal (`<home>/conflicts-settled.json`), keyed on the members' ids and contents as the
  agent's rewrites leave them (`settled_form`), so it is not asked again until one of them
  changes what it says.

The plans go through `Memory.apply` like the pass's: reviewed as a diff, journaled, undoable.

API:
- `decision_operations(group, keep, how, ran_at) -> tuple[list[Operation], ReflectionResult]`
  (pure; `how` is "keep" or "merge"; `UnknownNoteError` when `keep` is not a member)
- `plan_decision(store, group, keep, how="keep", graph=None) -> Plan` (refused in the store's
  words when it has no decider: `require_plans(store) -> Decider`)
- `settled_key(notes) -> str`, `is_settled(notes, settled) -> bool`,
  `read_settled(home, notices=None) -> set[str]`,
  `settle_both(store, group, notes_by_id) -> JournalEntry | None` (None: already remembered),
  `open_groups(groups, notes_by_id, settled) -> list[Group]` (groups not settled as both stand),
  `standing_apart(notes, rules, settled) -> dict[str, int]` (note id -> the number of the group
  it was let stand in, for the pass: notes let stand together are never merged together)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Literal

from core.clock import to_iso
from core.contract.absent import refused
from core.contract.parts import Decider
from core.contract.store import Store
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
from core.notes.agent_normalize import settled_form
from core.notes.js_strings import js_trim
from core.notes.snapshot import Graph
from core.review.contradictions import Group, TopicRules, find_by_rules
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import read_regular

How = Literal["keep", "merge"]
SETTLED_FILE = "conflicts-settled.json"
SETTLED_BYTES = 16 * 1024 * 1024
SETTLED_DEPTH = 2  # {"bothStand": ["<key>", ...]}


def decision_operations(
    group: Group, keep: str, how: How, ran_at: str, nugget_of: Mapping[str, str] | None = None
) -> tuple[list[Operation], ReflectionResult]:
    """The operations of keeping `keep` (the others superseded, or merged into it)."""
    if keep not in group.note_ids:
        raise UnknownNoteError(
            f"note {keep} is not in group {group.id} (its notes: {', '.join(group.note_ids)})"
        )
    operations: list[Operation] = []
    changes: list[ReflectionChange] = []
    nugget_of = nugget_of or {}
    for other in (i for i in group.note_ids if i != keep):
        op_id = len(operations) + 1
        nugget = nugget_of.get(other, group.nugget)
        if how == "merge":
            operations.append(MergeOp(id=op_id, winner_id=keep, loser_id=other))
            changes.append(
                ReflectionChange(
                    type="merge",
                    nugget_name=nugget,
                    note_id=keep,
                    detail=f"Merged contradicting note {other}",
                )
            )
        else:
            operations.append(SupersedeOp(id=op_id, note_id=other, winner_id=keep))
            changes.append(
                ReflectionChange(
                    type="hide", nugget_name=nugget, note_id=other, detail=f"Superseded by {keep}"
                )
            )
    count = len(operations)
    result = ReflectionResult(
        ran_at=ran_at,
        inspected=len(group.note_ids),
        changes=changes,
        merged=count if how == "merge" else 0,
        hidden=count if how == "keep" else 0,
    )
    return operations, result


def plan_decision(
    memory: Store, group: Group, keep: str, how: How = "keep", graph: Graph | None = None
) -> Plan:
    """The decision as a plan on the store (refused in its words without a decider)."""
    decider = require_plans(memory)
    if graph is None:
        graph = memory.read()
    nugget_of = {}
    for note_id in group.note_ids:
        note = graph.get(note_id)
        if note is None:
            raise StalePlanError(
                f"note {note_id} of group {group.id} is gone; list the groups again"
            )
        nugget_of[note_id] = fields.nugget(note)
    operations, result = decision_operations(group, keep, how, to_iso(memory.clock()), nugget_of)
    return decider.plan_operations(operations, result, graph=graph)


def require_plans(memory: Store) -> Decider:
    """The store's decider; a store without one refuses in one line, in its own words."""
    if memory.decider is None:
        raise refused(memory, "a decision")
    return memory.decider


# -- both stand ---------------------------------------------------------------------------------


def settled_key(notes: Iterable[RawNote]) -> str:
    """Changes when a member's title or content changes other than by the agent's own
    whitespace rewrites (its save and its pass, `settled_form`), or the members change."""
    return _key(
        f"{n['id']}\x00{js_trim(fields.text(n, 'title'))}\x00"
        f"{settled_form(fields.text(n, 'content'))}"
        for n in notes
    )


def _raw_key(notes: Iterable[RawNote]) -> str:
    """The key of groups let stand before keys ignored the agent's rewrites: raw text."""
    return _key(
        f"{n['id']}\x00{fields.text(n, 'title')}\x00{fields.text(n, 'content')}" for n in notes
    )


def _key(parts: Iterable[str]) -> str:
    joined = "\x01".join(sorted(parts))
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def is_settled(notes: Iterable[RawNote], settled: Collection[str]) -> bool:
    """Whether the group of `notes` was let stand as it now reads (a key written before keys
    ignored the agent's rewrites counts while the raw text is unchanged)."""
    if not settled:
        return False
    members = list(notes)
    return settled_key(members) in settled or _raw_key(members) in settled


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
        raise NuggetsError(f"{path}: not a list of settled conflicts{why}; move it aside") from None


def settle_both(
    store: Store, group: Group, notes_by_id: Mapping[str, RawNote]
) -> JournalEntry | None:
    """Remember that both (all) notes of the group stand, as a journaled run of the store
    (kind "decide", undone like any run); None when already remembered."""
    path = settled_path(store.journal.home)
    settled, before = _read_settled(path)
    members = [notes_by_id[i] for i in group.note_ids]
    if is_settled(members, settled):
        return None
    key = settled_key(members)
    after = json.dumps({"bothStand": sorted(settled | {key})}, indent=2) + "\n"
    return store.journal.write_file(
        path, before, after, "decide", f"both stand: {group.topic} ({group.id})"
    )


def open_groups(
    groups: list[Group], notes_by_id: Mapping[str, RawNote], settled: set[str]
) -> list[Group]:
    """The groups still to decide: those not let stand as they now read."""
    if not settled:
        return groups
    return [g for g in groups if not is_settled((notes_by_id[i] for i in g.note_ids), settled)]


def standing_apart(notes: list[RawNote], rules: TopicRules, settled: set[str]) -> dict[str, int]:
    """The notes of every group let both stand, as it now reads: id -> the group's number."""
    if not settled:
        return {}
    by_id = {n["id"]: n for n in notes}
    apart: dict[str, int] = {}
    for number, group in enumerate(find_by_rules(notes, rules)):
        if is_settled((by_id[i] for i in group.note_ids), settled):
            apart.update(dict.fromkeys(group.note_ids, number))
    return apart
