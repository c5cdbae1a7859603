"""Finding contradictions (docs/VERDICTS.md, "Finding contradictions"): pure, one pass over the
notes, no pair search.

A *contradiction group* is two or more visible notes that are about one thing and say different
things about it:

- *topic* groups: the visible notes sharing a topic key (core/review/topics.py; a store supplies its
  own), when their texts do not all agree;
- *promotion* groups: the notes promotion would write under one section and title (one is
  written, the others are shadowed: docs/PROMOTION.md, "Notes that share a title"), unless a
  topic group already holds them all.

Each note is read up to its first `TEXT_BOUND` characters of title and content
(core/notes/bounded_text.py): a note of 100 MB costs what a note of 64 KB does.

Two texts *agree* when they are equal ignoring case, or their token sets have a Jaccard of 0.85
or more (a paraphrase is not a contradiction); a store may supply its own tokenizer. Inside a
group, notes that agree form one *position*: a note joins the first position whose first note it
agrees with (at most `MAX_POSITIONS` are compared, so a huge topic stays linear); a group needs
two positions.

API (for the console and the command line):
- `find_contradictions(notes, topic=nuggets_topic, threshold=DEFAULT_THRESHOLD,
  tokens=token_set, promotion=True) -> list[Group]`
- `Group`: `id` (stable: a short hash of the member ids), `kind` ("topic" | "promotion"),
  `nugget`, `topic` (words for a person), `note_ids` (file order), `positions` (lists of ids)
- `group_id(note_ids) -> str`, `find_group(groups, group_id) -> Group` (`UnknownGroupError`)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from core.errors import NuggetsError
from core.models import RawNote
from core.notes import fields
from core.notes.bounded_text import bounded_notes
from core.notes.text import unique_tokens
from core.promotion.candidates import DEFAULT_THRESHOLD, candidates, entry_title, section_of
from core.review.topics import TopicKey, nuggets_topic, without_date

AGREEING_PERCENT = 85  # texts agree at a token Jaccard of 0.85 or more
MAX_POSITIONS = 16
GROUP_ID_PREFIX = "c-"

Tokenizer = Callable[[str], frozenset[str]]


class UnknownGroupError(NuggetsError):
    pass


@dataclass(frozen=True)
class Group:
    id: str
    kind: str  # "topic" or "promotion"
    nugget: str  # the nugget (a promotion group across nuggets: the written note's)
    topic: str  # what the notes are about, for a person
    note_ids: tuple[str, ...]
    positions: tuple[tuple[str, ...], ...]  # notes that agree, in file order

    def to_json_dict(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "nugget": self.nugget, "topic": self.topic,
                "noteIds": list(self.note_ids), "positions": [list(p) for p in self.positions]}


def group_id(note_ids: Iterable[str]) -> str:
    """Stable while the members stay the same: a short hash of their sorted ids."""
    joined = "\n".join(sorted(note_ids)).encode("utf-8", "surrogatepass")
    return GROUP_ID_PREFIX + hashlib.sha256(joined).hexdigest()[:8]


def token_set(text: str) -> frozenset[str]:
    """The default tokens: the engine's (core/notes/text.py); a store may pass its own (MicroClaw's
    bot splits on whitespace, case-sensitive)."""
    return frozenset(unique_tokens(text))


def sets_agree(a: frozenset[str], b: frozenset[str]) -> bool:
    """Jaccard of the token sets at least 0.85 (in integers: no rounding at the edge)."""
    small, large = sorted((len(a), len(b)))
    if 100 * small < AGREEING_PERCENT * large:  # the Jaccard is at most small / large
        return False
    common = len(a & b)
    union = small + large - common
    return union > 0 and 100 * common >= AGREEING_PERCENT * union


def positions_of(notes: list[RawNote], tokens: Tokenizer = token_set) -> list[list[RawNote]]:
    """The notes split into runs that agree (each compared with the first note of at most
    `MAX_POSITIONS` positions; every text tokenized once)."""
    positions: list[list[RawNote]] = []
    heads: list[tuple[str, frozenset[str], int]] = []  # first text folded, its tokens, their count
    for note in notes:
        text = fields.text(note, "content")
        folded, own = text.casefold(), tokens(text)
        size = len(own)
        low, high = size * AGREEING_PERCENT, size * 100  # bounds on a head's size, scaled
        for position, (head, head_tokens, head_size) in zip(positions, heads[:MAX_POSITIONS],
                                                             strict=False):
            if folded == head or (low <= 100 * head_size and AGREEING_PERCENT * head_size <= high
                                  and sets_agree(own, head_tokens)):
                position.append(note)
                break
        else:
            positions.append([note])
            heads.append((folded, own, size))
    return positions


def _group(kind: str, nugget: str, topic: str, members: list[RawNote],
           tokens: Tokenizer) -> Group | None:
    positions = positions_of(members, tokens)
    if len(positions) < 2:
        return None
    ids = tuple(n["id"] for n in members)
    return Group(group_id(ids), kind, nugget, topic, ids,
                 tuple(tuple(n["id"] for n in p) for p in positions))


def _topic_words(key: Hashable, note: RawNote) -> str:
    if isinstance(key, tuple) and len(key) == 2:  # a store's key beside the nugget
        return str(key[1])
    return without_date(fields.text(note, "title")) or str(key)


@dataclass(frozen=True)
class TopicRules:
    """How a store's notes are grouped into contradictions: the topic two notes must share,
    the tokens their similarity is judged on, and whether the groups promotion would shadow
    (same-title notes of one MEMORY.md section) count too."""

    topic: TopicKey = nuggets_topic
    tokens: Tokenizer = token_set
    promotion: bool = True


def find_by_rules(notes: list[RawNote], rules: TopicRules) -> list[Group]:
    return find_contradictions(notes, rules.topic, tokens=rules.tokens, promotion=rules.promotion)


def find_contradictions(notes: list[RawNote], topic: TopicKey = nuggets_topic,
                        threshold: int = DEFAULT_THRESHOLD,
                        tokens: Tokenizer = token_set,
                        promotion: bool = True) -> list[Group]:
    """Every contradiction group of the visible notes, topic groups first, each in file order.
    `promotion`: also the groups promotion would shadow (a store without MEMORY.md says no).
    Each note's text is read up to core/notes/bounded_text.py's bound."""
    notes = bounded_notes(notes)
    buckets: dict[Hashable, list[RawNote]] = {}
    for note in notes:
        if fields.hidden(note):
            continue
        key = topic(note)
        if key is not None:
            buckets.setdefault(key, []).append(note)
    groups = [g for key, members in buckets.items() if len(members) > 1
              if (g := _group("topic", fields.nugget(members[0]),
                              _topic_words(key, members[0]), members, tokens))]
    if not promotion:
        return groups
    holder = {i: g.id for g in groups for i in g.note_ids}
    order = {note["id"]: position for position, note in enumerate(notes)}
    for written, shadowed in candidates(notes, threshold):
        if not shadowed:
            continue
        members = sorted([written, *shadowed], key=lambda n: order[n["id"]])
        if len({holder.get(n["id"]) for n in members}) == 1 and members[0]["id"] in holder:
            continue  # a topic group holds them all already
        found = _group("promotion", fields.nugget(written),
                       f"{section_of(written)}: {entry_title(written)}", members, tokens)
        if found is not None:
            groups.append(found)
    return groups


def find_group(groups: list[Group], wanted: str) -> Group:
    for group in groups:
        if group.id == wanted:
            return group
    raise UnknownGroupError(f"no contradiction group {wanted} (see `nuggets conflicts`)")
