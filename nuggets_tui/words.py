"""How the console and the command line write counts and paths, the one way both use: counts
with thousands separators and the noun agreeing ("1 note", "1,886 notes"), paths with ~."""

from __future__ import annotations

from pathlib import Path


def counted(count: int, noun: str, plural: str = "") -> str:
    """`count` with its noun: counted(1, "note") is "1 note", counted(98_100, "note") is
    "98,100 notes"; `plural` for a noun that is not made plural with an s."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def shown_path(path: object) -> str:
    """A path as a person reads it: the home directory as ~."""
    text, home = str(path), str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        return "~" + text[len(home):]
    return text
