"""The index that finds merge partners (docs/PASS.md, "Phase 3 — merge near-duplicates")
without comparing every pair.

Two token sets with Jaccard >= 0.9 differ in few tokens: 19 * |A ^ B| <= |A| + |B|, so a set of
`size` tokens differs from any partner in at most `_most_differing(size)` tokens (2 for 20
tokens). Each set gets a 256-bit mask, one bit per token chosen by the token's hash; two masks
differ in at most as many bits as the sets differ in tokens. Cut the mask into d + 1 bands: if
the sets differ in at most d tokens, at least one band of their masks is the same (pigeonhole).
So a set is filed under each band of its mask (and the band count), and a partner shares a key.
Unlike prefix filtering this needs no token frequencies, and notes written from one template
seldom agree on a whole band while they differ in the words that vary.

A long set would need more bands than a 256-bit mask holds, so sets of `_BANDS_BELOW` tokens or
more are found by prefix filtering instead: under one order of the tokens (rarest among the long
sets first), two sets with Jaccard >= 0.9 share a token within the first `size - ceil(0.9 *
size) + 1` of each. Sizes near the switch are filed both ways.

Each candidate is then checked: its size, its mask (the bits in which the masks differ bound the
symmetric difference from below), and finally Jaccard exactly.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from functools import reduce
from itertools import chain, islice, repeat
from operator import and_, or_

from core.reflection.link_index import jaccard_at_least_090
from core.reflection.work_count import WORK

_MASK_BITS = 256
_BIT = [1 << b for b in range(_MASK_BITS)]
_BANDS_BELOW = 64  # sets this long need 9 bands: prefix filtering from here on


def _least_overlap(size: int) -> int:
    """ceil(0.9 * size): Jaccard >= 9/10 needs at least this many shared tokens."""
    return (9 * size + 9) // 10


def _partner_sizes(size: int) -> range:
    return range(_least_overlap(size), (10 * size) // 9 + 1)


def _most_differing(size: int) -> int:
    return (size + (10 * size) // 9) // 19


# The sizes of sets filed both ways: every partner of a banded set is banded, every partner of
# a set found by prefix filtering is filed by its prefix.
_BANDED_UP_TO = _partner_sizes(_BANDS_BELOW - 1)[-1]
_PREFIXED_FROM = _least_overlap(_BANDS_BELOW)
# For each size that is banded: the band count it asks with, and those it is filed under (one
# for each band count a partner may ask with).
_BANDS = [
    (
        _most_differing(size) + 1,
        sorted(
            {
                _most_differing(other) + 1
                for other in _partner_sizes(size)
                if 0 < other < _BANDS_BELOW
            }
        ),
    )
    for size in range(_BANDED_UP_TO + 1)
]


def token_mask(tokens: Iterable[str]) -> int:
    """One bit per token, chosen by its hash: sets that differ in d tokens differ in at most d
    bits."""
    bits = map(and_, map(hash, tokens), repeat(_MASK_BITS - 1))
    return reduce(or_, map(_BIT.__getitem__, bits), 0)


def _band_keys(mask: int, bands: int) -> list[int]:
    """The bands of a mask as keys (band count and band number in the low 7 bits)."""
    width = -(-_MASK_BITS // bands)
    low = (1 << width) - 1
    return [(mask >> (band * width) & low) << 7 | bands << 3 | band for band in range(bands)]


class MergeIndex:
    """`places` are the members' places in pass order (ascending); `sets` their token sets and
    `masks` the sets' `token_mask`s (made when the sets are)."""

    def __init__(
        self, places: list[int], sets: list[frozenset[str]], masks: list[int] | None = None
    ) -> None:
        self.sets = dict(zip(places, sets, strict=True))
        if masks is None:
            masks = list(map(token_mask, sets))
        self._masks = dict(zip(places, masks, strict=True))
        self._keys: dict[int, list[int]] = {}  # what each member asks with
        self._postings: dict[int, list[int]] = {}
        long: list[int] = []
        for place, tokens, mask in zip(places, sets, masks, strict=True):
            size = len(tokens)
            if size <= _BANDED_UP_TO:
                asks, filed = _BANDS[size]
                for bands in filed:
                    keys = _band_keys(mask, bands)
                    if bands == asks and size < _BANDS_BELOW:
                        self._keys[place] = keys
                    self._file(place, keys)
            if size >= _PREFIXED_FROM:
                long.append(place)
        self._file_prefixes(long)

    def _file(self, place: int, keys: list[int]) -> None:
        for key in keys:
            posting = self._postings.get(key)
            if posting is None:
                self._postings[key] = [place]
            else:
                posting.append(place)

    def _file_prefixes(self, places: list[int]) -> None:
        """Long sets, by each rank of their prefix (below zero, apart from the bands)."""
        sets = [self.sets[place] for place in places]
        frequency = Counter(chain.from_iterable(sets))
        rank = {token: r for r, token in enumerate(sorted(frequency, key=frequency.__getitem__))}
        for place, tokens in zip(places, sets, strict=True):
            size = len(tokens)
            prefix = sorted(map(rank.__getitem__, tokens))[: size - _least_overlap(size) + 1]
            keys = [-1 - r for r in prefix]
            if size >= _BANDS_BELOW:
                self._keys[place] = keys
            self._file(place, keys)

    def first_partner(self, place: int, usable: Callable[[int], bool]) -> int | None:
        """The first later usable place whose set has Jaccard >= 0.9 with this one's."""
        sets, masks, postings = self.sets, self._masks, self._postings
        mine, mask = sets[place], masks[place]
        size = len(mine)
        low, high = _least_overlap(size), (10 * size) // 9  # the sizes a partner may have
        best: int | None = None
        for key in self._keys.get(place, ()):
            posting = postings[key]
            if len(posting) == 1:  # only this note
                continue
            for other in islice(posting, bisect_right(posting, place), None):
                WORK.merge += 1
                if best is not None and other >= best:
                    break
                theirs = sets[other]
                other_size = len(theirs)
                if (
                    other_size < low
                    or other_size > high
                    or 19 * (mask ^ masks[other]).bit_count() > size + other_size
                ):
                    continue
                if usable(other) and jaccard_at_least_090(mine, theirs):
                    best = other
                    break
        return best
