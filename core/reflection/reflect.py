"""The reflection pass of docs/PASS.md, computed on a snapshot without writing anything.

Each decision becomes an operation that is replayed at once on a copy-on-write workspace, through
the same code that apply uses later. Phases 1, 2 and the pass order are here; phase 3 is in
`merge_phase.py`, phase 4 in `link_phase.py`.

Speed (100k notes): notes are addressed by their position in the file, and what the phases read
of a note is taken in one walk (`_pass_order`). Tokens are computed once per note, lazily, and
again only for a merge winner (normalize never changes a note's tokens: it only moves whitespace
and drops lines whose tokens an earlier line already has). A capped pass therefore only tokenizes
the notes it inspects and the merge groups and link heads it walks.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import repeat

from core.clock import epoch_ms, to_iso
from core.gc_pause import paused_gc
from core.models import HideOp, Operation, RawNote, ReflectionResult, RetagOp, RewriteOp
from core.notes import fields
from core.notes.text import normalize
from core.notes.working_set import Workspace
from core.progress import Progress
from core.reflection.link_phase import link_phase
from core.reflection.merge_phase import merge_phase
from core.reflection.pass_state import CHECK_EVERY, PassRun, group_key
from core.reflection.select_phase import quality
from core.reflection.tidy_phase import low_value, new_tags

HIDE_DETAIL = "Archived low-value note"
REWRITE_DETAIL = "Normalized duplicated whitespace and repeated lines"


@dataclass
class PassOutcome:
    """What a pass would do: the result, one operation per change, and the notes after it."""

    result: ReflectionResult
    operations: list[Operation]
    workspace: Workspace


# What walking one note costs each phase, relative to the others (an uncapped pass over the
# 100k sample: about 1 s, 11 s, 7 s and 7 s per 100k notes): progress is told in these units,
# so the pace so far foretells the time left.
SURVEY, TIDY, MERGE, LINK = 1, 11, 7, 7


def plan_pass(
    notes: list[RawNote],
    now: datetime,
    nugget_name: str | None = None,
    limit: int | None = 10,
    uncapped: bool = False,
    should_stop: Callable[[], bool] | None = None,
    apart: Mapping[str, int] | None = None,
    progress: Progress | None = None,
) -> PassOutcome:
    """Compute the pass over `notes` (left untouched). `limit` None or `uncapped` lifts the cap.
    `should_stop`, asked now and then, ends the pass early with PassCancelled. `apart`: notes
    the operator let stand together (id -> their group's number), never merged together.
    `progress`: told now and then how many notes the phases walked of how many in all."""
    if uncapped:
        limit = None
    stamp = to_iso(now)
    with paused_gc():
        run = PassRun(notes, stamp, should_stop, progress)
        in_scope = (
            list(range(len(notes)))
            if nugget_name is None
            else [p for p, note in enumerate(notes) if fields.nugget(note) == nugget_name]
        )
        n = len(in_scope)
        run.weight = SURVEY
        run.total = (SURVEY + TIDY + MERGE + LINK) * n  # at most; made exact below
        qualities, keys = _survey(run, notes, in_scope, epoch_ms(now))
        run.phase_done(n, TIDY)
        selected = _select(in_scope, qualities, limit)
        run.total = run.walked + TIDY * len(selected) + (MERGE + LINK) * n
        for place, position in enumerate(selected):
            if not place % CHECK_EVERY:
                run.check(place)
            _tidy(run, position)
        run.phase_done(len(selected), MERGE)
        order = _pass_order(run, in_scope, keys)
        run.total = run.walked + (MERGE + LINK) * len(order)
        merge_phase(run, order, limit, apart)
        run.phase_done(len(order), LINK)
        current = run.notes
        linking = [p for p in order if current[p].get("hidden") is not True]
        run.total = run.walked + LINK * len(linking)
        link_phase(run, linking, limit)
        run.phase_done(len(linking))
        result = run.result(stamp, len(selected))
    return PassOutcome(result=result, operations=run.operations, workspace=run.ws)


def _survey(
    run: PassRun, notes: list[RawNote], in_scope: list[int], now_ms: int
) -> tuple[list[int], list[str]]:
    """One walk over the notes in scope, as read: each note's quality (phase 1) and pass-order
    key (`_order_key`), and its merge group (phase 2 changes none of the fields these read)."""
    qualities, keys = [], []
    group_keys = run.group_keys
    for p in in_scope:
        note = notes[p]
        stamp = fields.updated_at(note)
        qualities.append(quality(note, now_ms, stamp))
        key = group_keys[p] = group_key(note)
        keys.append(_order_key(key[0], stamp, note["id"]))
    return qualities, keys


def _order_key(nugget: str, stamp: str, note_id: str) -> str:
    """Nugget, updatedAt and id joined by NUL, the smallest character: strings compare as the
    triples do, as long as no nugget or stamp holds a NUL (`_pass_order` checks), and sorting
    100k strings takes half the time of sorting the triples."""
    return f"{nugget}\0{stamp}\0{note_id}"


def _select(in_scope: list[int], qualities: list[int], limit: int | None) -> list[int]:
    """Phase 1: positions by quality descending, ties in file order (both sorts are stable)."""
    places = range(len(in_scope))
    best_first = qualities.__getitem__
    if limit is None:
        ranked = sorted(places, key=best_first, reverse=True)
    else:
        ranked = heapq.nlargest(limit, places, key=best_first)
    return [in_scope[place] for place in ranked]


def _tidy(run: PassRun, position: int) -> None:
    note = run.notes[position]
    if note.get("hidden") is True:
        return
    note_id = note["id"]
    content = fields.text(note, "content")
    if low_value(fields.text(note, "title"), content, fields.hits(note)):
        run.touched.add(position)
        run.record(HideOp(id=run.next_id(), note_id=note_id), "hide", position, HIDE_DETAIL)
        return
    cleaned = normalize(content)
    if cleaned and cleaned != content:
        rewrite = RewriteOp(id=run.next_id(), note_id=note_id, content=cleaned)
        run.record(rewrite, "rewrite", position, REWRITE_DETAIL)
    tags = new_tags(run.notes[position], run.tokens(position))
    if tags != fields.tags(note):
        retag = RetagOp(id=run.next_id(), note_id=note_id, tags=tags)
        run.record(retag, "tag", position, "Tags -> " + ", ".join(tags))


def _pass_order(run: PassRun, in_scope: list[int], keys: list[str]) -> list[int]:
    """Visible notes in scope by nugget, updatedAt as it stood before the pass, then id."""
    current = run.notes
    visible = [i for i, p in enumerate(in_scope) if current[p].get("hidden") is not True]
    if sum(map(str.count, keys, repeat("\0"))) == 2 * len(keys):
        visible.sort(key=keys.__getitem__)
    else:  # a NUL in some field: sort by the fields themselves
        visible.sort(key=lambda i: _order_fields(run, in_scope[i]))
    return [in_scope[i] for i in visible]


def _order_fields(run: PassRun, position: int) -> tuple[str, str, str]:
    note = run.ws.original[position]
    return run.group_keys[position][0], fields.updated_at(note), note["id"]
