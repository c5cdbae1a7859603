"""Near-duplicate topic files as merges (docs/CLAUDE_CODE.md, "Merging near-duplicates"): each
pair whose words overlap enough is one merge, left out unless kept. The newer file (by mtime; on a
tie, the name that sorts first) stays; every line of the other one that it lacks — frontmatter
lines that differ, its index entries, its body — is folded in at the end, under a heading that
names the other file; the other file and its index lines go. No line is ever dropped but the
other file's stamp (`node_type`, `originSessionId`, `modified`: Claude Code's bookkeeping, the
file that stays has its own). A merge whose result recall would cut (past its first 4,096 bytes
or 200 lines) says so. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from core.stores.claude import index
from core.stores.claude.directory import Files, text_of
from core.stores.claude.notes import near_duplicates, topic_note
from core.stores.claude.paths import INDEX

STAMP_KEYS = ("node_type", "originSessionId", "modified")


@dataclass(frozen=True)
class Merge:
    kept: str  # the file that stays, holding the merge
    removed: str  # the file folded into it, then removed
    overlap: float
    text: str  # the kept file after the merge
    index_lines: tuple[index.Entry, ...]  # MEMORY.md's entries naming the removed file: they go

    def detail(self) -> str:
        where = (
            (f"; {INDEX} line(s) {', '.join(str(e.line) for e in self.index_lines)} naming it go")
            if self.index_lines
            else ""
        )
        return (
            f"{self.removed} and {self.kept} overlap {self.overlap:.0%}: fold the lines of "
            f"{self.removed} that {self.kept} lacks into it (the newer), then remove "
            f"{self.removed} (u brings it back){where}{self.cut()}"
        )

    def cut(self) -> str:
        """What recall would not show of the merged file (empty: it shows all of it)."""
        shown, cut = index.recalled(self.text)
        if not cut:
            return ""
        return (
            f". It cannot stay within what recall shows: recall shows the first {shown} lines "
            f"({index.RECALL_BYTES:,} bytes at most) of the merged "
            f"{len(self.text.encode()):,} bytes, and the agent reads the rest only if it opens "
            f"{self.kept}"
        )


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def pairs(texts: dict[str, str], mtimes: dict[str, float]) -> list[tuple[str, str, float]]:
    """(kept, removed, overlap): greedy by overlap, highest first, each file in one pair at
    most, so that a chain or a triangle of near-duplicates never gives two merges that fight."""
    notes = [topic_note(name, text.encode(), "", None) for name, text in sorted(texts.items())]
    found, used = [], set()
    for a, b, overlap in sorted(near_duplicates(notes), key=lambda p: (-p[2], p[0], p[1])):
        if a in used or b in used:
            continue
        used |= {a, b}
        # a sorts before b: on a tie, a stays
        found.append((b, a, overlap) if mtimes.get(b, 0) > mtimes.get(a, 0) else (a, b, overlap))
    return found


def split(text: str) -> tuple[list[str], list[str]]:
    """A topic file's frontmatter lines (between its `---` lines) and its body lines."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]
    if lines[0] == "---":
        end = next((i for i in range(1, len(lines)) if lines[i] in ("---", "...")), None)
        if end is not None:
            return lines[1:end], lines[end + 1 :]
    return [], lines


def _missing(lines: list[str], present: list[str]) -> list[str]:
    """The lines not among `present` (blank lines kept between them, runs of them collapsed)."""
    have = {line.strip() for line in present if line.strip()}
    out: list[str] = []
    for line in lines:
        if line.strip() in have:
            continue
        if line.strip() or (out and out[-1].strip()):
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


def _stamp(line: str) -> bool:
    """A line of the stamp Claude Code writes in every file's frontmatter."""
    return line.strip().split(":", 1)[0] in STAMP_KEYS


def merged_text(
    kept: str, kept_text: str, removed: str, removed_text: str, entries: list[str]
) -> str:
    kept_front, kept_body = split(kept_text)
    other_front, other_body = split(removed_text)
    section = [f"## Merged from {removed}", ""]
    front = [line for line in _missing(other_front, kept_front) if not _stamp(line)]
    if front:
        section += ["Its frontmatter, where it differs from this file's:", *front, ""]
    if entries:
        section += [f"Its line in {INDEX}:", *entries, ""]
    section += _missing(other_body, kept_body)
    head = kept_text if kept_text.endswith("\n") or not kept_text else kept_text + "\n"
    return head + "\n" + "\n".join(section).rstrip("\n") + "\n"


def _lines_naming(
    entries: list[index.Entry], known: index.Names, removed: str, kept: str
) -> tuple[index.Entry, ...]:
    """The index lines that go with the removed file: each line naming it whose links name no
    file but the two merged (a line listing others too stays, naming a file that is gone)."""
    by_line: dict[int, list[index.Entry]] = {}
    for entry in entries:
        by_line.setdefault(entry.line, []).append(entry)
    return tuple(
        found[0]
        for found in by_line.values()
        if any(known.of(e.target) == removed for e in found)
        and all(known.of(e.target) in (removed, kept) for e in found)
    )


def merges(files: Files, skip: set[str]) -> list[Merge]:
    """The merges the directory's topic files offer; `skip`: files with a change of the
    agent's pending (reviewed first), which no merge touches."""
    texts = {
        name: text
        for name, data in files.data.items()
        if name != INDEX and name not in skip and (text := _decoded(data)) is not None
    }
    entries = index.entries(text_of(files.data.get(INDEX, b"")))
    known = index.Names(files.data)
    found = []
    for kept, removed, overlap in pairs(texts, files.mtimes):
        lines = _lines_naming(entries, known, removed, kept)
        text = merged_text(kept, texts[kept], removed, texts[removed], [e.text for e in lines])
        found.append(Merge(kept, removed, overlap, text, lines))
    return found
