"""When two statements disagree (docs/VERDICTS.md, "Disagreeing"): they form a *minimal pair*.
Pure; no model.

Each text is cut into *clauses* (at `. ; ! ? , ( ) [ ]` and line ends, and before `because`,
`so`, `but`, `while`, `whereas`, `when`, `if`, `unless`, `until`), each clause a short run of
words: case folded, `n't` read as `not`, a plural read as its stem, an inline provenance tail
left out (`per thread 2970`, `ticket OPS-2213`, `(PR #3006)`, `as of build 5771`, `checked on
2026-08-22`, `since v1.16.0`) and filler words dropped (articles, forms of *be* and *do*, `now`,
`still`, `currently`, `today`, and the verbs of a change such as `moved`, `switched`, `stays`, so
`the api moved to port 8081` reads `api to port 8081` against `api on 8080`). A clause that
opens with a condition (`when unsure about money, ...`) states no fact of its own and is left
out.

Two clauses are a minimal pair when they say the same about the same attribute with one
difference:

- *value*: one span differs, of at most `MAX_SLOT` words on each side, not the first word (the
  thing talked about stays the same: `the router depends on express` and `the cron scheduler
  depends on express` are two facts): both sides a number, a name, a day or a month; or one
  word against one word (or at most two against two, one side a value) with at least
  `MIN_SHARED` words shared;
- *negation*: they differ only by negation (`not`, `no`, `never`, `no longer`) or by an
  opposite (`always`/`never`, `enabled`/`disabled`, `allowed`/`forbidden`, `true`/`false`);
- *retired*: one says a thing is gone (`the old pnpm test script was removed`) and the other
  states that thing (`pnpm test runs the unit tests`).

Two texts disagree (`disagree`) when one retires what the other states, or when the clauses
that say one thing in both differ, all together, in exactly one span and that span makes a
minimal pair; texts that differ in more are related, not contradicting. Two bare values (`vim`,
`helix`) under one title disagree.

API: `clauses(text) -> tuple[Clause, ...]`, `pair_kind(a, b) -> str | None` ("value",
"negation", "retired"), `disagree(a, b) -> str | None` over two texts' clauses.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

MAX_CLAUSES = 32  # of one note: what it states first decides
MAX_SLOT = 3  # words on either side of a differing value
MIN_SHARED = 2  # words the two clauses share, unless the values are numbers, names or days

# A word (`v1.16.0`, `test:e2e`, `OPS-2213` and `doesn't` are one each) or a mark that ends a
# clause: one pass over the text.
_TOKEN = re.compile(r"[^\W_]+(?:[._:'\u2019-][^\W_]+)*|[.;!?,()\[\]\n]")
_CUTTERS = frozenset("because so but while whereas when whenever if unless until".split())
_NOTS = {"can't": ("can", "not"), "won't": ("will", "not"), "cannot": ("can", "not")}
# The words that lead an inline provenance tail: `per thread 2970`, `(PR #3006)`, ... (the
# longest first), each followed by a word holding a digit at the clause's end.
_TAIL_LEADS = tuple(
    tuple(lead.split())
    for lead in (
        "as of build",
        "per thread",
        "checked on",
        "confirmed on",
        "noted on",
        "seen on",
        "as of",
        "ticket",
        "pr",
        "build",
        "issue",
        "since",
    )
)
_FILLER = frozenset(
    "a an the is are was were be been being am do does did now still currently today moved "
    "moves changed switched stays stay remains became becomes".split()
)
_CONDITIONS = frozenset("when whenever if unless while until before after".split())
_NEGATIONS = frozenset("not no never longer".split())
_OPPOSITES = frozenset(
    frozenset(pair)
    for pair in (
        ("always", "never"),
        ("enabled", "disabled"),
        ("enable", "disable"),
        ("allowed", "forbidden"),
        ("true", "false"),
        ("yes", "no"),
        ("on", "off"),
        ("can", "cannot"),
    )
)
_RETIRED = frozenset("removed deleted dropped retired deprecated gone".split())
_RETIRED_FILLER = frozenset("old former previous script command target flag option setting".split())
_DAYS = frozenset(  # and the numbers in words
    "one two three four five six seven eight nine ten eleven twelve twenty thirty hundred "
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "may june july august september october november december mon tue wed thu fri sat sun "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


@dataclass(frozen=True)
class Clause:
    words: tuple[str, ...]  # folded, filler left out
    values: frozenset[int]  # positions of words that are numbers, names, days or months
    retires: tuple[str, ...] = ()  # the thing it says is gone (`pnpm test`), if it says so


def clauses(text: str) -> tuple[Clause, ...]:
    """The clauses a text states, in order, each once (see the module's docstring)."""
    found: dict[tuple[str, ...], Clause] = {}
    words: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        cut = len(token) == 1 and not token.isalnum()
        if cut or token.casefold() in _CUTTERS:
            clause = _clause(_without_tail(words))
            if clause is not None:
                found.setdefault(clause.words, clause)
                if len(found) == MAX_CLAUSES:
                    return tuple(found.values())
            words = [] if cut else [token]
        else:
            words.append(token)
    clause = _clause(_without_tail(words))
    if clause is not None and len(found) < MAX_CLAUSES:
        found.setdefault(clause.words, clause)
    return tuple(found.values())


def _without_tail(words: list[str]) -> list[str]:
    """The words without an inline provenance tail (`… per thread 2970`, `… ticket OPS-2213`)."""
    while words and any(c.isdigit() for c in words[-1]):
        before = [w.casefold() for w in words[-4:-1]]
        lead = next((t for t in _TAIL_LEADS if tuple(before[-len(t) :]) == t), None)
        if lead is None:
            break
        words = words[: -1 - len(lead)]
    return words


def _clause(words: list[str]) -> Clause | None:
    if not words or words[0].casefold() in _CONDITIONS:
        return None
    kept: list[str] = []
    values: set[int] = set()
    for place, word in enumerate(words):
        read, valued = _read(word)
        if valued or (place > 0 and word[0].isupper() and len(read) == 1):
            values.add(len(kept))  # a number, a day, or a name (a capital not opening it)
        kept += read
    if not kept:
        return None
    thing: tuple[str, ...] = ()
    if not _RETIRED.isdisjoint(kept):
        thing = tuple(w for w in kept if w not in _RETIRED and w not in _RETIRED_FILLER)
    return Clause(tuple(kept), frozenset(values), thing if len(thing) >= 2 else ())


@functools.lru_cache(maxsize=1 << 16)
def _read(word: str) -> tuple[tuple[str, ...], bool]:
    """A word as a clause keeps it (none for filler, two for `can't`), and whether it is a
    number or a day whatever its place. Cached: memories repeat their words."""
    folded = word.casefold().replace("\u2019", "'")
    if folded in _FILLER:
        return (), False
    if folded in _NOTS or folded.endswith("n't"):
        return tuple(w for w in _NOTS.get(folded, (folded[:-3], "not")) if w not in _FILLER), False
    valued = folded in _DAYS or (not word.isalpha() and any(c.isdigit() for c in word))
    return (_stem(folded),), valued


def _stem(word: str) -> str:
    """A plural or third person read as its stem (`drinks` as `drink`), crudely: enough to see
    `does not drink` against `drinks`."""
    if len(word) > 3 and word.endswith("s") and word[-2] not in "suiy" and word.isalpha():
        return word[:-1]
    return word


def pair_kind(a: Clause, b: Clause) -> str | None:
    """How two clauses form a minimal pair: "value", "negation", "retired", or None."""
    if a.words == b.words:
        return None
    if _retired(a, b) or _retired(b, a):
        return "retired"
    if abs(len(a.words) - len(b.words)) > MAX_SLOT or not (
        a.words[0] == b.words[0] or a.words[0] in _NEGATIONS or b.words[0] in _NEGATIONS
    ):
        return None  # cheap: no value pair differs in its first word, no negation in so many
    span = _span(a, b)
    if span is None:
        return None  # more than one span
    i1, i2, j1, j2 = span
    shared = len(a.words) - (i2 - i1)
    if shared >= 1 and _negating(a.words[i1:i2], b.words[j1:j2]):
        return "negation" if shared >= MIN_SHARED or len(a.words) <= 3 else None
    if i1 == i2 or j1 == j2:
        return None  # a word added (a refinement), not a value changed
    if i1 == 0 or i2 - i1 > MAX_SLOT or j2 - j1 > MAX_SLOT:
        return None  # the thing itself differs, or more than a value does
    valued = any(i in a.values for i in range(i1, i2)) and any(j in b.values for j in range(j1, j2))
    if valued:
        return "value"  # a number, a name, a day on both sides: one shared word will do
    either = any(i in a.values for i in range(i1, i2)) or any(j in b.values for j in range(j1, j2))
    one_word = i2 - i1 == j2 - j1 == 1
    short = max(i2 - i1, j2 - j1) <= 2
    return "value" if (one_word or (either and short)) and shared >= MIN_SHARED else None


def _span(a: Clause, b: Clause) -> tuple[int, int, int, int] | None:
    """The one run of words two different clauses differ in (`a.words[i1:i2]` against
    `b.words[j1:j2]`), or None when they differ in more than one: what is left between their
    common start and common end shares a word. Linear, no alignment search."""
    x, y = a.words, b.words
    shorter = min(len(x), len(y))
    start = 0
    while start < shorter and x[start] == y[start]:
        start += 1
    end = 0
    while end < shorter - start and x[-1 - end] == y[-1 - end]:
        end += 1
    i2, j2 = len(x) - end, len(y) - end
    if start < i2 and start < j2 and not set(x[start:i2]).isdisjoint(y[start:j2]):
        return None  # a word in common between two differences
    return start, i2, start, j2


def _negating(left: tuple[str, ...], right: tuple[str, ...]) -> bool:
    if not left or not right:
        return bool(left or right) and set(left or right) <= _NEGATIONS
    if len(left) == len(right) == 1:
        return frozenset((left[0], right[0])) in _OPPOSITES
    return False


def _retired(said: Clause, gone: Clause) -> bool:
    """`gone` says the thing `said` states is gone (`the old pnpm test script was removed`)."""
    thing = gone.retires
    if not thing:
        return False
    words = said.words
    return any(words[i : i + len(thing)] == thing for i in range(len(words) - len(thing) + 1))


def _slots(a: Clause, b: Clause) -> int | None:
    """How many spans two clauses of one statement differ in, or None when they are not one
    statement (fewer than half their words shared, or another first word)."""
    if not (a.words[0] == b.words[0] or a.words[0] in _NEGATIONS or b.words[0] in _NEGATIONS):
        return None
    if a.words == b.words:
        return 0
    span = _span(a, b)
    if span is None:
        return 2  # more than one span: too many to disagree on one value
    i1, i2, j1, j2 = span
    shared = len(a.words) - (i2 - i1)
    small = i2 - i1 <= MAX_SLOT and j2 - j1 <= MAX_SLOT
    return 1 if small or 2 * shared >= max(len(a.words), len(b.words)) else None


def disagree(a: tuple[Clause, ...], b: tuple[Clause, ...]) -> str | None:
    """How two texts' clauses disagree, or None. They disagree when one retires what the
    other states, or when, over the clauses that say one thing in both, they differ in one
    span only and that span is a minimal pair: differing in more is related, not
    contradicting. Two texts that are each a bare value (one clause of at most `MAX_SLOT`
    words: `vim`, `helix`) are values of the attribute their shared title names."""
    if len(a) == len(b) == 1 and a != b and max(len(a[0].words), len(b[0].words)) <= MAX_SLOT:
        return "value"
    if any(_retired(x, y) for x in a for y in b if y.retires) or any(
        _retired(y, x) for x in a if x.retires for y in b
    ):
        return "retired"
    theirs = {c.words for c in b}
    by_first: dict[str, list[Clause]] = {}
    for right in b:
        by_first.setdefault(right.words[0], []).append(right)
    negating = [c for c in b if c.words[0] in _NEGATIONS]
    kind, slots = None, 0
    for left in a:
        if left.words in theirs:
            continue
        best: tuple[int, str | None] | None = None
        first = left.words[0]
        for right in b if first in _NEGATIONS else [*by_first.get(first, ()), *negating]:
            count = _slots(left, right)
            if count is not None and (best is None or count < best[0]):
                best = (count, pair_kind(left, right))
        if best is not None:
            slots += best[0]
            kind = kind or best[1]
        if slots > 1:
            return None
    return kind if slots == 1 else None
