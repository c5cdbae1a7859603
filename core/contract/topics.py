"""How a store's notes are grouped into contradictions, as the store hands it to the engine:
the topic two notes must share, the tokens their texts are compared on, the groups it records
itself (`Group`), and which notes its promotion would write (docs/VERDICTS.md). Finding the
groups is the engine's (core/review/contradictions.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass

from core.models import RawNote
from core.promotion.candidates import written_ids

# What a note is about (None: no topic, never in a group); core/review/topics.py
TopicKey = Callable[[RawNote], Hashable | None]
Tokenizer = Callable[[str], frozenset[str]]
Promotable = Callable[[list[RawNote]], Collection[str]]  # the notes promotion would write


@dataclass(frozen=True)
class Group:
    """A contradiction group (two or more notes about one thing that say different things) or
    a duplicate set (`duplicate`: they all say the same)."""

    id: str
    kind: str  # "topic" or "promotion"
    nugget: str  # the nugget (a promotion group across nuggets: the written note's)
    topic: str  # what the notes are about, for a person
    note_ids: tuple[str, ...]
    positions: tuple[tuple[str, ...], ...]  # notes that agree, in file order
    duplicate: bool = False  # one position: a duplicate set to merge, not a contradiction
    # why it no longer stands, as a system that records its own contradictions says (one side
    # superseded since): shown apart, nothing to decide; "" while it is open
    outdated: str = ""
    # notes of the same topic that state other things without disagreeing with these (no
    # minimal pair, docs/VERDICTS.md): shown beside the group, never decided with it
    related: tuple[str, ...] = ()

    def to_json_dict(self) -> dict[str, object]:
        found: dict[str, object] = {
            "id": self.id,
            "kind": self.kind,
            "nugget": self.nugget,
            "topic": self.topic,
            "duplicate": self.duplicate,
            "noteIds": list(self.note_ids),
            "positions": [list(p) for p in self.positions],
        }
        if self.related:
            found["related"] = list(self.related)
        return found | ({"outdated": self.outdated} if self.outdated else {})


@dataclass(frozen=True)
class TopicRules:
    """How a store's notes are grouped into contradictions: the topic two notes must share,
    the tokens their similarity is judged on, and whether the groups promotion would shadow
    (same-title notes of one MEMORY.md section) count too; and which notes its promotion would
    write (the verdict `promote` agrees with them, docs/VERDICTS.md)."""

    topic: TopicKey
    tokens: Tokenizer
    promotion: bool = True
    # the system's own contradictions that no longer stand (Group.outdated), listed after
    # the open ones; none by default
    outdated: Callable[[list[RawNote]], list[Group]] | None = None
    promoted: Promotable = written_ids
    promote_at: float = 2.0  # the strength the verdict `promote` needs (a store may lower it)
    # how case is folded before two texts are compared: the Unicode way, unless the system
    # folds otherwise (MicroClaw's bot lowers A-Z alone)
    fold: Callable[[str], str] = str.casefold
    # the topic names a contradiction the system recorded itself: its notes disagree as
    # recorded, without the minimal pair the engine looks for otherwise
    recorded: bool = False
