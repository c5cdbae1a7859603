"""Whole-number settings read from environment variables, checked and explained in words."""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.errors import NuggetsError

_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes ² and ٣
_SHOWN = 40  # characters of a bad value quoted back


class SettingError(NuggetsError):
    """An environment variable set to a value the tool cannot use."""


def shown(raw: str) -> str:
    """A setting's value quoted back, cut to a readable length."""
    return repr(raw[:_SHOWN]) + ("…" if len(raw) > _SHOWN else "")


def whole_number(environ: Mapping[str, str], name: str, default: int, highest: int,
                 capped: bool = False) -> int:
    """$name as a whole number from 0 to `highest`; `default` when unset or blank. A larger
    number is `highest` when `capped`, else an error; so is anything but the digits 0-9
    (a sign, a fraction, ², 1e3)."""
    raw = environ.get(name, "")
    text = raw.strip()
    if not text:
        return default
    bound = f"0 or more (more than {highest} counts as {highest})" if capped else (
        f"from 0 to {highest}")
    if not _DIGITS.fullmatch(text):
        raise SettingError(f"${name} must be a whole number {bound}, written with the digits "
                           f"0-9; it is {shown(raw)}")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(highest)) or int(digits) > highest:  # no int() of 10,000 digits
        if capped:
            return highest
        raise SettingError(f"${name} must be a whole number {bound}; it is {shown(raw)}")
    return int(digits)


_YES = ("1", "yes", "true", "on")
_NO = ("", "0", "no", "false", "off")


def yes_or_no(environ: Mapping[str, str], name: str) -> bool:
    """$name as a switch: 1/yes/true/on, or 0/no/false/off (the default when unset or blank)."""
    raw = environ.get(name, "")
    text = raw.strip().lower()
    if text in _YES or text in _NO:
        return text in _YES
    raise SettingError(f"${name} must be 1 or 0 (yes/no, true/false, on/off); it is {shown(raw)}")
