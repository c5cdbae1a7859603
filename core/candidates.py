"""Indexes that find merge and link partners without comparing every pair (SPEC §3, phases 3-4).

Merge: Jaccard >= 0.9 means two token sets share a token within their prefixes under one global
token order (prefix filtering), and their sizes differ by at most 10%; every candidate is then
verified exactly. Link: walk the posting lists of a note's tokens in order and stop at the first
note seen twice.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import islice

from .text import jaccard_at_least


def _prefix_length(size: int) -> int:
    # Jaccard >= 9/10 needs an overlap of at least ceil(0.9 * size) tokens.
    return size - (9 * size + 9) // 10 + 1


class MergeIndex:
    """Prefix-filter index over the members of one merge group, in pass order."""

    def __init__(self, token_sets: list[frozenset[str]]) -> None:
        self.sets = token_sets
        frequency = Counter(t for s in token_sets for t in s)
        self._prefixes: list[list[str]] = []
        self._postings: dict[str, list[int]] = defaultdict(list)
        for ordinal, tokens in enumerate(token_sets):
            ordered = sorted(tokens, key=lambda t: (frequency[t], t))
            prefix = ordered[: _prefix_length(len(ordered))] if ordered else []
            self._prefixes.append(prefix)
            for token in prefix:
                self._postings[token].append(ordinal)

    def first_partner(self, ordinal: int, usable: Callable[[int], bool]) -> int | None:
        """The smallest later ordinal whose set has Jaccard >= 0.9 with this one."""
        mine = self.sets[ordinal]
        candidates: set[int] = set()
        for token in self._prefixes[ordinal]:
            candidates.update(o for o in self._postings[token] if o > ordinal)
        for other in sorted(candidates):
            theirs = self.sets[other]
            small, large = sorted((len(mine), len(theirs)))
            if 10 * small < 9 * large or not usable(other):
                continue
            if jaccard_at_least(mine, theirs):
                return other
        return None


class LinkIndex:
    """Inverted index token -> positions (in pass order) over the notes of one nugget."""

    def __init__(self, token_lists: list[list[str]]) -> None:
        self._postings: dict[str, list[int]] = defaultdict(list)
        for position, tokens in enumerate(token_lists):
            for token in tokens:
                self._postings[token].append(position)
        self._start: dict[str, int] = {}

    def skip_dead(self, is_dead: Callable[[int], bool], tokens: Iterable[str]) -> None:
        """Advance each posting list past positions that can never match again."""
        for token in tokens:
            posting = self._postings.get(token)
            if not posting:
                continue
            start = self._start.get(token, 0)
            while start < len(posting) and is_dead(posting[start]):
                start += 1
            self._start[token] = start

    def first_sharing_two(
        self, tokens: list[str], accept: Callable[[int], bool]
    ) -> int | None:
        """The first position that holds at least two of `tokens` and passes `accept`."""
        streams = []
        for token in tokens:
            posting = self._postings.get(token)
            if posting:
                start = self._start.get(token, 0)
                streams.append(islice(posting, start, None))
        previous, count = -1, 0
        for position in heapq.merge(*streams):
            if position == previous:
                count += 1
                if count == 2 and accept(position):
                    return position
            else:
                previous, count = position, 1
        return None
