"""How the console and the command line write counts and paths, the one way both use: counts
with thousands separators and the noun agreeing ("1 note", "1,886 notes"), paths with ~."""

from __future__ import annotations

from pathlib import Path


def counted(count: int, noun: str, plural: str = "") -> str:
    """`count` with its noun: counted(1, "note") is "1 note", counted(98_100, "note") is
    "98,100 notes"; `plural` for a noun that is not made plural with an s."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def every(count: int, noun: str, plural: str = "") -> str:
    """All of `count` things, as said in English: every(2, "note") is "both notes",
    every(9, "note") is "all 9 notes", every(1, "note") is "the 1 note"."""
    if count == 2:
        return f"both {plural or noun + 's'}"
    return f"{'the' if count == 1 else 'all'} {counted(count, noun, plural)}"


def shown_path(path: object) -> str:
    """A path as a person reads it: the home directory as ~."""
    text, home = str(path), str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        return "~" + text[len(home):]
    return text
