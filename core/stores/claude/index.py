"""MEMORY.md, Claude Code's always-loaded index (docs/CLAUDE_CODE.md, "The index"): its entries
(every link to a `.md` file, as Claude Code counts a file listed: `- [Title](file.md) — hook`,
`- [my notes](my notes.md)`, `- [deep](sub/deep.md)`, or inline), the line Claude Code's own index
builder writes for a file, and where its load budget falls. Pure."""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from core.promotion.claude_load import Load, load
from core.promotion.claude_topics import linked_line

# The links Claude Code counts as listing a file: `](target.md)` anywhere on a line, any case.
_LINK = re.compile(r"\]\(([^()\n]+?\.md)\)", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_SEPARATOR = re.compile(r"^\s*(?:—|–|-{1,2}|:)\s*")
RECALL_BYTES = 4096  # recall shows a topic file's first 4,096 bytes, whole lines …
RECALL_LINES = 200  # … and 200 lines at most


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
    """Every link to a `.md` file, on any line, several to a line: each is an entry, titled by
    the bracketed text before it, its hook what follows the line's first link."""
    found = []
    for number, raw in enumerate(split_lines(text), start=1):
        line = raw.rstrip("\r")
        hook, start = None, 0
        for match in _LINK.finditer(line):
            opening = line.rfind("[", start, match.start())
            title = line[opening + 1 : match.start()] if opening >= 0 else ""
            if hook is None:
                hook = _SEPARATOR.sub("", line[match.end() :], count=1).strip()
            found.append(Entry(number, line, title.strip(), match[1].strip(), hook))
            start = match.end()
    return found


def topic_name(target: str) -> str | None:
    """The file an entry names, as a path inside the directory (None: a link Claude Code does
    not count: absolute, a URL, or through `..`)."""
    target = target.strip()
    parts = re.split(r"[\\/]", target)
    if target.startswith("/") or _SCHEME.match(target) or ".." in parts:
        return None
    name = posixpath.normpath(target)
    return None if name in (".", "") else name


def key(name: str) -> str:
    """How Claude Code compares a link with a file: NFC, lower case."""
    return unicodedata.normalize("NFC", name).lower()


class Names:
    """The directory's files, found by the links that name them."""

    def __init__(self, names: Iterable[str]) -> None:
        self.by_key = {key(name): name for name in names}

    def of(self, target: str) -> str | None:
        """The file a link names (as the directory spells it), or the name the link gives a
        file that is not there; None for a link Claude Code does not count."""
        name = topic_name(target)
        return None if name is None else self.by_key.get(key(name), name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and key(name) in self.by_key


def entry_line(name: str, description: str) -> str:
    """The index line Claude Code's own index builder writes for a file: `- [name](path)`, and
    ` — ` with the description cut so the whole line stays within 150 UTF-16 units."""
    return linked_line(posixpath.basename(name).removesuffix(".md"), name, description)


def recalled(text: str) -> tuple[int, bool]:
    """How many lines of a topic file Claude Code's recall shows (its frontmatter included:
    whole lines, within 4,096 bytes and 200 lines), and whether it is cut."""
    lines = text.removeprefix("\ufeff").split("\n")
    shown = size = 0
    for line in lines[:RECALL_LINES]:
        size += len(line.encode("utf-8", "surrogatepass")) + (1 if shown else 0)
        if size > RECALL_BYTES:
            return shown, True
        shown += 1
    return shown, len(lines) > RECALL_LINES


def budget(data: bytes) -> Load:
    """What Claude Code loads of MEMORY.md, measured as it measures it
    (core/promotion/claude_load.py)."""
    return load(data.decode("utf-8", errors="replace"))


def first_hidden_line(text: str, loaded: Load) -> int | None:
    """The first line of MEMORY.md (numbered on newlines) the model does not see whole."""
    return None if loaded.cut_from is None else text.count("\n", 0, loaded.cut_from) + 1
