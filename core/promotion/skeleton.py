"""The skeleton of a text: what the screening patterns read instead of the text itself.

Pure. Compatibility forms are folded (NFKC: fullwidth and mathematical letters), combining marks
and invisible characters dropped, letters that look like Latin ones read as the letters they
imitate, case folded. So `Ignоrе` with Cyrillic о and е, `ig\u0301nore`, `ign\u034fore`,
`ıgnore` (dotless i) and `ꓲgnore` (Lisu) all read as `ignore`.

The look-alikes come from Unicode's confusables data (UTS #39), as the `confusable-homoglyphs`
package ships it (its data file, read once, on the first text that is not ASCII): a character
is read as the ASCII text Unicode gives as its prototype. Two
readings are added where the data stops short of ASCII: a character Unicode finds confusable with
a Latin small capital (`ᴛ`, `ʙ`, `ʜ`) reads as that capital's letter (Cyrillic т and в, Greek τ,
κ), and a handful of Greek and Cyrillic letters that stand for a Latin one in running text
although Unicode pairs them with another non-ASCII letter (`_READ_AS`). Unicode reads every
vertical stroke (`I`, `1`, `ꓲ`, `Ӏ`) as `l`; which of `i` and `l` a word meant is left to the
screen, which knows its words.

Work is linear in the text: each distinct character is folded once, then one translation.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

from core.safeio.json_read import loads

# Invisible although not format characters: grapheme joiner, Hangul fillers, Khmer vowels,
# Mongolian variation selectors.
INVISIBLE_MARKS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5\u180b\u180c\u180d\u180f")
_DROPPED_CATEGORIES = ("Mn", "Me", "Cf")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
# Unicode pairs these with a non-ASCII letter only (ε with ꞓ, χ with ꭓ, ω with ꞷ, ς with ϛ,
# п with π, ь with ƅ), yet a reader, and a model, takes them for the Latin letter in a Latin word.
_READ_AS = {"ε": "e", "χ": "x", "ω": "w", "ς": "s", "п": "n", "ь": "b"}


def _without_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) not in _DROPPED_CATEGORIES)


def _small_capital_letter(char: str) -> str | None:
    """`t` for LATIN LETTER SMALL CAPITAL T; None for any other character."""
    name = unicodedata.name(char, "")
    letter = name.removeprefix(_SMALL_CAPITAL)
    return letter.lower() if name.startswith(_SMALL_CAPITAL) and len(letter) == 1 else None


def _is_han(char: str) -> bool:
    # An ideograph stands for itself: two look like strokes (丿, 丶) but are written in words.
    return unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH")


def _confusables() -> dict[str, list[dict[str, str]]]:
    """The package's data file, read as it ships: each character and those Unicode finds
    confusable with it, both ways. Read directly, so no setting of the package's moves it."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    loaded: dict[str, list[dict[str, str]]] = loads(data)
    return loaded


@cache
def prototypes() -> dict[str, str]:
    """Each single non-ASCII character with an ASCII reading, and that reading."""
    readings: dict[str, str] = {}
    classes: dict[str, list[str]] = {}
    for char, homoglyphs in _confusables().items():
        if len(char) != 1 or char.isascii() or _is_han(char):
            continue
        others = [_without_marks(h["c"]) for h in homoglyphs]
        classes[char] = others
        reading = next((o for o in others if o and o.isascii()), None)
        if reading:
            readings[char] = reading
    capitals = {c: letter for c in classes if (letter := _small_capital_letter(c))}
    for char, others in classes.items():
        # a small capital itself, one it is confusable with, or one a step further (κ pairs
        # with ĸ, which pairs with ᴋ)
        near = [char, *others, *(c for o in others for c in classes.get(o, ()))]
        letter = next((capitals[c] for c in near if c in capitals), None)
        if letter and char not in readings:
            readings[char] = letter
    return readings | _READ_AS


def _reading(char: str) -> str:
    table = prototypes()
    return table.get(char) or "".join(table.get(c, c) for c in char)


def _fold_char(char: str) -> str:
    """One character as the skeleton reads it. Its compatibility form when that is ASCII
    (fullwidth and mathematical letters); else its look-alike reading (of the character, or of
    its compatibility form without marks), case folded and read again (a capital with no
    reading may have one in lower case), marks dropped."""
    if char in INVISIBLE_MARKS or unicodedata.category(char) in _DROPPED_CATEGORIES:
        return ""
    compatible = unicodedata.normalize("NFKC", char)
    if compatible.isascii():
        return compatible.lower()
    read = prototypes().get(char) or _reading(_without_marks(compatible))
    return _without_marks("".join(_reading(c) for c in _without_marks(read).casefold()))


def skeleton(text: str) -> str:
    """The text as patterns see it: NFKC, no marks or invisible characters, look-alikes read as
    Latin letters, case folded. Line breaks stay."""
    if text.isascii():
        return text.lower()  # nothing to fold but case (most notes: at C speed)
    table = {ord(c): _fold_char(c) for c in set(text) if not c.isascii()}
    # NFC puts back together what dropping marks left apart (Hangul syllables)
    return unicodedata.normalize("NFC", text.translate(table).lower())
