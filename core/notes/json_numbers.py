"""JSON numbers kept as the file spells them.

`json.loads` turns `1e999` into inf (written back as `Infinity`, which no strict parser reads),
`1E5` into 100000.0, `-0` into 0, and refuses an integer of more than 4,300 digits. Read with
`number_hooks()`, a number whose text is not what the writer would give back is read as a
`SpelledFloat` or `SpelledInt` (a float or int that remembers its text, so arithmetic and
comparisons work and give plain numbers) or, for an integer too long to convert, a `LongInteger`
(its text only, no value). The writer (core/notes/json_writer.py) writes each one with its own
text. Every
other number, nearly all of them, is a plain float or int: the hooks are dictionaries, so a text
seen before costs one C-level lookup.

`NaN`, `Infinity` and `-Infinity` are not JSON; reading them is refused (`NotJsonConstant`).
The hooks are options of core/safeio/json_read.py's `loads`, the one way a file is parsed.
"""

from __future__ import annotations

from typing import Any

_CACHED = 1 << 16  # distinct number texts remembered per read; beyond that each is parsed anew
_seen = [False]  # set once a spelled number has been read in this process


class _Spelled:
    """What a number read with its own spelling shows and pickles as: that text."""

    __slots__ = ()
    text: str

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return type(self), (self.text,)


class SpelledFloat(_Spelled, float):
    """A float whose text in the file (1E5, 1e999, 1e-400, 1.50) is not what repr() gives."""

    __slots__ = ("text",)

    def __new__(cls, text: str) -> SpelledFloat:
        self = super().__new__(cls, text)
        self.text = text
        _seen[0] = True
        return self


class SpelledInt(_Spelled, int):
    """`-0`: the one JSON integer text that int() does not give back."""

    def __new__(cls, text: str) -> SpelledInt:
        self = super().__new__(cls, text)
        self.text = text
        _seen[0] = True
        return self


class LongInteger:
    """An integer with more digits than Python converts to a number (4,300 by default; the
    conversion takes time that grows with the square of the length). Kept as its text, never
    computed with: a field the engine reads as a number refuses it (core/notes/checks.py)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
        _seen[0] = True

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LongInteger) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return type(self), (self.text,)

    @property
    def digits(self) -> int:
        return len(self.text.lstrip("-"))


SPELLED = (SpelledFloat, SpelledInt, LongInteger)


class NotJsonConstant(ValueError):
    """`NaN`, `Infinity` or `-Infinity` in a file: JavaScript's JSON.parse refuses them."""


class _Floats(dict[str, float]):
    def __missing__(self, text: str) -> float:
        value = float(text)
        if float.__repr__(value) != text:
            value = SpelledFloat(text)
        if len(self) < _CACHED:
            self[text] = value
        return value


class _Ints(dict[str, Any]):
    def __missing__(self, text: str) -> Any:
        if text == "-0":
            value: Any = SpelledInt(text)
        else:
            try:
                value = int(text)
            except ValueError:  # more digits than sys.get_int_max_str_digits() allows
                value = LongInteger(text)
        if len(self) < _CACHED:
            self[text] = value
        return value


def _refuse_constant(name: str) -> Any:
    raise NotJsonConstant(name)


def number_hooks() -> dict[str, Any]:
    """Keyword arguments for a parse (core/safeio/json_read.py): numbers as spelled, NaN refused.
    Each call gives fresh caches (one per read)."""
    return {
        "parse_float": _Floats().__getitem__,
        "parse_int": _Ints().__getitem__,
        "parse_constant": _refuse_constant,
    }


def any_spelled() -> bool:
    """Whether this process has read a spelled number yet: until it has, a plain encoder (the
    json module's) writes every number exactly."""
    return _seen[0]
