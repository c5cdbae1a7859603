"""Untrusted note text made inert for display: no escape sequences, control or invisible
characters reach a terminal; each shows as a visible placeholder instead."""

from __future__ import annotations

import unicodedata

_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_INVISIBLE = set("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")


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
    if char in _BIDI or char in _INVISIBLE or "\U000e0100" <= char <= "\U000e01ef":
        return True  # the last: variation selectors that can smuggle text invisibly
    category = unicodedata.category(char)
    return category in ("Cc", "Cf", "Cs", "Co") or category == "Zl" or category == "Zp"


def inert(text: str, keep_newlines: bool = True) -> str:
    """The text with every control, format, bidi and zero-width character shown as a placeholder.

    Tabs stay; newlines stay unless `keep_newlines` is false (for one-line cells).
    """
    if text.isprintable() and "\x1b" not in text:
        return text
    return "".join(_placeholder(c) if _unsafe(c, keep_newlines) else c for c in text)


def hidden_characters(text: str) -> list[str]:
    """The distinct characters `inert` would replace (newlines and tabs aside), in order."""
    if text.isprintable() and "\x1b" not in text:
        return []
    return list(dict.fromkeys(c for c in text if c not in "\n\t" and _unsafe(c, True)))


def one_line(text: str) -> str:
    return inert(text, keep_newlines=False)


def inert_json(text: str) -> str:
    """JSON text with every character `inert` would replace written as a \\u escape.

    Those characters can only stand inside JSON strings, where an escape means the same.
    """
    if text.isprintable() and "\x1b" not in text:
        return text
    return "".join(_json_escape(c) if c not in "\n\t" and _unsafe(c, True) else c
                   for c in text)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
