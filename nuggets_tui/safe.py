"""Untrusted note text as Rich Text: never parsed as markup; control and escape characters show
as visible placeholders (core.inert). Every string an agent wrote reaches the screen this way."""

from __future__ import annotations

from rich.text import Text

from core.inert import inert, one_line


def line(value: object, style: str = "") -> Text:
    """One line of untrusted text: newlines and controls become placeholders."""
    return Text(one_line(str(value)), style=style, end="")


def block(value: object, style: str = "") -> Text:
    """Untrusted multi-line text, kept on its lines."""
    return Text(inert(str(value)), style=style, end="")


def join(*parts: Text | str) -> Text:
    """Plain strings here are our own words (no markup is parsed either way)."""
    return Text.assemble(*parts, end="")
