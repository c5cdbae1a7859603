"""The state of one reflection pass in progress, shared by its phases (see reflect.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from core.models import (
    ChangeType,
    MergeOp,
    Operation,
    RawNote,
    ReflectionChange,
    ReflectionResult,
)
from core.notes import fields
from core.notes.text import note_tokens
from core.notes.working_set import Workspace, replay
from core.progress import Progress, Stopped
from core.reflection.merge_index import token_mask

COUNTERS = {
    "rewrite": "rewritten",
    "merge": "merged",
    "hide": "hidden",
    "tag": "tagged",
    "link": "linked",
}

GroupKey = tuple[str, str, str, str]
# The group key held for a note outside the pass's scope: no phase reads it.
NO_GROUP: GroupKey = ("", "", "", "")
_ONLY_STR = frozenset((str,))


def group_key(note: RawNote) -> GroupKey:
    """Nugget, subject, scope and type: notes merge only within one group (docs/PASS.md,
    "Phase 3")."""
    key = (note.get("nuggetName"), note.get("subject"), note.get("scope"), note.get("type"))
    if _ONLY_STR.issuperset(map(type, key)):
        return cast(GroupKey, key)
    # A legacy nugget name, or metadata the agent would infer.
    return (
        fields.nugget(note),
        fields.meta(note, "subject"),
        fields.meta(note, "scope"),
        fields.meta(note, "type"),
    )


CHECK_EVERY = 256  # notes a phase walks between two looks at `should_stop`


class PassCancelled(Stopped):
    """The caller's `should_stop` said to stop: the pass ended early and planned nothing."""


class PassRun:
    """The working notes, what the pass did so far, and per-note caches by position."""

    def __init__(
        self,
        notes: list[RawNote],
        now: str,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.should_stop = should_stop
        self.progress = progress
        # For `progress`, in units of work: a note walked by a phase costs its phase's weight.
        self.walked = 0  # units the phases before the current one did
        self.total = 0  # units in all (exact once the pass order is known)
        self.weight = 1  # the current phase's
        self.ws = Workspace(notes)
        self.notes = self.ws.notes  # the notes as they stand, by position (edits swap items)
        self.now = now
        self.operations: list[Operation] = []
        self.changes: list[ReflectionChange] = []
        self.counts = dict.fromkeys(COUNTERS.values(), 0)
        self.touched: set[int] = set()  # archived in phase 2 or merged in phase 3
        self.group_keys: list[GroupKey] = [NO_GROUP] * len(notes)  # of the notes in scope
        # Each note's tokens; their set and its mask (merge_index.token_mask) are made together.
        self._tokens: list[list[str] | None] = [None] * len(notes)
        self.sets: list[frozenset[str] | None] = [None] * len(notes)
        self.masks: list[int] = [0] * len(notes)
        # One string per distinct token, not one per note that has it: ~100 MB less at 100k
        # notes, and the pass ends without freeing millions of strings.
        same_token: dict[str, str] = {}
        self._same_token = same_token.setdefault

    def check(self, place: int = 0) -> None:
        """Called between phases and every few hundred notes (`place`: the current phase's
        notes walked so far): stop when the caller asks; else say how far the pass is."""
        if self.should_stop is not None and self.should_stop():
            raise PassCancelled
        if self.progress is not None and self.total:
            self.progress(self.walked + place * self.weight, self.total)

    def phase_done(self, walked: int, next_weight: int = 1) -> None:
        """A phase walked `walked` notes; the next one, of `next_weight`, counts on."""
        self.walked += walked * self.weight
        self.weight = next_weight
        self.check()

    def record(self, op: Operation, change_type: ChangeType, position: int, detail: str) -> None:
        self.operations.append(op)
        self.changes.append(
            ReflectionChange(
                type=change_type,
                nugget_name=self.group_keys[position][0],
                note_id=self.notes[position]["id"],
                detail=detail,
            )
        )
        self.counts[COUNTERS[change_type]] += 1
        replay(self.ws, op, self.now)
        if isinstance(op, MergeOp):
            self._tokens[position] = self.sets[position] = None  # the winner's text grew

    def next_id(self) -> int:
        return len(self.operations) + 1

    def tokens(self, position: int) -> list[str]:
        found = self._tokens[position]
        if found is None:
            note = self.notes[position]
            found = note_tokens(fields.text(note, "title"), fields.text(note, "content"))
            found = self._tokens[position] = list(map(self._same_token, found, found))
        return found

    def token_set(self, position: int) -> frozenset[str]:
        found = self.sets[position]
        if found is None:
            found = self.sets[position] = frozenset(self.tokens(position))
            self.masks[position] = token_mask(found)
        return found

    def result(self, ran_at: str, inspected: int) -> ReflectionResult:
        return ReflectionResult(
            ran_at=ran_at, inspected=inspected, changes=self.changes, **self.counts
        )
