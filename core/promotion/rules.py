"""How the screen's rules are written and tried: phrases read through the skeleton, and gates
that say when a rule is worth matching at all.

Pure. A rule is a pattern (or anything that searches as one), its reason and its gate. Most
notes hold none of a rule's phrases whole, so `Rules` answers every word gate at once from one
index of the phrases' words, and a pattern runs only on a text its gate lets through.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from core.promotion.skeleton import skeleton


class Finds(Protocol):
    """A compiled pattern, or anything that searches a text as one does."""

    @property
    def pattern(self) -> str: ...

    def search(self, string: str, /) -> object: ...


WORD = re.compile(r"\w+")


class Substrings:
    """What a text must hold for a rule to be worth matching: one of these pieces. Pieces of
    scripts written without spaces (CJK) are looked for only in a text that is not ASCII."""

    def __init__(self, pieces: Iterable[str], not_ascii: bool = False) -> None:
        self.any_piece = re.compile("|".join(re.escape(p) for p in sorted(set(pieces))))
        self.not_ascii = not_ascii

    def open(self, text: str) -> bool:
        if self.not_ascii and text.isascii():
            return False
        return self.any_piece.search(text) is not None  # one pass, not one per piece


class Words:
    """What a text must hold for a rule to be worth matching: every word of one of its phrases
    (as the skeleton reads them), looked up in the set of the text's words: most notes hold no
    phrase whole, and a set lookup costs nothing next to a pass over the text."""

    def __init__(self, phrases: Iterable[str]) -> None:
        # each phrase filed under its longest word, the likeliest to be rare in a note
        self.rest: dict[str, set[tuple[str, ...]]] = {}
        for phrase in phrases:
            for form in forms(phrase):
                found = WORD.findall(form)
                key = max(found, key=len)
                found.remove(key)
                self.rest.setdefault(key, set()).add(tuple(found))


Rule = tuple[Finds, str, Substrings | Words]  # a pattern, its reason, when it is worth trying


class Rules:
    """Rules tried in order on a text, each only when its gate is open; the word gates of all
    of them are answered at once from one index of their phrases' longest words."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules = tuple(rules)
        self.index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for number, (_, _, gate) in enumerate(self.rules):
            if isinstance(gate, Words):
                for key, rests in gate.rest.items():
                    self.index.setdefault(key, []).extend((number, r) for r in rests)
        self.keys = frozenset(self.index)

    def _open_by_words(self, text: str) -> set[int]:
        held = set(WORD.findall(text))
        return {
            number
            for key in self.keys.intersection(held)
            for number, rest in self.index[key]
            if all(w in held for w in rest)
        }

    def first_reason(self, text: str) -> str | None:
        """The reason of the first rule whose gate is open on the text and that matches it."""
        by_words = self._open_by_words(text) if self.index else set()
        for number, (finds, reason, gate) in enumerate(self.rules):
            is_open = number in by_words if isinstance(gate, Words) else gate.open(text)
            if is_open and finds.search(text):
                return reason
        return None


SEP = r"[^\w.!?;\n]+"  # between two words of one sentence


def forms(phrase: str) -> set[str]:
    """The phrase as the skeleton reads it, in lower case and with capitals: a few letters read
    differently by case (Cyrillic З reads as 3, з as itself), so a phrase at the start of a
    sentence or in capitals is read apart."""
    return {skeleton(p) for p in (phrase, phrase.capitalize(), phrase.title(), phrase.upper())}


def alt(phrases: Iterable[str]) -> str:
    """An alternation of phrases, each as the skeleton reads it, longest first; a space stands
    for any separators between two words."""
    found = sorted({f for p in phrases for f in forms(p)}, key=lambda f: (-len(f), f))
    return "(?:" + "|".join(re.escape(f).replace(r"\ ", SEP) for f in found) + ")"


def words(text: str) -> list[str]:
    """Phrases separated by `|` (so one may hold spaces)."""
    return [w.strip() for w in text.split("|") if w.strip()]
