"""MEMORY.md, Claude Code's always-loaded index (docs/CLAUDE_CODE.md, "The index"): its entry
lines (`- [Title](file.md) — hook`) and where its load budget falls. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.promotion.claude_load import Load, load

_ENTRY = re.compile(
    r"^\s*[-*+]\s+\[(?P<title>[^\]]*)\]\((?P<target>[^)\s]+)\)"
    r"\s*(?:(?:—|–|-{1,2}|:)\s*(?P<hook>.*))?$"
)


@dataclass(frozen=True)
class Entry:
    line: int  # 1-based
    text: str  # the whole line, without its line end
    title: str
    target: str  # the file named, as written
    hook: str


def split_lines(text: str) -> list[str]:
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def lines_with_ends(text: str) -> list[str]:
    """The lines as Claude Code numbers them (on newlines only), each with its newline: never
    `splitlines()`, which also breaks at U+2028, a form feed or NEL inside a line."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def entries(text: str) -> list[Entry]:
    found = []
    for number, line in enumerate(split_lines(text), start=1):
        match = _ENTRY.match(line.rstrip("\r"))
        if match:
            found.append(
                Entry(
                    number,
                    line.rstrip("\r"),
                    match["title"].strip(),
                    match["target"],
                    (match["hook"] or "").strip(),
                )
            )
    return found


def topic_name(target: str) -> str | None:
    """The topic file an entry names, as a name in the directory (None: a link elsewhere)."""
    if "://" in target or target.startswith(("#", "/", "mailto:")):
        return None
    name = target.split("#", 1)[0].removeprefix("./")
    return name or None


def budget(data: bytes) -> Load:
    """What Claude Code loads of MEMORY.md, measured as it measures it
    (core/promotion/claude_load.py)."""
    return load(data.decode("utf-8", errors="replace"))


def first_hidden_line(text: str, loaded: Load) -> int | None:
    """The first line of MEMORY.md (numbered on newlines) the model does not see whole."""
    return None if loaded.cut_from is None else text.count("\n", 0, loaded.cut_from) + 1
