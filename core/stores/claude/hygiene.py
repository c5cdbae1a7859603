"""The directory's own hygiene as changes to MEMORY.md (docs/CLAUDE_CODE.md, "Hygiene"), each
left out unless kept: an entry for each topic file the index never names (the line Claude Code's
own index builder writes), and the removal of each line whose links all name files that are not
there. Near-duplicates are merges (merge.py); frontmatter Claude Code cannot read is flagged only
(notes.py). Pure."""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from dataclasses import dataclass

from core.safeio.inert_text import hidden_characters
from core.stores.claude import frontmatter, index
from core.stores.claude.directory import SKIPPED_FOLDERS, TEAM, folder_key, text_of
from core.stores.claude.notes import screened
from core.stores.claude.paths import INDEX

LINK_BREAKERS = (
    "[]()\n\r\u2028\u2029"  # a title or file name holding one would not read as one link
)


@dataclass(frozen=True)
class Fix:
    note_id: str  # the change's own id: "MEMORY.md+<file>" (an entry added) or "MEMORY.md-<line>"
    line: str  # the entry line added or removed, with its line end
    added: bool
    detail: str


def fixes(
    files: dict[str, bytes], links: Collection[str] = (), unread: Collection[str] = ()
) -> list[Fix]:
    """`files`: the directory's files by path; `links`: its links, and `unread`: files there
    but not read (named, never missing: their entries are never offered for removal)."""
    text = text_of(files[INDEX])
    known = index.Names((set(files) | set(links) | set(unread)) - {INDEX})
    by_line: dict[int, list[str | None]] = {}
    listed = set()
    for entry in index.entries(text):
        name = known.of(entry.target)
        by_line.setdefault(entry.line, []).append(None if name in known else name)
        if name in known:
            listed.add(index.key(name or ""))
    found = [_removal(text, line, names) for line, names in by_line.items() if all(names)]
    for name in sorted(set(files) - {INDEX}):
        if index.key(name) not in listed and (line := _entry_for(name, files[name])):
            found.append(
                Fix(
                    f"{INDEX}+{name}",
                    line,
                    True,
                    f"{name} is in no line of {INDEX}: add an entry for it",
                )
            )
    return found


def _removal(text: str, number: int, names: list[str | None]) -> Fix:
    shown = ", ".join(dict.fromkeys(n for n in names if n))
    return Fix(
        f"{INDEX}-{number}",
        _with_end(text, number),
        False,
        f"line {number} names {shown}, which is not in the directory: "
        "remove the line (or bring the file back with u, if it was seen)",
    )


def _entry_for(name: str, data: bytes) -> str | None:
    """The line Claude Code's index builder would write for the file (None: it writes none —
    a team/ file, a name a link cannot hold — or the line would not read back as naming it)."""
    parts = name.split("/")
    if any(folder_key(p) in (TEAM, *SKIPPED_FOLDERS) for p in parts[:-1]) or not _plain(name):
        return None
    hook = frontmatter.parse(text_of(data)).fields.get("description", "")
    title = posixpath.basename(name).removesuffix(".md")
    hook = hook if _plain(hook) and not screened(title, hook) else ""
    line = index.entry_line(name, hook)
    read = index.entries(line)
    if len(read) != 1 or index.key(index.topic_name(read[0].target) or "") != index.key(name):
        return None  # a name only a line we cannot read back would hold: never offered
    return line + "\n"


def _plain(text: str) -> bool:
    """Text an entry of ours may carry into the always-loaded index: no hidden or control
    character, nothing that would break the link. What fails is the agent's own (flagged in
    its note), never copied by us into what every session loads."""
    return (
        bool(text.strip())
        and not hidden_characters(text)
        and not any(char in LINK_BREAKERS for char in text)
    )


def _with_end(text: str, number: int) -> str:
    return index.lines_with_ends(text)[number - 1]


def fixed(text: str, chosen: list[Fix], drop: Collection[int] = ()) -> str:
    """MEMORY.md with the chosen fixes: lines removed where they stand, entries appended;
    `drop`: more lines to remove (a merge's, naming the file it removes)."""
    removed = {int(f.note_id.rsplit("-", 1)[1]) for f in chosen if not f.added} | set(drop)
    lines = [
        line
        for number, line in enumerate(index.lines_with_ends(text), start=1)
        if number not in removed
    ]
    if lines and not lines[-1].endswith("\n") and any(f.added for f in chosen):
        lines[-1] += "\n"
    return "".join(lines + [f.line for f in chosen if f.added])
