"""Untrusted note text as Rich Text: never parsed as markup; control and escape characters show
as visible placeholders (core.safeio.inert_text). Every string an agent wrote reaches the screen
this way."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget

from core.safeio.inert_text import inert, one_line

# Re-exported: the console reaches them here.
from .words import counted as counted
from .words import every as every
from .words import restored_words as restored_words
from .words import shown_path as shown_path

# What one piece of untrusted text may put on screen. An agent may write a 20 MB note; laying
# it out in full would hold the console for many seconds, and nobody reads that much in a pane.
MAX_LINE = 1_000
MAX_BLOCK = 20_000


def line(value: object, style: str = "") -> Text:
    """One line of untrusted text: newlines and controls become placeholders."""
    text, more = _clip(str(value), MAX_LINE)
    return _with_more(Text(one_line(text), style=style, end=""), more)


def block(value: object, style: str = "") -> Text:
    """Untrusted multi-line text, kept on its lines."""
    text, more = _clip(str(value), MAX_BLOCK)
    return _with_more(Text(inert(text), style=style, end=""), more)


def _clip(text: str, limit: int) -> tuple[str, int]:
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def _with_more(shown: Text, more: int) -> Text:
    if more:
        shown.append(f" … {more:,} more characters not shown", style="dim italic")
    return shown


def notify(node: Widget, message: object, title: str = "", **options: Any) -> None:
    """A toast: its text shows as one inert line (cut as `line` cuts), never as markup."""
    node.notify(line(message).plain, title=line(title).plain, markup=False, **options)


def more_lines(count: int, where: str = "") -> Text:
    """The line that stands for the lines of a long listing left out."""
    return Text(f"… {count:,} more lines not shown{where}\n", style="dim italic")


def join(*parts: Text | str | tuple[str, str]) -> Text:
    """Plain strings here are our own words (no markup is parsed either way); a (text, style)
    pair is our own words in that style."""
    return Text.assemble(*parts, end="")
