"""`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte, about three times faster.

With an indent the json module falls back to its pure-Python, generator-based encoder; writing a
100k-note graph that way takes seconds. This encoder does the same walk with fewer calls: strings
go through the module's own C string encoder, and lists and objects of plain strings are joined
in one go. Anything it does not know (a type json would reject or hand to `default`) makes it
give the whole job back to `json.dumps`, so errors and edge cases stay the json module's.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

_CONSTANTS = {True: "true", False: "false", None: "null"}


class _Unknown(Exception):
    """A value this encoder leaves to the json module."""


def dumps_indented(value: Any) -> str:
    """The text json.dumps(value, indent=2, ensure_ascii=False) would give."""
    parts: list[str] = []
    try:
        _encode(value, parts, "\n")
    except _Unknown:
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(parts)


def _float(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        raise _Unknown  # NaN and infinities: the json module's spelling and allow_nan rules
    return float.__repr__(value)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None or value is True or value is False:
        return _CONSTANTS[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    raise _Unknown


def _encode(value: Any, parts: list[str], newline: str) -> None:
    if isinstance(value, dict):
        _encode_dict(value, parts, newline)
    elif isinstance(value, list | tuple):
        _encode_list(value, parts, newline)
    else:
        parts.append(_scalar(value))


def _encode_dict(value: dict[Any, Any], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("{}")
        return
    inner = newline + "  "
    separator = "{" + inner
    for key, item in value.items():
        if not isinstance(key, str):
            raise _Unknown  # json turns such keys into strings by its own rules
        if item.__class__ is str:
            parts.append(f"{separator}{encode_basestring(key)}: {encode_basestring(item)}")
        else:
            parts.append(f"{separator}{encode_basestring(key)}: ")
            _encode(item, parts, inner)
        separator = "," + inner
    parts.append(newline + "}")


def _encode_list(value: list[Any] | tuple[Any, ...], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("[]")
        return
    inner = newline + "  "
    if all(item.__class__ is str for item in value):
        parts.append("[" + inner + ("," + inner).join(map(encode_basestring, value)) + newline
                     + "]")
        return
    separator = "[" + inner
    for item in value:
        parts.append(separator)
        _encode(item, parts, inner)
        separator = "," + inner
    parts.append(newline + "]")
