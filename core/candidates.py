"""Indexes that find merge and link partners without comparing every pair (SPEC §3, phases 3-4).

Merge: Jaccard >= 0.9 means two token sets share most of their tokens, so under one token order
(rarest first) they share tokens near the head of both (prefix filtering); each candidate is
verified exactly, in pass order, and the first that verifies is the partner.

Link: a note holding two of my tokens appears in the posting list of at least one of my tokens
other than the most common one, so those lists, merged in pass order, give every candidate; each
is checked exactly against the note's token set.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from functools import reduce
from itertools import chain, combinations, islice
from operator import or_

# Sets of fewer tokens than this are keyed by pairs of rare tokens, larger ones by single rare
# tokens (a long set's head would make too many pairs); sizes near the switch get both keys.
_PAIRS_BELOW = 40
_PAIRED_UP_TO = (10 * (_PAIRS_BELOW - 1)) // 9  # the largest partner of a set keyed by pairs
_SINGLES_FROM = (9 * _PAIRS_BELOW + 9) // 10  # the smallest partner of a set keyed by singles


def _least_overlap(size: int) -> int:
    """ceil(0.9 * size): Jaccard >= 9/10 needs at least this many shared tokens."""
    return (9 * size + 9) // 10


def jaccard_at_least_090(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Exact jaccard(mine, theirs) >= 0.9 in integers; two empty sets never qualify."""
    shared = len(mine & theirs)
    union = len(mine) + len(theirs) - shared
    return union > 0 and 10 * shared >= 9 * union


class MergeIndex:
    """Prefix-filter index over the members of one merge group.

    `places` are the members' places in pass order (ascending); `sets` their token sets. Tokens
    become their rank in the group, rarest first (ties in a fixed order); a set's head is the
    start of its sorted ranks. If two sets have Jaccard >= 0.9, each lacks at most
    `size - _least_overlap(size)` of the other's tokens ("spare"), so the first token they share
    lies in the first spare + 1 ranks of both, and the first two in the first spare + 2.
    A set is keyed by every pair of ranks from that head (a pair of rare tokens: notes written
    from one template share their rarest word often, two of them seldom), or, when it is long or
    has one token, by each rank of the shorter head. A partner shares a key.

    A candidate's bit mask (one bit per rank, modulo 256) bounds the symmetric difference from
    below, which Jaccard >= 0.9 keeps at most (|A| + |B|) / 19; it rejects most candidates
    before the exact check.
    """

    def __init__(self, places: list[int], sets: list[frozenset[str]]) -> None:
        self.sets = dict(zip(places, sets, strict=True))
        frequency = Counter(chain.from_iterable(sets))
        rank = {token: r for r, token in enumerate(sorted(frequency, key=frequency.__getitem__))}
        bits = [1 << (r & 255) for r in range(len(rank))]
        stride = len(rank)
        self._keys: dict[int, list[int]] = {}  # what each member asks with
        self._masks: dict[int, int] = {}
        postings: dict[int, list[int]] = {}
        for place, tokens in zip(places, sets, strict=True):
            ranks = sorted(map(rank.__getitem__, tokens))
            self._masks[place] = reduce(or_, map(bits.__getitem__, ranks), 0)
            size = len(ranks)
            spare = size - _least_overlap(size)
            pairs = singles = ()
            if 2 <= size <= _PAIRED_UP_TO:
                pairs = [a * stride + b for a, b in combinations(ranks[: spare + 2], 2)]
            if size == 1 or size >= _SINGLES_FROM:
                singles = [-1 - r for r in ranks[: spare + 1]]  # apart from pairs: below 0
            self._keys[place] = pairs if 2 <= size < _PAIRS_BELOW else singles  # type: ignore
            for key in chain(pairs, singles):
                posting = postings.get(key)
                if posting is None:
                    postings[key] = [place]
                else:
                    posting.append(place)
        self._postings = postings

    def first_partner(self, place: int, usable: Callable[[int], bool]) -> int | None:
        """The first later usable place whose set has Jaccard >= 0.9 with this one's."""
        sets, masks, postings = self.sets, self._masks, self._postings
        mine, mask = sets[place], masks[place]
        size = len(mine)
        low, high = _least_overlap(size), (10 * size) // 9  # the sizes a partner may have
        best: int | None = None
        for key in self._keys[place]:
            posting = postings[key]
            if len(posting) == 1:  # only this note
                continue
            for other in islice(posting, bisect_right(posting, place), None):
                if best is not None and other >= best:
                    break
                theirs = sets[other]
                other_size = len(theirs)
                if (other_size < low or other_size > high
                        or 19 * (mask ^ masks[other]).bit_count() > size + other_size):
                    continue
                if usable(other) and jaccard_at_least_090(mine, theirs):
                    best = other
                    break
        return best


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
