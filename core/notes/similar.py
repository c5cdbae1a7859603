"""Which sets of words overlap enough to read as one (Claude Code topic files, promotion's
look-alike entries), found without comparing every pair (docs/CLAUDE_CODE.md, "How much work a
command does"). Pure.

Prefix filtering with the positional bound (as in the PPJoin join): a Jaccard of at least t
needs at least ceil(t * |A|) shared words, so under one order of all words (rarest first), two
such sets share a word among the first |A| - ceil(t * |A|) + 1 of each. Each set is filed under
those words only, with their places. When a set meets a filed one at a shared word, the words
after that place in each bound how many more they can share; a pair that cannot reach the
overlap the threshold needs is dropped before it is compared. The rest are compared exactly, as
a comparison of every pair would."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import chain

from core.notes.text import jaccard

_LOW = 1 - 1e-9  # bounds taken a hair low: a score the division rounds up is never missed


def _needed(threshold: float, a: int, b: int) -> int:
    """The fewest shared words two sets of these sizes need to reach the threshold."""
    return math.ceil(threshold / (1 + threshold) * (a + b) * _LOW)


def similar_pairs(sets: Sequence[frozenset[str]], threshold: float) -> list[tuple[int, int, float]]:
    """(i, j, overlap) for every i < j whose sets overlap at least `threshold` (> 0), ordered
    by i then j: the pairs, and the figures, a comparison of every pair gives."""
    counts = Counter(chain.from_iterable(sets))
    order = sorted(counts, key=lambda word: (counts[word], word))
    rank = {word: place for place, word in enumerate(order)}
    filed: dict[str, list[tuple[int, int]]] = defaultdict(list)  # word -> (set, its place)
    found = []
    for i, words in enumerate(sets):
        size = len(words)
        ranked = sorted(words, key=rank.__getitem__)
        prefix = size - max(1, math.ceil(threshold * size * _LOW)) + 1
        shared: dict[int, int] = {}  # a filed set met -> words shared so far (-1: dropped)
        for place, word in enumerate(ranked[:prefix]):
            if counts[word] == 1:
                continue  # no other set has it
            for j, their_place in filed[word]:
                other = len(sets[j])
                if shared.get(j) == -1 or min(size, other) < threshold * max(size, other) * _LOW:
                    continue
                most = shared.get(j, 0) + 1 + min(size - place - 1, other - their_place - 1)
                shared[j] = shared.get(j, 0) + 1 if most >= _needed(threshold, size, other) else -1
            filed[word].append((i, place))
        for j in sorted(j for j, met in shared.items() if met > 0):
            overlap = jaccard(sets[j], words)
            if overlap >= threshold:
                found.append((j, i, overlap))
    return sorted(found, key=lambda p: (p[0], p[1]))
