"""A note's first TEXT_BOUND characters of title and content decide its tokens, topic, scores and
siblings (core/notes/bounded_text.py): the work on a note of a few MB is the work on its first 64
KB, for
contradictions and verdicts alike, in both stores' rules. The notes themselves are not cut."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from typing import Any

import pytest

from core.models import RawNote
from core.notes.bounded_text import TEXT_BOUND
from core.reflection.reflect import plan_pass
from core.review import verdicts
from core.review.contradictions import find_contradictions, token_set
from core.review.default_scorer import default_score
from core.review.topics import nuggets_topic
from core.stores.microclaw.topics import microclaw_tokens, microclaw_topic
from tests.support.conflict_builders import pref

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
HEAD = " ".join(f"word{i}" for i in range(TEXT_BOUND // 6))  # a little over the bound
MB = 1 << 20


def _long(note_id: str, tail: str) -> RawNote:
    """A note of a few MB whose first TEXT_BOUND characters are HEAD's."""
    return pref(note_id, HEAD + " " + tail * (3 * MB // len(tail)), title="pref: long")


def _memory() -> list[RawNote]:
    return [
        _long("big-a", "alpha today "),
        _long("big-b", "omega "),
        pref("small", "User prefers short answers", title="pref: long"),
    ]


RULES: dict[str, tuple[Callable[[RawNote], Hashable | None], Callable[[str], frozenset[str]]]] = {
    "Nuggets": (nuggets_topic, token_set),
    "MicroClaw": (microclaw_topic, microclaw_tokens),
}


class Watch:
    """The topic key and tokenizer of a store, recording the longest text each was given."""

    def __init__(self, rules: str) -> None:
        self.rules = RULES[rules]
        self.longest = {"topic": 0, "tokens": 0}

    def topic(self, note: RawNote) -> Hashable | None:
        size = max(len(note.get("title", "")), len(note.get("content", "")))
        self.longest["topic"] = max(self.longest["topic"], size)
        return self.rules[0](note)

    def tokens(self, text: str) -> frozenset[str]:
        self.longest["tokens"] = max(self.longest["tokens"], len(text))
        return self.rules[1](text)


@pytest.mark.parametrize("rules", list(RULES))
def test_contradictions_read_each_note_up_to_the_bound(rules: str) -> None:
    notes = _memory()
    watch = Watch(rules)
    find_contradictions(notes, topic=watch.topic, tokens=watch.tokens)
    assert 0 < watch.longest["topic"] <= TEXT_BOUND
    assert 0 < watch.longest["tokens"] <= TEXT_BOUND
    assert len(notes[0]["content"]) > 3 * MB  # the note itself is whole


@pytest.mark.parametrize("rules", list(RULES))
def test_verdicts_read_each_note_up_to_the_bound(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: dict[str, int] = {"scored": 0, "siblings": 0}

    def longest(notes: list[RawNote]) -> int:
        return max(len(n.get("content", "")) for n in notes)

    def score(note: RawNote, context: Any) -> Any:
        given["scored"] = max(given["scored"], len(note["content"]))
        return scored(note, context)

    def siblings_pass(notes: list[RawNote], *args: Any, **kwargs: Any) -> Any:
        given["siblings"] = max(given["siblings"], longest(notes))
        return merge_pass(notes, *args, **kwargs)

    scored, merge_pass = default_score, plan_pass
    monkeypatch.setattr(verdicts, "default_score", score)
    monkeypatch.setattr(verdicts, "plan_pass", siblings_pass)
    notes = _memory()
    watch = Watch(rules)
    judgement = verdicts.judge(notes, NOW, topic=watch.topic, tokens=watch.tokens)
    assert [v.note_id for v in judgement.verdicts] == ["big-a", "big-b", "small"]
    assert 0 < given["scored"] <= TEXT_BOUND and 0 < given["siblings"] <= TEXT_BOUND
    assert 0 < max(watch.longest.values()) <= TEXT_BOUND
    assert len(notes[0]["content"]) > 3 * MB


def test_what_lies_past_the_bound_decides_nothing() -> None:
    """Two notes alike in their first 64 KB agree, however they go on; a transient word past
    the bound does not make a note transient."""
    notes = _memory()
    (group,) = find_contradictions(notes[:2])
    assert group.duplicate  # they agree: a set to merge, no contradiction
    [first, second] = verdicts.judge(notes[:2], NOW).verdicts
    assert first.scores == second.scores
    assert "transient" not in first.reasons["durability"]
