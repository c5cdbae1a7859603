"""The link index (docs/PASS.md, "Phase 4 — link related notes") and the exact Jaccard test
(the merge index is in merge_index.py).

Link: a note holding two of my tokens appears in the posting list of at least one of my tokens
other than the most common one, so those lists, merged in pass order, give every candidate; each
is checked exactly against the note's token set. Places that can no longer be partners are stepped
over by `OpenRun`, once for all searches.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence

from core.reflection.work_count import WORK


def jaccard_at_least_090(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Exact jaccard(mine, theirs) >= 0.9 in integers; two empty sets never qualify."""
    shared = len(mine & theirs)
    union = len(mine) + len(theirs) - shared
    return union > 0 and 10 * shared >= 9 * union


class OpenRun:
    """Places in ascending order of which some close for good (`closed[place]` set): the first
    open one from any index in amortized near-constant time, by a union-find "next open" pointer
    with path compression (made on the first step over a closed place), so no search walks again
    over places an earlier search stepped over."""

    __slots__ = ("places", "_closed", "_next")

    def __init__(self, places: Sequence[int], closed: bytearray) -> None:
        self.places = places
        self._closed = closed
        self._next: list[int] | None = None

    def first_open(self, index: int) -> int:
        """The first index >= `index` whose place is open, or len(places)."""
        places, closed = self.places, self._closed
        end = len(places)
        if index >= end or not closed[places[index]]:
            return index
        jump = self._next
        if jump is None:
            jump = self._next = list(range(end + 1))
        found = index
        while found < end:
            hop = jump[found]
            if hop == found:
                if not closed[places[found]]:
                    break
                hop = jump[found] = found + 1
            found = hop
            WORK.link += 1
        while index < found:
            hop = jump[index]
            jump[index] = found
            index = hop
        return found


class LinkIndex:
    """Inverted index token -> places (ascending) over some notes of one nugget."""

    def __init__(
        self, places: Sequence[int], token_lists: Iterable[Sequence[str]], closed: bytearray
    ) -> None:
        postings: dict[str, list[int]] = {}
        for place, tokens in zip(places, token_lists, strict=True):
            for token in tokens:
                posting = postings.get(token)
                if posting is None:
                    postings[token] = [place]
                else:
                    posting.append(place)
        self._postings = postings
        self._closed = closed
        self._open: dict[str, OpenRun] = {}

    def first_sharing_two(
        self, tokens: Sequence[str], after: int, before: int, accept: Callable[[int], bool]
    ) -> int | None:
        """The first open place between `after` and `before` (both excluded) that `accept`s;
        callers' `accept` checks that the note holds at least two of `tokens`."""
        lists = [(t, p) for t in tokens if (p := self._postings.get(t))]
        if len(lists) < 2:
            return None
        lists.remove(max(lists, key=lambda pair: len(pair[1])))
        streams = [self._open_between(token, posting, after, before) for token, posting in lists]
        previous = -1
        for place in heapq.merge(*streams):
            if place != previous and accept(place):
                return place
            previous = place
        return None

    def _open_between(
        self, token: str, posting: list[int], after: int, before: int
    ) -> Iterator[int]:
        run = self._open.get(token)
        if run is None:
            run = self._open[token] = OpenRun(posting, self._closed)
        end = len(posting)
        index = run.first_open(bisect_right(posting, after))
        while index < end:
            place = posting[index]
            if place >= before:
                return
            yield place
            index = run.first_open(index + 1)
