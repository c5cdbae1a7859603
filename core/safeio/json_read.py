"""The one way the project parses JSON: nesting bounded before the parser runs, and every way a
parse can fail a ValueError of one line.

Python's parser recurses once per level of arrays and objects: a line of 100,000 `[` (any file
another program or a person can write: the purifier's JSONL, the shared memory-log, a journal
entry, the Claude store's record) would end in RecursionError, which no reader expects. So
before any parse the text is scanned for how deep it nests, and deeper than `MAX_DEPTH` (or the
reader's own, smaller bound) is a `TooDeepError`. Nothing the project reads legitimately comes
near it: a graph note may hold 64 levels (core/notes/checks.py), a few more around it in its
file; 128 is twice that and far below the interpreter's recursion limit (1,000 frames) even when
a read runs deep in the console's call stack.

Two scans, both linear and both aware of strings and their escapes (a `[` inside a string is
text, `\\"` does not end one):
- a whole document (`loads`) is scanned as bytes with C-speed steps (escapes dropped, every byte
  but quotes and brackets deleted, what lies between quotes left out): ~0.2 s of processor time
  for a 150 MB graph, about a tenth of reading it;
- a value read from inside a text (`raw_decode`: the first notes of a graph's head, a JSON
  object in a model's prose) is scanned token by token from where it starts to where it ends.
The scans follow the parser exactly as far as the text is JSON; past its first error the parser
stops anyway. Text that is not JSON can still make the scan and the parser disagree (a stray
quote in prose); the parser then stops at its own guard, and that RecursionError is turned into
the same TooDeepError. A MemoryError while parsing is a `JsonReadError` too. The parser's own
syntax errors pass through as they are (`json.JSONDecodeError`, a ValueError with the line and
column), as does a UnicodeDecodeError of bytes that are not UTF-8.

API: `loads(data, max_depth, **options)`, `raw_decode(text, position, max_depth, **options)`,
`loads_lines(data, max_depth, **options)` (a JSONL file: each line's value, or its number among
the bad ones), `deeper_than(data, limit)`, `MAX_DEPTH`, `JsonReadError`, `TooDeepError`.
Options are json.loads's (`object_pairs_hook`, the number hooks of core/notes/json_numbers.py).
May import: nothing of the project.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any, TypeVar

MAX_DEPTH = 128

_Parsed = TypeVar("_Parsed")
# Bytes the scan of a document keeps: quotes (strings) and brackets (nesting).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
# Escapes that hide a quote from the scan: `\\` (a backslash) and `\"` (a quote in a string).
_ESCAPE = re.compile(rb'\\[\\"]')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# A string (to its closing quote, or to the end of a text cut short), a bracket, or a character
# the parser accepts nowhere outside a string (it stops there; Python's also reads `Infinity`,
# `-Infinity` and `NaN`). Possessive: no backtracking, so each character is looked at once
# however the string ends.
_TOKEN = re.compile(
    r'"[^"\\]*+(?:\\.?[^"\\]*+)*+"?|[\[\]{}]|[^\s"\[\]{}:,\-+.0-9eEtrufalsnINiy]', re.S
)


class JsonReadError(ValueError):
    """JSON that could not be read, said in one line (the caller names the file)."""


class TooDeepError(JsonReadError):
    """JSON nested deeper than its reader follows."""


def loads(data: str | bytes, max_depth: int = MAX_DEPTH, **options: Any) -> Any:
    """json.loads(data, **options) for a whole document, refused with TooDeepError when arrays
    and objects nest more than `max_depth` levels. Bytes are read as UTF-8 (a leading
    byte-order mark dropped, as the json module does)."""
    return _guarded(lambda: _loads(data, max_depth, options))


def _loads(data: str | bytes, max_depth: int, options: dict[str, Any]) -> Any:
    if isinstance(data, bytes):
        scanned, text = data, data.decode("utf-8").removeprefix("\ufeff")
    else:
        scanned, text = data.encode("utf-8", "surrogatepass"), data
    if deeper_than(scanned, max_depth):
        raise _too_deep(max_depth)
    return json.loads(text, **options)


def raw_decode(
    text: str, position: int = 0, max_depth: int = MAX_DEPTH, **options: Any
) -> tuple[Any, int]:
    """The JSON value that starts at `position` and where it ends (json.JSONDecoder's
    raw_decode), refused with TooDeepError when it nests more than `max_depth` levels."""
    if _value_deeper_than(text, position, max_depth):
        raise _too_deep(max_depth)
    decoder = json.JSONDecoder(**options)
    return _guarded(lambda: decoder.raw_decode(text, position))


def loads_lines(
    data: str | bytes, max_depth: int = MAX_DEPTH, **options: Any
) -> tuple[list[tuple[int, Any]], list[int]]:
    """A JSONL text: (line number, value) of each line that reads, and the numbers of those that
    do not (not JSON, nested too deeply); blank lines are neither. The lines are parsed as one
    array when they all read (one parser call: ~2x faster than a call a line)."""
    text = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
    numbered = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    try:
        values = loads("[" + ",".join(line for _, line in numbered) + "]", max_depth + 1, **options)
    except ValueError:
        values = None
    if isinstance(values, list) and len(values) == len(numbered):
        return [(n, value) for (n, _), value in zip(numbered, values, strict=True)], []
    read: list[tuple[int, Any]] = []
    bad: list[int] = []
    for number, line in numbered:
        try:
            read.append((number, loads(line, max_depth, **options)))
        except ValueError:
            bad.append(number)
    return read, bad


def deeper_than(data: bytes, limit: int) -> bool:
    """Whether the arrays and objects of the JSON document `data` nest more than `limit`
    levels (strings and their escapes skipped)."""
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    # Only quotes and brackets left; two quotes side by side hold no bracket between them.
    marks = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    outside = b"".join(marks.split(b'"')[::2])  # every other stretch lies inside a string
    return max(accumulate(map(_STEP.__getitem__, outside)), default=0) > limit


def _value_deeper_than(text: str, position: int, limit: int) -> bool:
    """Whether the value starting at `position` nests more than `limit` levels; the scan ends
    where the value does, or where the text stops being JSON."""
    if not text.startswith(("[", "{"), position):
        return False
    depth = 0
    for token in _TOKEN.finditer(text, position):
        char = text[token.start()]
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return False
        elif char != '"':
            return False  # not JSON: the parser goes no further than here
    return False


def _guarded(parse: Callable[[], _Parsed]) -> _Parsed:
    """`parse()`, with the failures no reader expects turned into JsonReadError."""
    try:
        return parse()
    except RecursionError:  # text the scan could not follow: the parser's own guard
        raise TooDeepError("nested too deeply to read") from None
    except MemoryError:
        raise JsonReadError("too large to read in the memory there is") from None


def _too_deep(limit: int) -> TooDeepError:
    return TooDeepError(f"nested too deeply to read: more than {limit} levels")
