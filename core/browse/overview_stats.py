"""Figures for an overview of a memory: notes per nugget, archived share, hits distribution."""

from __future__ import annotations

from dataclasses import dataclass

from core.browse.shelf import NuggetSummary
from core.models import RawNote
from core.notes import fields
from core.promotion.candidates import DEFAULT_THRESHOLD, qualifies

HITS_BUCKETS = 10  # 0..8 recalls, then 9 or more


@dataclass(frozen=True)
class Overview:
    nuggets: list[NuggetSummary]
    notes: int
    hidden: int
    hits: list[int]  # hits[k]: visible notes recalled k times (the last bucket: k or more)
    promotable: int


def overview(
    nuggets: list[NuggetSummary], notes: list[RawNote], threshold: int = DEFAULT_THRESHOLD
) -> Overview:
    hits = [0] * HITS_BUCKETS
    hidden = promotable = 0
    for note in notes:
        if fields.hidden(note):
            hidden += 1
            continue
        count = fields.hits(note)
        hits[min(count, HITS_BUCKETS - 1)] += 1
        promotable += qualifies(note, threshold)
    return Overview(nuggets, len(notes), hidden, hits, promotable)
