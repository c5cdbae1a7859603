"""Indexes that find merge and link partners without comparing every pair (SPEC §3, phases 3-4).

Merge: Jaccard >= 0.9 means two token sets share a token within their prefixes under one token
order, rarest first (prefix filtering), and their sizes differ by at most 10%; each candidate is
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
from itertools import chain, islice
from operator import itemgetter, or_


def _prefix_length(size: int) -> int:
    # Jaccard >= 9/10 needs an overlap of at least ceil(0.9 * size) tokens.
    return size - (9 * size + 9) // 10 + 1


def jaccard_at_least_090(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Exact jaccard(mine, theirs) >= 0.9 in integers; two empty sets never qualify."""
    shared = len(mine & theirs)
    union = len(mine) + len(theirs) - shared
    return union > 0 and 10 * shared >= 9 * union


class MergeIndex:
    """Prefix-filter index over the members of one merge group.

    `positions` are the members' places in pass order (ascending); `sets` their token sets.
    Tokens become their rank (rarest first, ties in a fixed order), so a set's prefix is the head
    of its sorted ranks. Postings are kept per (token, set size), so a query reads only sizes
    within 10% of its own. A candidate's bit mask (one bit per rank, modulo 256) gives a cheap
    lower bound of the symmetric difference, which Jaccard >= 0.9 keeps at most (|A| + |B|) / 19;
    it rejects nearly every candidate before the exact check.
    """

    def __init__(self, positions: list[int], sets: list[frozenset[str]]) -> None:
        self.sets = dict(zip(positions, sets, strict=True))
        frequency = Counter(chain.from_iterable(sets))
        ordered = sorted(frequency.items(), key=itemgetter(1))
        rank = {token: r for r, (token, _) in enumerate(ordered)}
        bits = [1 << (r & 255) for r in range(len(ordered))]
        self._stride = stride = max(map(len, sets), default=0) + 1
        self._prefixes: dict[int, list[int]] = {}
        self._masks: dict[int, int] = {}
        self._postings: dict[int, list[int]] = {}
        self._holders = holders = [0] * len(ordered)  # how many prefixes hold each rank
        for position, tokens in zip(positions, sets, strict=True):
            ranks = sorted(map(rank.__getitem__, tokens))
            self._masks[position] = reduce(or_, map(bits.__getitem__, ranks), 0)
            size = len(ranks)
            prefix = self._prefixes[position] = ranks[: _prefix_length(size)]
            for r in prefix:
                holders[r] += 1
                key = r * stride + size
                posting = self._postings.get(key)
                if posting is None:
                    self._postings[key] = [position]
                else:
                    posting.append(position)

    def first_partner(self, position: int, usable: Callable[[int], bool]) -> int | None:
        """The smallest later position whose set has Jaccard >= 0.9 with this one's."""
        mine, mask, masks = self.sets[position], self._masks[position], self._masks
        prefix, size, stride = self._prefixes[position], len(self.sets[position]), self._stride
        best: int | None = None
        sizes = range((9 * size + 9) // 10, (10 * size) // 9 + 1)
        for r in prefix:
            if self._holders[r] == 1:  # no other prefix holds it (~40% of ranks)
                continue
            for other_size in sizes:
                posting = self._postings.get(r * stride + other_size)
                if posting is None:
                    continue
                bound = size + other_size
                for other in islice(posting, bisect_right(posting, position), None):
                    if best is not None and other >= best:
                        break
                    if 19 * (mask ^ masks[other]).bit_count() > bound or not usable(other):
                        continue
                    if jaccard_at_least_090(mine, self.sets[other]):
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
