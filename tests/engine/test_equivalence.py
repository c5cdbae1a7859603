"""The indexed pass equals the straightforward oracle on generated graphs (issue: fast at 100k)."""

from __future__ import annotations

import contextlib
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.generate import generate
from bench.oracle import oracle_pass
from core.notes.text import jaccard
from core.reflection import link_phase as linking
from core.reflection.merge_index import MergeIndex
from core.reflection.reflect import plan_pass
from tests.support.moments import at

NOW = at("2026-11-01T09:00:00Z")
WORDS = [
    "deploy",
    "make",
    "test",
    "user",
    "prefers",
    "dark",
    "theme",
    "src/app.py",
    "tmp",
    "redis",
    "cache",
    "key",
    "port",
    "8080",
    "the",
    "a",
    "vim",
    "editor",
    "ci:lint",
    "日本語",
]

line = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
content = st.lists(line, min_size=0, max_size=4).map(lambda ls: "\n".join(ls))


@st.composite
def graphs(draw: st.DrawFn) -> list[dict]:
    count = draw(st.integers(min_value=0, max_value=24))
    ids = [f"n{i}" for i in range(count)]
    notes = []
    for note_id in ids:
        base = draw(content)
        note = {
            "id": note_id,
            "nuggetName": draw(st.sampled_from(["user", "project"])),
            "title": draw(st.sampled_from(["tmp", "deploy", "theme", "cache notes", ""])),
            "content": base if draw(st.booleans()) else base + "\n" + base,
            "tags": draw(st.lists(st.sampled_from(["Deploy", "ops", "scope:user"]), max_size=3)),
            "links": [
                {
                    "to": draw(st.sampled_from([*ids, "gone"])),
                    "reason": "r",
                    "createdAt": "2026-10-01T00:00:00.000Z",
                }
                for _ in range(draw(st.integers(0, 2)))
            ],
            "hidden": draw(st.booleans()) and draw(st.booleans()),
            "kind": draw(st.sampled_from(["note", "fact"])),
            "hits": draw(st.integers(0, 4)),
            "subject": draw(st.sampled_from(["user:primary", "shared:project"])),
            "scope": draw(st.sampled_from(["user", "project", "self"])),
            "type": draw(st.sampled_from(["fact", "note"])),
            "createdAt": "2026-09-01T00:00:00.000Z",
            "updatedAt": draw(
                st.sampled_from(
                    ["2026-10-01T00:00:00.000Z", "2026-10-02T00:00:00.000Z", "", "garbage"]
                )
            ),
        }
        notes.append(note)
    return notes


def _direct_checks(count: int, spare: int = 0) -> contextlib.ExitStack[bool | None]:
    """The link phase checks `count` notes directly, then (after `spare` more per note of the
    nugget, all told) asks its index."""
    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(linking, "_DIRECT_LINK_CHECKS", count))
    stack.enter_context(mock.patch.object(linking, "_SPARE_CHECKS_PER_NOTE", spare))
    return stack


def assert_same(notes: list[dict], nugget: str | None, limit: int, uncapped: bool) -> None:
    fast = plan_pass(notes, NOW, nugget, limit, uncapped)
    slow = oracle_pass(notes, NOW, nugget, limit, uncapped)
    assert fast.result == slow.result
    assert fast.operations == slow.operations
    assert fast.workspace.notes == slow.workspace.notes


@settings(max_examples=150, deadline=None)
@given(
    graphs(),
    st.booleans(),
    st.sampled_from([None, "user"]),
    st.integers(1, 10),
    st.sampled_from([0, 1, 16]),
    st.sampled_from([0, 1]),
)
def test_indexed_pass_equals_oracle(
    notes: list[dict],
    uncapped: bool,
    nugget: str | None,
    limit: int,
    direct_checks: int,
    spare: int,
) -> None:
    # With few direct checks the link phase asks its inverted index for nearly every note.
    with _direct_checks(direct_checks, spare):
        assert_same(notes, nugget, limit, uncapped)


@pytest.mark.parametrize("direct_checks", [0, 16])
@pytest.mark.parametrize("uncapped", [True, False])
def test_indexed_pass_equals_oracle_on_a_benchmark_graph(
    uncapped: bool, direct_checks: int
) -> None:
    notes = generate(400, seed=11)["notes"]
    with _direct_checks(direct_checks):
        assert_same(notes, None, 10, uncapped)
        assert_same(notes, "agent", 3, uncapped)


@st.composite
def _near_duplicate_sets(draw: st.DrawFn) -> list[frozenset[str]]:
    """Token sets of 0-80 tokens, many of them a few tokens away from an earlier one, so that
    sizes fall on both sides of each change of band count and of the switch to prefixes."""
    vocabulary = [f"t{i}" for i in range(draw(st.integers(3, 100)))]
    sets: list[frozenset[str]] = []
    for _ in range(draw(st.integers(1, 30))):
        if bool(sets) and draw(st.booleans()):
            tokens = set(draw(st.sampled_from(sets)))
            for _ in range(draw(st.integers(0, 4))):
                if bool(tokens) and draw(st.booleans()):
                    tokens.discard(draw(st.sampled_from(sorted(tokens))))
                else:
                    tokens.add(draw(st.sampled_from(vocabulary)))
        else:
            size = draw(st.integers(0, min(80, len(vocabulary))))
            tokens = set(draw(st.permutations(vocabulary))[:size])
        sets.append(frozenset(tokens))
    return sets


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_near_duplicate_sets(), st.sets(st.integers(0, 29)))
def test_merge_index_finds_the_first_partner_pairwise_comparison_finds(
    sets: list[frozenset[str]], unusable: set[int]
) -> None:
    places = list(range(len(sets)))
    index = MergeIndex(places, sets)
    for place, mine in enumerate(sets):
        expected = next(
            (
                other
                for other in places[place + 1 :]
                if other not in unusable and jaccard(mine, sets[other]) >= 0.9
            ),
            None,
        )
        assert index.first_partner(place, lambda other: other not in unusable) == expected


@pytest.mark.parametrize("size", range(1, 81))
def test_merge_index_at_every_band_count_and_around_its_switch_to_prefixes(size: int) -> None:
    # Every partner size Jaccard >= 0.9 allows, before and after, subsets and supersets.
    base = [f"t{i}" for i in range(size)]
    extra = [f"x{i}" for i in range(6)]
    sets = [frozenset(base)]
    for k in range(1, 6):
        sets += [frozenset(base[k:]), frozenset(base + extra[:k]), frozenset(base[k:] + extra[:1])]
    sets.append(frozenset(base))
    for ordered in (sets, sets[::-1]):
        places = list(range(len(ordered)))
        index = MergeIndex(places, ordered)
        for place, mine in enumerate(ordered):
            expected = next(
                (other for other in places[place + 1 :] if jaccard(mine, ordered[other]) >= 0.9),
                None,
            )
            assert index.first_partner(place, lambda _: True) == expected
