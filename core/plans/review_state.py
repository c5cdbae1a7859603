"""The operator's keep/reject decisions on a plan's changes, kept beside the journal
(`<journal home>/review-decisions.json`), so that a review survives leaving it, planning again
and restarting (docs/RUNS.md, "Review decisions").

A change is known by what it does (`change_key`): its kind and the notes and values it writes,
never its number in one plan, so a new plan holding the same change finds its decision again.
The file also holds the keys of the last plan reviewed in each scope (a nugget or all, capped or
not), so that a review can mark the changes that are new since.

Several processes write the file (two consoles, a console and `nuggets daily`): each writer
changes only its part - the keys it decided, the waiting list, one scope's last plan - read
afresh and written back under the file's own lock (`update_state`), so no writer's copy wipes
another's. The lock is not the store's: `daily` holds that one while its pass runs, and a
decision must not wait for it.

API:
- `change_key(op) -> str`; `scope_key(nugget, uncapped) -> str`
- `ReviewState`: `decisions` (key -> kept), `last_plans` (scope -> keys), `stamp` (the file's
  as read: another process wrote it when `state_stamp` differs)
- `read_state(journal_home) -> ReviewState` (`NuggetsError`, one line, when unreadable)
- `update_state(journal_home, edit) -> ReviewState`: `edit` the state as the file holds it now,
  under the file's lock, and write it back (atomically, never through a symlink) when it changed
- `write_state(journal_home, state)`: replace the whole file (a fresh one, tests); writers of
  the project merge their part with `update_state`
- `state_stamp(journal_home)`: the file's stamp now
- `new_since(state, scope, keys) -> set[str]`: the keys the scope's last plan did not hold
- `ReviewState.hold(since, keys, held, held_result)`, `.waiting_count()`: the changes `daily
  --hold` left waiting for a person (their keys, and the operations themselves with their
  result, as JSON), and how many of them nobody decided yet
- `ReviewState.ruled_at`, `.ruled` (`RuleCount`s): when the last `daily` run had review rules
  decide changes, and how many each decided (the console's "since your last visit")
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from core.errors import NuggetsError
from core.journal.entries import journal_dir
from core.journal.guarded_write import file_lock
from core.models import LinkOp, MergeOp, Operation, RetagOp, RewriteOp, SupersedeOp
from core.safeio.atomic_write import atomic_write
from core.safeio.file_stamp import FileStamp
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import read_regular

STATE_FILE = "review-decisions.json"
STATE_BYTES = 64 * 1024 * 1024
STATE_DEPTH = 6  # {"waiting": {"ops": [{"tags": [...]}]}}, {"lastPlans": {"<scope>": [...]}}
MAX_SCOPES = 8  # the last plans remembered: the scopes reviewed most recently


def change_key(op: Operation) -> str:
    """What the change does, hashed: its kind, its notes and what it writes into them."""
    parts: tuple[str, ...]
    if isinstance(op, RewriteOp):
        parts = (op.note_id, op.content)
    elif isinstance(op, RetagOp):
        parts = (op.note_id, *op.tags)
    elif isinstance(op, MergeOp | SupersedeOp):
        parts = (op.winner_id, op.loser_id if isinstance(op, MergeOp) else op.note_id)
    elif isinstance(op, LinkOp):
        parts = (op.note_id, op.other_id, op.reason)
    else:
        parts = (op.note_id,)
    joined = "\x1f".join((op.type, *parts)).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(joined, digest_size=8).hexdigest()


def scope_key(nugget: str | None, uncapped: bool) -> str:
    return f"{'all' if uncapped else 'capped'}:{'' if nugget is None else nugget}"


class RuleCount(NamedTuple):
    """How many changes one review rule decided in a run without a person, and how."""

    rule: str
    action: str  # keep, reject, review
    changes: int


@dataclass
class ReviewState:
    decisions: dict[str, bool] = field(default_factory=dict)  # change key -> kept
    last_plans: dict[str, list[str]] = field(default_factory=dict)  # oldest scope first
    waiting_since: str | None = None  # when `daily --hold` last left changes waiting
    waiting: list[str] = field(default_factory=list)  # their keys
    # the changes themselves as `daily` planned them (operations, then the result of those),
    # so that the console shows exactly what was held
    held: list[dict[str, object]] = field(default_factory=list)
    held_result: dict[str, object] | None = None
    ruled_at: str | None = None  # when the last `daily` run decided anything by a rule
    ruled: list[RuleCount] = field(default_factory=list)  # what each rule decided then
    stamp: FileStamp | None = field(default=None, compare=False)  # the file's when read

    def to_json(self) -> str:
        data: dict[str, object] = {"decisions": self.decisions, "lastPlans": self.last_plans}
        if self.waiting_since is not None:
            waiting: dict[str, object] = {"since": self.waiting_since, "keys": self.waiting}
            if self.held and self.held_result is not None:
                waiting |= {"ops": self.held, "result": self.held_result}
            data["waiting"] = waiting
        if self.ruled_at is not None:
            data["ruled"] = {"at": self.ruled_at, "rules": [list(r) for r in self.ruled]}
        return json.dumps(data, separators=(",", ":")) + "\n"

    def hold(
        self,
        since: str | None,
        keys: list[str],
        held: list[dict[str, object]] | None = None,
        held_result: dict[str, object] | None = None,
    ) -> None:
        self.waiting_since, self.waiting = (since, keys) if keys else (None, [])
        self.held, self.held_result = (held or [], held_result) if keys else ([], None)

    def waiting_count(self) -> int:
        return sum(key not in self.decisions for key in self.waiting)

    def remember_plan(self, scope: str, keys: list[str]) -> None:
        self.last_plans.pop(scope, None)
        self.last_plans[scope] = keys
        while len(self.last_plans) > MAX_SCOPES:
            del self.last_plans[next(iter(self.last_plans))]


def state_path(journal_home: Path) -> Path:
    return journal_dir(journal_home).parent / STATE_FILE


def state_stamp(journal_home: Path) -> FileStamp | None:
    return FileStamp.of(state_path(journal_home))


def read_state(journal_home: Path) -> ReviewState:
    """The decisions kept for this memory (none when the file is absent)."""
    path = state_path(journal_home)
    stamp = FileStamp.of(path)  # before reading: a write in between is seen as news later
    try:
        data = read_regular(path, STATE_BYTES)
    except FileNotFoundError:
        return ReviewState()
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        raw = loads(data.decode("utf-8"), STATE_DEPTH)
        decisions = {
            str(k): bool(v)
            for k, v in dict(raw.get("decisions", {})).items()
            if isinstance(v, bool)
        }
        plans = {
            str(s): [str(k) for k in keys]
            for s, keys in dict(raw.get("lastPlans", {})).items()
            if isinstance(keys, list)
        }
        waiting = dict(raw.get("waiting") or {})
        since, held = waiting.get("since"), waiting.get("keys")
        ops, result = waiting.get("ops"), waiting.get("result")
        ruled = dict(raw.get("ruled") or {})
        ruled_at, counts = ruled.get("at"), _rule_counts(ruled.get("rules"))
    except (ValueError, TypeError, AttributeError) as exc:
        why = f" ({exc})" if isinstance(exc, JsonReadError) else ""
        raise NuggetsError(f"{path}: not a file of review decisions{why}; move it aside") from None
    state = ReviewState(decisions, plans, stamp=stamp)
    if isinstance(ruled_at, str):
        state.ruled_at, state.ruled = ruled_at, counts
    if isinstance(since, str) and isinstance(held, list):
        changes = [op for op in ops if isinstance(op, dict)] if isinstance(ops, list) else []
        state.hold(
            since,
            [str(k) for k in held],
            changes,
            result if isinstance(result, dict) else None,
        )
    return state


def _rule_counts(raw: object) -> list[RuleCount]:
    """The rules' counts as written; an entry of another shape is skipped."""
    if not isinstance(raw, list):
        return []
    return [
        RuleCount(str(r[0]), str(r[1]), r[2])
        for r in raw
        if isinstance(r, list) and len(r) == 3 and isinstance(r[2], int)
    ]


def update_state(journal_home: Path, edit: Callable[[ReviewState], object]) -> ReviewState:
    """Read the file, `edit` the state read and write it back, under the file's own lock: the
    edit changes its part of what the file holds now, whoever else wrote it since. The state
    as it stands after (other writers' parts included). An edit that changes nothing writes
    nothing and takes no lock; `edit` is called once more under the lock when it does."""
    state = read_state(journal_home)
    if not _edited(state, edit):
        return state
    path = state_path(journal_home)
    with file_lock(path):
        state = read_state(journal_home)
        if _edited(state, edit):
            _write(path, state)
            state.stamp = FileStamp.of(path)  # under the lock: no other write in between
    return state


def write_state(journal_home: Path, state: ReviewState) -> None:
    path = state_path(journal_home)
    with file_lock(path):
        _write(path, state)


def _edited(state: ReviewState, edit: Callable[[ReviewState], object]) -> bool:
    before = state.to_json()
    edit(state)
    return state.to_json() != before


def _write(path: Path, state: ReviewState) -> None:
    """An atomic replace, never through a symlink (checked under the lock)."""
    if path.is_symlink():
        raise NuggetsError(
            f"{path}: is a symbolic link; review decisions are not written through one"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, state.to_json().encode("utf-8"), private=True)
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be written: {exc.strerror or exc}") from None


def new_since(state: ReviewState, scope: str, keys: list[str]) -> set[str]:
    """The keys the scope's last plan did not hold (none the first time it is planned)."""
    last = state.last_plans.get(scope)
    if last is None:
        return set()
    before = set(last)
    return {k for k in keys if k not in before}
