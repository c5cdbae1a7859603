"""Untrusted note text as Rich Text: never parsed as markup; control and escape characters show
as visible placeholders (core.inert). Every string an agent wrote reaches the screen this way."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from core.inert import inert, one_line


def line(value: object, style: str = "") -> Text:
    """One line of untrusted text: newlines and controls become placeholders."""
    return Text(one_line(str(value)), style=style, end="")


def block(value: object, style: str = "") -> Text:
    """Untrusted multi-line text, kept on its lines."""
    return Text(inert(str(value)), style=style, end="")


def shown_path(path: object) -> str:
    """A path as a person reads it: the home directory as ~."""
    text, home = str(path), str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        return "~" + text[len(home):]
    return text


def join(*parts: Text | str) -> Text:
    """Plain strings here are our own words (no markup is parsed either way)."""
    return Text.assemble(*parts, end="")
