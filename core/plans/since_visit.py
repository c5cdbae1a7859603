"""Since the operator's last visit (docs/REVIEW.md, "Since your last visit"): what the runs
written while the console was closed applied and promoted, with the id `nuggets undo` takes,
how many changes wait for a person, and how many changes each review rule decided in the last
run without a person (`nuggets daily`).

The last visit is the moment the console last closed this memory, or its header was dismissed:
`console-visit.json` beside the journal (where the review decisions are), written 0600, by the
console only. Without one (a first visit), every run of the journal is since the last visit.
A file that cannot be read counts as none; one that cannot be written is not written (the
header then shows the same runs again next time, which is all it costs).

Everything is read through the store contract (its journal) and the review decisions file, so
every store answers alike.

API:
- `Visit(seen)`; `read_visit(journal_home) -> datetime | None`;
  `write_visit(journal_home, now) -> bool`
- `RunsSince(changes, undo)`: a kind of run since the visit (`undo`: one run id per batch,
  newest first); `SinceVisit(applied, promoted, waiting, waiting_since, rules)`, `.empty`
- `runs_since(headers, seen, ours) -> (applied, promoted)` (pure: our runs still in effect,
  after `seen`, newest first, but those of `ours`: the open console's own); `rules_since(state,
  seen)`
- `since_visit(store, seen, ours, headers) -> SinceVisit` (reads the journal, unless given its
  headers, and the decisions file)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from core.clock import parse_iso, to_iso
from core.contract.store import Store
from core.errors import NuggetsError
from core.journal.entries import JournalHeader, journal_dir
from core.journal.history import in_effect
from core.plans.review_state import ReviewState, RuleCount, read_state
from core.safeio.atomic_write import atomic_write
from core.safeio.json_read import loads
from core.safeio.open_regular import read_regular

VISIT_FILE = "console-visit.json"
VISIT_BYTES = 4096


@dataclass(frozen=True)
class RunsSince:
    """Runs of one kind since the visit: how many changes (or promotion entries) they wrote,
    how many whole files runs without changes of their own replaced (a store that keeps a note
    per file), and the run ids `nuggets undo` takes, one per batch, newest first."""

    changes: int = 0
    undo: tuple[str, ...] = ()
    files: int = 0


@dataclass(frozen=True)
class SinceVisit:
    applied: RunsSince = field(default_factory=RunsSince)
    promoted: RunsSince = field(default_factory=RunsSince)
    waiting: int = 0  # changes a daily pass since left for a person, nobody decided yet
    waiting_since: str | None = None  # since when they wait
    rules: tuple[RuleCount, ...] = ()  # what each rule decided in the last daily run since

    @property
    def empty(self) -> bool:
        return not (self.applied.undo or self.promoted.undo or self.waiting or self.rules)


def visit_path(journal_home: Path) -> Path:
    return journal_dir(journal_home).parent / VISIT_FILE


def read_visit(journal_home: Path) -> datetime | None:
    """When the console last closed this memory (None: never, or the file cannot be read)."""
    try:
        raw = loads(read_regular(visit_path(journal_home), VISIT_BYTES).decode("utf-8"), 2)
        return parse_iso(raw.get("seen"))
    except (OSError, NuggetsError, ValueError, AttributeError):
        return None


def write_visit(journal_home: Path, now: datetime) -> bool:
    """The visit remembered as `now`; False when it cannot be written (nothing else is)."""
    path = visit_path(journal_home)
    text = json.dumps({"seen": to_iso(now)}) + "\n"
    try:
        if path.is_symlink():
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text.encode("utf-8"), private=True)
    except (OSError, NuggetsError):
        return False
    return True


def runs_since(
    headers: list[JournalHeader], seen: datetime | None, ours: frozenset[str] = frozenset()
) -> tuple[list[JournalHeader], list[JournalHeader]]:
    """Our runs after `seen` that still stand: those that applied a plan (`reflect`) and those
    that promoted, newest first (as the journal lists them). Runs of `ours` (what the person
    did in the open console) are no news to them."""
    applied: list[JournalHeader] = []
    promoted: list[JournalHeader] = []
    for header in headers:
        if header.outcome is not None or header.run_id in ours or not _after(header.at, seen):
            continue
        if header.kind in ("reflect", "promote") and in_effect(headers, header.run_id):
            (applied if header.kind == "reflect" else promoted).append(header)
    return applied, promoted


def undo_ids(runs: list[JournalHeader]) -> tuple[str, ...]:
    """One run id per batch (an undo of one takes its batch back), newest first."""
    ids: list[str] = []
    batches: set[str] = set()
    for header in runs:
        if header.batch is not None:
            if header.batch in batches:
                continue
            batches.add(header.batch)
        ids.append(header.run_id)
    return tuple(ids)


def rules_since(state: ReviewState, seen: datetime | None) -> tuple[RuleCount, ...]:
    """What each review rule decided in the last daily run, when it ran after `seen`."""
    return tuple(state.ruled) if _after(state.ruled_at, seen) else ()


def _after(moment: str | None, seen: datetime | None) -> bool:
    at = parse_iso(moment)
    return at is not None and (seen is None or at > seen)


def since_visit(
    store: Store,
    seen: datetime | None,
    ours: frozenset[str] = frozenset(),
    headers: list[JournalHeader] | None = None,
) -> SinceVisit:
    """What happened to the store's memory since `seen`, but the runs of `ours`; `headers`:
    its journal's, when the caller has just listed them (NuggetsError: its journal cannot be
    listed; a run whose entry cannot be read is counted without its changes)."""
    listed = store.journal.log() if headers is None else headers
    applied, promoted = runs_since(listed, seen, ours)
    try:
        state = read_state(store.journal.home)
    except NuggetsError:
        state = ReviewState()  # the review says why when it opens
    return SinceVisit(
        _written(store, applied, False),
        _written(store, promoted, True),
        state.waiting_count() if _after(state.waiting_since, seen) else 0,
        state.waiting_since,
        rules_since(state, seen),
    )


def _written(store: Store, runs: list[JournalHeader], entries: bool) -> RunsSince:
    """What the runs wrote: their changes (`entries`: the promotion entries), and the files
    of runs that replaced a whole file with no change of their own to count. Counted from the
    headers; a run whose header is older than that count is read whole."""
    changes = files = 0
    for header in runs:
        count = header.changes
        if count is None:
            try:
                entry = store.journal.run(header.run_id)
            except NuggetsError:
                continue
            count = len(entry.promoted or []) if entries else len(entry.operations)
        changes += count
        files += not count and header.file_name is not None
    return RunsSince(changes, undo_ids(runs), files)
