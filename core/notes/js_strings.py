"""The agent's string handling, as JavaScript does it, where Python's differs.

The agent (TypeScript) trims with `String.prototype.trim`, splits on `\\s`, tokenizes ASCII with
`[a-z0-9/_:-]{2,}` and measures strings in UTF-16 code units. Python's `str.strip`, `\\s` and
`len` disagree on a few characters (U+FEFF is JavaScript whitespace, U+001C-U+001F and U+0085
are not; astral characters count twice), and matching the agent byte for byte needs its rules.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import filterfalse, islice

# ECMAScript WhiteSpace and LineTerminator: what `\s` and `trim()` know.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACE_RUN = re.compile(f"[{JS_SPACE}]+")
_TRIM = re.compile(f"^[{JS_SPACE}]+|[{JS_SPACE}]+$")
_TOKEN = re.compile(r"[a-z0-9/_:-]{2,}")

# The agent's own stop words (its graph code; not the ones of our pass, docs/PASS.md, "Text
# helpers the rules use").
AGENT_STOP_WORDS = frozenset(
    "a an and are as at be but by for from has have i in is it its of on or that the this to "
    "was with".split()
)


def js_trim(text: str) -> str:
    return _TRIM.sub("", text)


def collapse_spaces(text: str, replacement: str = " ") -> str:
    """`text.replace(/\\s+/g, replacement)`."""
    return _SPACE_RUN.sub(replacement, text)


def js_lower(text: str) -> str:
    """`toLowerCase()`; Python's `lower` agrees for every character the agent's patterns match."""
    return text.lower()


def agent_tokens(text: str, limit: int | None = None) -> list[str]:
    """The agent's `tokenize`: lower-case ASCII runs of 2+ of `a-z0-9/_:-`, stop words dropped,
    in order, repeats kept; stops after `limit` tokens."""
    if limit is None or len(text) <= 512:
        kept = filterfalse(AGENT_STOP_WORDS.__contains__, _TOKEN.findall(js_lower(text)))
        return list(kept if limit is None else islice(kept, limit))
    # Only the first tokens are wanted: lower-case a growing head of a long text, never
    # trusting a token that touches the cut (it may go on past it).
    size = 512
    while True:
        whole = size >= len(text)
        head = js_lower(text if whole else text[:size])
        found: list[str] = []
        for match in _TOKEN.finditer(head):
            if not whole and match.end() == len(head):
                break
            token = match.group()
            if token not in AGENT_STOP_WORDS:
                found.append(token)
                if len(found) >= limit:
                    return found
        if whole:
            return found
        size *= 8


def utf16_length(text: str) -> int:
    """JavaScript's `.length`: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@lru_cache(maxsize=1 << 16)  # tags repeat across notes; every changed note's vector asks
def normalize_tag(tag: str) -> str:
    """The agent's `normalizeTag`: trimmed, lower-cased, whitespace runs to `-`."""
    return collapse_spaces(js_lower(js_trim(tag)), "-")


def normalize_whitespace(text: str) -> str:
    """The agent's `normaliseWhitespace`: CRLF to LF, each line trimmed with inner whitespace
    runs collapsed, three or more line breaks cut to one blank line, the whole trimmed."""
    lines = text.replace("\r\n", "\n").split("\n")
    joined = "\n".join(collapse_spaces(js_trim(line)) for line in lines)
    return js_trim(re.sub(r"\n{3,}", "\n\n", joined))
