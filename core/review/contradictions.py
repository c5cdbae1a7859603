"""Finding contradictions (docs/VERDICTS.md, "Finding contradictions"): pure, one pass over the
notes, no pair search.

A *contradiction group* is two or more visible notes that are about one thing and disagree (a
minimal pair: one value said otherwise, or negated, core/review/minimal_pairs.py); a *duplicate
set* is two or more that are about one thing and all say the same (the queue offers to merge
them, apart from the contradictions; `Group.duplicate`); the other notes of the topic are the
group's *related* notes (`Group.related`: shown, never queued):

- *topic* groups: the visible notes sharing a topic key (core/review/topics.py; a store supplies its
  own), split into the groups above;
- *promotion* groups: the notes promotion would write under one section and title (one is
  written, the others are shadowed: docs/PROMOTION.md, "Notes that share a title"), split the
  same way, unless a topic group already holds them all.

Each note is read up to its first `TEXT_BOUND` characters of title and content
(core/notes/bounded_text.py): a note of 100 MB costs what a note of 64 KB does.

Two texts *agree* when what they state is equal, or its token sets have a Jaccard of 0.85 or
more (a paraphrase is not a contradiction) and they form no minimal pair; a store may supply its
own tokenizer. What a text states (`statement`) leaves out its provenance lines (when it was
confirmed, checked, seen or noted, its source, "see also" pointers) and repeated lines, and
folds case, whitespace and punctuation. Inside a topic, notes that agree form one *position*: a
note joins the first position whose first note it agrees with (at most `MAX_POSITIONS` are
compared, so a huge topic stays linear); positions joined by a minimal pair (each looked for
among the `MAX_POSITIONS` positions before it) are one contradiction, a lone position of two
notes or more a duplicate set. A store whose system records its own contradictions
(`TopicRules.recorded`) has each topic taken as one group, as recorded.

API (for the console and the command line):
- `find_contradictions(notes, topic=nuggets_topic, threshold=DEFAULT_THRESHOLD,
  tokens=token_set, promotion=True, recorded=False, judge=None, fold=str.casefold)
  -> list[Group]` (`fold`: how case is folded, as the system folds it)
- `PairJudge`: pairs of statements -> disagree or not (None: no answer), for `judge=`
- `group_members(notes, topic, threshold, promotion, tokens, recorded, judge, fold) ->
  list[Members]`: the notes of each group, its positions and related notes, before they are
  made `Group`s
- `Group`: `id` (stable: a short hash of the member ids), `kind` ("topic" | "promotion"),
  `nugget`, `topic` (words for a person), `note_ids` (file order), `positions` (lists of ids),
  `duplicate` (one position: every note states the same), `related` (ids)
- `statement(text, fold) -> str`: what a note states, folded as above
- `group_id(note_ids) -> str`, `find_group(groups, group_id) -> Group` (`UnknownGroupError`)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from core.contract.topics import Group as Group
from core.contract.topics import Promotable as Promotable
from core.contract.topics import Tokenizer as Tokenizer
from core.contract.topics import TopicRules as TopicRules
from core.errors import ArgumentError
from core.models import RawNote
from core.notes import fields
from core.notes.bounded_text import bounded_notes
from core.notes.text import unique_tokens
from core.promotion.candidates import (
    DEFAULT_THRESHOLD,
    candidates,
    entry_title,
    section_of,
)
from core.review.minimal_pairs import Clause, clauses, disagree
from core.review.topics import TopicKey, nuggets_topic, without_date

AGREEING_PERCENT = 85  # texts agree at a token Jaccard of 0.85 or more
MAX_POSITIONS = 16
GROUP_ID_PREFIX = "c-"


class UnknownGroupError(ArgumentError):
    """A contradiction group id that names no open group."""


def group_id(note_ids: Iterable[str]) -> str:
    """Stable while the members stay the same: a short hash of their sorted ids."""
    joined = "\n".join(sorted(note_ids)).encode("utf-8", "surrogatepass")
    return GROUP_ID_PREFIX + hashlib.sha256(joined).hexdigest()[:8]


def token_set(text: str) -> frozenset[str]:
    """The default tokens: the engine's (core/notes/text.py); a store may pass its own (MicroClaw's
    bot splits on whitespace, case-sensitive)."""
    return frozenset(unique_tokens(text))


# A line that says where a note came from or when it was confirmed, not what it states.
_PROVENANCE = re.compile(
    r"^(?:[-*•]\s*)?(?:"
    r"(?:confirmed|checked|verified|seen|noted|observed|recorded|reviewed)"
    r"(?:\s+(?:again|once more))?(?:\s+by\s+[^.]{1,60}?)?\s+(?:on|in|at|during)\b.*"
    r"|(?:sources?|via|ref)\s*:.*"
    r"|see\s+also\b.*"
    r")$",
    re.IGNORECASE,
)
_PUNCTUATION = re.compile(r"[^\w\s]+")


def statement(text: str, fold: Callable[[str], str] = str.casefold) -> str:
    """What a text states: provenance lines and repeated lines left out, case (`fold`: the
    Unicode way unless a store folds as its system does), whitespace and punctuation folded
    (punctuation is a word break)."""
    kept: dict[str, None] = {}
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped or _PROVENANCE.match(stripped):
            continue
        folded = " ".join(_PUNCTUATION.sub(" ", fold(stripped)).split())
        if folded:
            kept.setdefault(folded)
    return "\n".join(kept)


def unsourced(text: str) -> str:
    """The text without its provenance lines, otherwise as written (its case and punctuation
    tell a name and a clause apart)."""
    return "\n".join(raw for raw in text.splitlines() if not _PROVENANCE.match(raw.strip()))


def said(note: RawNote) -> tuple[Clause, ...]:
    """The clauses a note's content states (core/review/minimal_pairs.py)."""
    return clauses(unsourced(fields.text(note, "content")))


def sets_agree(a: frozenset[str], b: frozenset[str]) -> bool:
    """Jaccard of the token sets at least 0.85 (in integers: no rounding at the edge)."""
    small, large = sorted((len(a), len(b)))
    if 100 * small < AGREEING_PERCENT * large:  # the Jaccard is at most small / large
        return False
    common = len(a & b)
    union = small + large - common
    return union > 0 and 100 * common >= AGREEING_PERCENT * union


def positions_of(
    notes: list[RawNote],
    tokens: Tokenizer = token_set,
    stated: Callable[[RawNote], tuple[Clause, ...]] | None = None,
    fold: Callable[[str], str] = str.casefold,
) -> list[list[RawNote]]:
    """The notes split into runs that agree (each compared with the first note of at most
    `MAX_POSITIONS` positions; every text tokenized once). Alike token sets that still form a
    minimal pair (`after 3 attempts`, `after 5 attempts`: a tokenizer may drop a digit) do
    not agree."""
    positions: list[list[RawNote]] = []
    heads: list[tuple[str, frozenset[str], int, RawNote]] = []  # folded, tokens, count, note
    for note in notes:
        folded = statement(fields.text(note, "content"), fold)
        own = tokens(folded)
        size = len(own)
        low, high = size * AGREEING_PERCENT, size * 100  # bounds on a head's size, scaled
        for position, (head, head_tokens, head_size, first) in zip(
            positions, heads[:MAX_POSITIONS], strict=False
        ):
            if folded == head or (
                low <= 100 * head_size
                and AGREEING_PERCENT * head_size <= high
                and sets_agree(own, head_tokens)
                and not disagree((stated or said)(note), (stated or said)(first))
            ):
                position.append(note)
                break
        else:
            positions.append([note])
            heads.append((folded, own, size, note))
    return positions


@dataclass(frozen=True)
class Members:
    """The notes of one group (their text bounded), split into positions; `related`: the other
    notes of its topic, that disagree with none of them."""

    kind: str  # "topic" or "promotion"
    nugget: str
    topic: str
    notes: tuple[RawNote, ...]
    positions: tuple[tuple[RawNote, ...], ...] = ()
    related: tuple[RawNote, ...] = ()

    @property
    def note_ids(self) -> tuple[str, ...]:
        return tuple(n["id"] for n in self.notes)


def _group(members: Members) -> Group:
    ids = members.note_ids
    return Group(
        group_id(ids),
        members.kind,
        members.nugget,
        members.topic,
        ids,
        tuple(tuple(n["id"] for n in p) for p in members.positions),
        len(members.positions) < 2,
        related=tuple(n["id"] for n in members.related),
    )


# Pairs of statements (each a note's content) the rule found no minimal pair in, answered one by
# one: True they disagree, False they do not, None no answer (the rule stands). A model scorer
# judges them (core/review/model_scorer.py).
PairJudge = Callable[[list[tuple[str, str]]], list[bool | None]]
JUDGED_CHARS = 2_000  # of each statement a judge is shown


@dataclass
class _Topic:
    """One topic's notes being split: its positions, and which of them are joined."""

    kind: str
    nugget: str
    topic: str
    notes: list[RawNote]
    positions: list[list[RawNote]]
    joined: list[int]  # union-find over the positions

    def root(self, at: int) -> int:
        while self.joined[at] != at:
            self.joined[at] = self.joined[self.joined[at]]
            at = self.joined[at]
        return at

    def join(self, earlier: int, later: int) -> None:
        self.joined[self.root(later)] = self.root(earlier)

    def members(self) -> list[Members]:
        parts: dict[int, list[int]] = {}
        for at in range(len(self.positions)):
            parts.setdefault(self.root(at), []).append(at)
        order = {id(n): place for place, n in enumerate(self.notes)}
        found = []
        for part in parts.values():
            if len(part) == 1 and len(self.positions[part[0]]) == 1:
                continue  # one note that disagrees with nobody: nothing to decide
            inside = [n for at in part for n in self.positions[at]]
            kept = {id(n) for n in inside}
            found.append(
                Members(
                    self.kind,
                    self.nugget,
                    self.topic,
                    tuple(sorted(inside, key=lambda n: order[id(n)])),
                    tuple(tuple(self.positions[at]) for at in part),
                    tuple(n for n in self.notes if id(n) not in kept),
                )
            )
        return found


def split_topics(
    specs: list[tuple[str, str, str, list[RawNote]]],
    tokens: Tokenizer = token_set,
    recorded: bool = False,
    judge: PairJudge | None = None,
    fold: Callable[[str], str] = str.casefold,
) -> list[Members]:
    """The groups each topic's notes (kind, nugget, topic words, notes) hold: positions joined
    by a minimal pair (core/review/minimal_pairs.py) are one contradiction; a position of two
    notes or more that disagrees with no other is a duplicate set; the rest of the topic is
    related to each. Each position is compared with at most `MAX_POSITIONS` earlier ones, so
    this stays linear. `judge`: asked once, for every pair of positions the rule left apart
    (within that window), which of them disagree all the same. `recorded`: the system recorded
    each topic's notes as one contradiction: every position disagrees."""
    memo: dict[int, tuple[Clause, ...]] = {}  # note id() -> its clauses, each read once

    def stated(note: RawNote) -> tuple[Clause, ...]:
        found = memo.get(id(note))
        if found is None:
            found = memo[id(note)] = said(note)
        return found

    topics = [
        _Topic(kind, nugget, topic, notes, positions, list(range(len(positions))))
        for kind, nugget, topic, notes in specs
        for positions in [positions_of(notes, tokens, stated, fold)]
    ]
    if recorded:
        return [
            Members(t.kind, t.nugget, t.topic, tuple(t.notes), tuple(map(tuple, t.positions)))
            for t in topics
        ]
    apart: list[tuple[_Topic, int, int]] = []
    for each in topics:
        heads = [stated(p[0]) for p in each.positions]
        for later in range(1, len(each.positions)):
            for earlier in range(max(0, later - MAX_POSITIONS), later):
                if each.root(earlier) != each.root(later):
                    if disagree(heads[earlier], heads[later]):
                        each.join(earlier, later)
                    elif judge is not None:
                        apart.append((each, earlier, later))
    if judge is not None and apart:
        asked = [t for t in apart if t[0].root(t[1]) != t[0].root(t[2])]
        answers = judge(
            [(_judged(t.positions[a][0]), _judged(t.positions[b][0])) for t, a, b in asked]
        )
        for (each, earlier, later), answer in zip(asked, answers, strict=False):
            if answer:
                each.join(earlier, later)
    return [group for each in topics for group in each.members()]


def _judged(note: RawNote) -> str:
    return unsourced(fields.text(note, "content"))[:JUDGED_CHARS]


def _topic_words(key: Hashable, note: RawNote) -> str:
    if isinstance(key, tuple) and len(key) == 2:  # a store's key beside the nugget
        return str(key[1])
    return without_date(fields.text(note, "title")) or str(key)


def find_by_rules(
    notes: list[RawNote], rules: TopicRules, judge: PairJudge | None = None
) -> list[Group]:
    groups = find_contradictions(
        notes,
        rules.topic,
        tokens=rules.tokens,
        promotion=rules.promotion,
        recorded=rules.recorded,
        judge=judge,
        fold=rules.fold,
    )
    return groups + (rules.outdated(notes) if rules.outdated is not None else [])


def outdated_refusal(group: Group) -> str:
    return f"contradiction {group.id} is outdated ({group.outdated}): nothing to decide"


def find_contradictions(
    notes: list[RawNote],
    topic: TopicKey = nuggets_topic,
    threshold: int = DEFAULT_THRESHOLD,
    tokens: Tokenizer = token_set,
    promotion: bool = True,
    recorded: bool = False,
    judge: PairJudge | None = None,
    fold: Callable[[str], str] = str.casefold,
) -> list[Group]:
    """Every contradiction group of the visible notes, topic groups first, each in file order.
    `promotion`: also the groups promotion would shadow (a store without MEMORY.md says no);
    `judge`: asked about the pairs the rule finds no minimal pair in (`split_topics`).
    Each note's text is read up to core/notes/bounded_text.py's bound."""
    groups = [
        _group(members)
        for members in group_members(
            notes, topic, threshold, promotion, tokens, recorded, judge, fold
        )
    ]
    return sorted(groups, key=lambda g: g.duplicate)  # the contradictions first


def group_members(
    notes: list[RawNote],
    topic: TopicKey = nuggets_topic,
    threshold: int = DEFAULT_THRESHOLD,
    promotion: bool = True,
    tokens: Tokenizer = token_set,
    recorded: bool = False,
    judge: PairJudge | None = None,
    fold: Callable[[str], str] = str.casefold,
) -> list[Members]:
    """The notes of every group `find_contradictions` finds, in its order before it puts the
    contradictions first (its id is `group_id` of theirs), each split into its positions. Each
    note's text is read up to core/notes/bounded_text.py's bound."""
    notes = bounded_notes(notes)
    buckets: dict[Hashable, list[RawNote]] = {}
    for note in notes:
        if fields.hidden(note):
            continue
        key = topic(note)
        if key is not None:
            buckets.setdefault(key, []).append(note)
    topics = [members for members in buckets.values() if len(members) > 1]
    keys = [key for key, members in buckets.items() if len(members) > 1]
    specs = [
        ("topic", fields.nugget(members[0]), _topic_words(key, members[0]), members)
        for key, members in zip(keys, topics, strict=True)
    ]
    if not promotion:
        return split_topics(specs, tokens, recorded, judge, fold)
    holder = {n["id"]: number for number, members in enumerate(topics) for n in members}
    order = {note["id"]: position for position, note in enumerate(notes)}
    for written, shadowed in candidates(notes, threshold):
        if not shadowed:
            continue
        together = sorted([written, *shadowed], key=lambda n: order[n["id"]])
        if len({holder.get(n["id"]) for n in together}) == 1 and together[0]["id"] in holder:
            continue  # a topic group holds them all already
        specs.append(
            (
                "promotion",
                fields.nugget(written),
                f"{section_of(written)}: {entry_title(written)}",
                together,
            )
        )
    return split_topics(specs, tokens, recorded, judge, fold)


def find_group(groups: list[Group], wanted: str) -> Group:
    for group in groups:
        if group.id == wanted:
            return group
    raise UnknownGroupError(f"no contradiction group {wanted} (see `nuggets conflicts`)")
