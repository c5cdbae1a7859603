"""The directory's own hygiene as changes to MEMORY.md (docs/CLAUDE_CODE.md, "Hygiene"), each
left out unless kept: an entry for each topic file the index never names, and the removal of
each entry naming a file that is not there. Near-duplicates are merges (merge.py); unreadable
frontmatter is flagged only (notes.py). Pure."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from core.safeio.inert_text import hidden_characters
from core.stores.claude import frontmatter, index
from core.stores.claude.directory import text_of
from core.stores.claude.notes import screened
from core.stores.claude.paths import INDEX

LINK_BREAKERS = "[]()\n\r"  # a title or file name holding one would not read as one link


@dataclass(frozen=True)
class Fix:
    note_id: str  # the change's own id: "MEMORY.md+<file>" (an entry added) or "MEMORY.md-<line>"
    line: str  # the entry line added or removed, with its line end
    added: bool
    detail: str


def fixes(files: dict[str, bytes], unread: Collection[str] = ()) -> list[Fix]:
    """`unread`: files there but not read, whose entries are never offered for removal."""
    text = text_of(files[INDEX])
    entries = index.entries(text)
    listed = {index.topic_name(e.target) for e in entries}
    found = []
    for entry in entries:
        name = index.topic_name(entry.target)
        if name is not None and name not in files and name not in unread:
            found.append(
                Fix(
                    f"{INDEX}-{entry.line}",
                    _with_end(text, entry.line),
                    False,
                    f"line {entry.line} names {name}, which is not in the directory: "
                    "remove the line (or bring the file back with u, if it was seen)",
                )
            )
    for name in sorted(set(files) - {INDEX} - listed):
        if not _plain(name):
            continue  # flagged as an orphan; no entry of ours names it
        front = frontmatter.parse(text_of(files[name]))
        title, hook = front.fields.get("name", ""), front.fields.get("description", "")
        title = title if _plain(title) and not screened(title, hook) else name.removesuffix(".md")
        hook = hook if _plain(hook) and not screened(title, hook) else ""
        line = f"- [{title}]({name})" + (f" — {hook}" if hook else "") + "\n"
        found.append(
            Fix(
                f"{INDEX}+{name}",
                line,
                True,
                f"{name} is in no line of {INDEX}: add an entry for it",
            )
        )
    return found


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
