"""Untrusted note text made inert for display: no escape sequences, control or invisible
characters reach a terminal; each shows as a visible placeholder instead."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata

_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_INVISIBLE = set("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")
# Variation selectors 1-16 and 17-256: printable marks, yet unsafe. They can smuggle text
# invisibly, and one after a character may make a terminal draw it wider than it was counted.
_SELECTORS = (("\ufe00", "\ufe0f"), ("\U000e0100", "\U000e01ef"))


def _selector(char: str) -> bool:
    return any(low <= char <= high for low, high in _SELECTORS)


def _placeholder(char: str) -> str:
    code = ord(char)
    if code == 0x1B:
        return "␛"
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ ␁ … ␟
    if code == 0x7F:
        return "␡"
    return f"<U+{code:04X}>"


def _unsafe(char: str, keep_newlines: bool) -> bool:
    if char == "\n":
        return not keep_newlines
    if char == "\t":
        return False
    if char in _BIDI or char in _INVISIBLE or _selector(char):
        return True
    category = unicodedata.category(char)
    return category in ("Cc", "Cf", "Cs", "Co") or category == "Zl" or category == "Zp"


BLOCK = 64


def _unsafe_codes() -> list[int]:
    """Every code point `_unsafe` flags (newline and tab aside), in order, outside planes 4-13
    (no assigned characters) and 15-16 (private use, added whole by the caller).

    A block of code points that are all printable holds none of them, except the variation
    selectors (printable marks), so only the other blocks are looked at one by one.
    """
    codes = []
    for start in itertools.chain(range(0, 0x40000, BLOCK), range(0xE0000, 0xE1000, BLOCK)):
        block = "".join(map(chr, range(start, start + BLOCK)))
        holds_selector = any(
            ord(low) < start + BLOCK and start <= ord(high) for low, high in _SELECTORS
        )
        if block.isprintable() and not holds_selector:
            continue
        codes += [ord(c) for c in block if _unsafe(c, keep_newlines=True)]
    return codes


@functools.cache
def _unsafe_pattern() -> re.Pattern[str]:
    """One character class of every character `_unsafe` flags (newline and tab aside).

    Built once, on the first text that needs it (~40 ms), so long texts are checked at
    regular-expression speed.
    """
    ranges: list[tuple[int, int]] = []
    for code in _unsafe_codes():
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    ranges += [(0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]
    parts = "".join(
        re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges
    )
    return re.compile(f"[{parts}]")


_HAS_SELECTOR = re.compile("[" + "".join(f"{low}-{high}" for low, high in _SELECTORS) + "]")


def _clean(text: str) -> bool:
    """True when nothing in the text needs replacing (checked at C speed)."""
    printable = text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()
    return printable and (text.isascii() or _HAS_SELECTOR.search(text) is None)


def inert(text: str, keep_newlines: bool = True) -> str:
    """The text with every control, format, bidi and zero-width character shown as a placeholder.

    Tabs and newlines stay unless `keep_newlines` is false (for one-line cells: a newline shows
    as its placeholder, a tab as a space, since a terminal would jump it to the next stop).
    """
    if not _clean(text):
        text = _unsafe_pattern().sub(lambda m: _placeholder(m.group()), text)
    if keep_newlines:
        return text
    return text.replace("\n", _placeholder("\n")).replace("\t", " ")


def hidden_characters(text: str) -> list[str]:
    """The distinct characters `inert` would replace (newlines and tabs aside), in order."""
    if _clean(text):
        return []
    return list(dict.fromkeys(_unsafe_pattern().findall(text)))


def one_line(text: str) -> str:
    return inert(text, keep_newlines=False)


def inert_json(text: str) -> str:
    """JSON text with every character `inert` would replace written as a \\u escape.

    Those characters can only stand inside JSON strings, where an escape means the same.
    """
    if _clean(text):
        return text
    return _unsafe_pattern().sub(lambda m: _json_escape(m.group()), text)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
