"""MEMORY.md, Claude Code's always-loaded index (docs/CLAUDE_CODE.md, "The index"): its entry
lines (`- [Title](file.md) — hook`) and where its load budget falls. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.promotion.budget import CLAUDE_CODE_MEMORY_MD, Loaded, loaded_sizes

MAX_LINES = CLAUDE_CODE_MEMORY_MD.lines
MAX_BYTES = CLAUDE_CODE_MEMORY_MD.size  # cut at the last line end at or before these bytes

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


def budget(data: bytes) -> Loaded:
    """Where the load budget falls: the first MAX_LINES lines or MAX_BYTES bytes (cut at the
    last line end within them), whichever is fewer (core/promotion/budget.py)."""
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines = lines[:-1]
    return loaded_sizes([len(line) for line in lines], len(data), CLAUDE_CODE_MEMORY_MD)
