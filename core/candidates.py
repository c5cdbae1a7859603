"""The link index (SPEC §3 phase 4) and the exact Jaccard test (the merge index is in
mergeindex.py).

Link: a note holding two of my tokens appears in the posting list of at least one of my tokens
other than the most common one, so those lists, merged in pass order, give every candidate; each
is checked exactly against the note's token set.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import islice


def jaccard_at_least_090(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Exact jaccard(mine, theirs) >= 0.9 in integers; two empty sets never qualify."""
    shared = len(mine & theirs)
    union = len(mine) + len(theirs) - shared
    return union > 0 and 10 * shared >= 9 * union


class LinkIndex:
    """Inverted index token -> positions (in pass order) over the notes of one nugget."""

    def __init__(self, token_lists: Sequence[Sequence[str]]) -> None:
        self._postings: dict[str, list[int]] = {}
        for position, tokens in enumerate(token_lists):
            for token in tokens:
                posting = self._postings.get(token)
                if posting is None:
                    self._postings[token] = [position]
                else:
                    posting.append(position)
        self._start: dict[str, int] = {}

    def first_sharing_two(
        self, tokens: Sequence[str], after: int, dead: bytearray, accept: Callable[[int], bool]
    ) -> int | None:
        """The first position after `after` that `accept`s; callers' `accept` checks that the
        note holds at least two of `tokens`. Positions marked in `dead` can never be accepted
        again and are skipped for good."""
        lists = [(t, p) for t in tokens if (p := self._postings.get(t))]
        if len(lists) < 2:
            return None
        lists.remove(max(lists, key=lambda pair: len(pair[1])))
        streams = []
        for token, posting in lists:
            start = self._start.get(token, 0)
            while start < len(posting) and dead[posting[start]]:
                start += 1
            self._start[token] = start
            streams.append(islice(posting, max(start, bisect_right(posting, after)), None))
        previous = -1
        for position in heapq.merge(*streams):
            if position != previous and accept(position):
                return position
            previous = position
        return None
