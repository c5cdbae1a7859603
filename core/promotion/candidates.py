"""Promotion of durable notes to MEMORY.md (docs/PROMOTION.md): deciding is pure, writing is
thin."""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from core.models import (
    BlockedEntry,
    PromotionAction,
    PromotionEntry,
    PromotionPlan,
    RawNote,
    ShadowedNote,
)
from core.notes import fields
from core.notes.js_strings import normalize_tag, normalize_whitespace
from core.notes.snapshot import EMPTY_FINGERPRINT
from core.promotion.alike import mark_alike
from core.promotion.claude_folder import memory_folder
from core.promotion.lost_lines import lost_lines
from core.promotion.memory_md import HEADER_LINE, Expected, MemoryDocument, split_lines
from core.promotion.screening import Screened, screen
from core.promotion.secret_screen import masked
from core.settings import DEFAULTS, Settings

DEFAULT_THRESHOLD = 3
MEMORY_MD = "MEMORY.md"
HEADER = ["# Memory", "", HEADER_LINE]


def agent_memory_md(cwd: Path, home_dir: Path) -> Path:
    """Where the Nuggets agent's own promotion writes: ~/.claude/projects/<cwd with every "/"
    replaced by "-">/memory/MEMORY.md (Claude Code's folder only for simple paths)."""
    return home_dir / ".claude" / "projects" / str(cwd).replace("/", "-") / "memory" / "MEMORY.md"


def resolve_memory_md(
    chosen: Path | None,
    settings: Settings = DEFAULTS,
    cwd: Path | None = None,
    home: Path | None = None,
) -> Path:
    """The MEMORY.md chosen (--memory-md, else the settings' memory_md), else the one in the
    memory folder Claude Code uses for `cwd` (default: the working directory)."""
    if chosen is not None:
        return chosen
    return memory_folder(settings, cwd, home).path / MEMORY_MD


def agent_rule_notice(path: Path, cwd: Path | None = None, home: Path | None = None) -> list[str]:
    """A line when the Nuggets agent's own rule names another MEMORY.md than `path`, the one
    Claude Code loads (none when they agree)."""
    theirs = agent_memory_md(Path(cwd or os.getcwd()), home or Path.home())
    if theirs == path:
        return []
    return [
        f"{path} is the MEMORY.md Claude Code loads here; the Nuggets agent's own promotion "
        f"writes {theirs} instead (its rule only replaces /), "
        + (
            "a folder Claude Code never loads"
            if theirs.parent.is_dir()
            else "a folder that does not exist, so it writes nothing"
        )
    ]


def claude_code_notice(path: Path, default: bool) -> list[str]:
    """What Claude Code does with our entries, when `path` is a MEMORY.md in one of its memory
    folders (the default target, or a `projects/<name>/memory/` folder)."""
    if not default and (
        path.parent.name != "memory" or path.parent.parent.parent.name != "projects"
    ):
        return []
    return [
        f"{path} is Claude Code's memory index: promotion keeps the Nuggets agent's format "
        "there (the agent's own promotion rewrites it daily), but Claude Code's model is told "
        "never to write memory content into MEMORY.md, and its consolidation may move these "
        "entries into topic files of its own"
    ]


def section_of(note: RawNote) -> str:
    """The agent's rule, first match: subject, then scope, then tags, else the nugget. As the
    agent reads the note: metadata it lacks inferred, tags normalized."""
    subject = fields.meta(note, "subject")
    if subject == "assistant:self":
        return "assistant-self"
    if subject.startswith("user:"):
        return "user"
    if fields.meta(note, "scope") in fields.SHARED_SCOPES:
        return "shared-context"
    tags = {normalize_tag(tag) for tag in fields.tags(note)}
    if "preferences" in tags:
        return "preferences"
    if "learnings" in tags:
        return "learnings"
    return fields.nugget(note)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def section_name_of(note: RawNote) -> str:
    """The section as an entry's heading writes it: one line."""
    return _one_line(section_of(note))


def entry_title(note: RawNote) -> str:
    """The title as an entry writes it: one line, and no `**:` inside, which would end the bold
    title early and make one entry's line look like another's (`- **a**: b**: …`)."""
    return _one_line(fields.text(note, "title")).replace("**:", "** :")


def content_lines(note: RawNote) -> list[str]:
    """The content as the agent writes it under its entry: in the agent's normal form (each line
    trimmed, inner whitespace runs one space, no more than one blank line in a row), split on
    its newlines. Every other kind of line break (CR, form feed, U+2028) is whitespace there and
    becomes a space, so only newlines reach the file."""
    return normalize_whitespace(fields.text(note, "content")).split("\n")


def entry_lines(note: RawNote) -> list[str]:
    """`- **title**: first line`, then the further content lines flush left, blank lines between
    paragraphs included: byte for byte what the agent's own promotion writes for the note."""
    lines = content_lines(note)
    head = f"- **{entry_title(note)}**: {lines[0]}".rstrip()
    return [head, *lines[1:]]


def qualifies(note: RawNote, threshold: int = DEFAULT_THRESHOLD) -> bool:
    """Recalled often enough to be promoted: a visible note with `threshold` hits or more. The
    one definition behind every count of such notes."""
    return not fields.hidden(note) and fields.hits(note) >= threshold


HASH_LENGTH = 24
_HASH = re.compile(f"[0-9a-f]{{{HASH_LENGTH}}}")


def entry_hash(section: str, text: str) -> str:
    """What an allowance approves: this exact entry in this section (`NOTE_ID@HASH`)."""
    digest = hashlib.sha256(f"{section}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:HASH_LENGTH]


def parse_allowance(token: str) -> tuple[str, str | None]:
    """`NOTE_ID@HASH` -> (NOTE_ID, HASH); a token without a hash (an id may hold "@") is a
    bare NOTE_ID."""
    note_id, _, digest = token.rpartition("@")
    return (note_id, digest) if note_id and _HASH.fullmatch(digest) else (token, None)


def is_allowed(note_id: str, digest: str, allow: Collection[str]) -> bool:
    """`NOTE_ID@HASH` allows the note while its entry reads as it did; a bare `NOTE_ID`
    allows whatever it holds (a dry run's preview only: the command line refuses it on write)."""
    return f"{note_id}@{digest}" in allow or note_id in allow


def queue_reason(group: str) -> str:
    """Why an entry whose note stands in an open group of the contradiction queue waits."""
    return f"is in the contradiction queue ({group})"


def held_back(screened: Screened | None, group: str | None) -> Screened | None:
    """Why an entry is held back: what screening found and, when its note stands in an open
    group of the contradiction queue (`group`, its id), that too."""
    if group is None:
        return screened
    if screened is None:
        return Screened(queue_reason(group), False)
    return Screened(f"{screened.reason}, and {queue_reason(group)}", screened.secret)


def shown_text(text: str, screened: Screened) -> str:
    """A held-back entry's text as shown: a secret it carries masked (every kind, contact
    details too: what is shown is not what would be written)."""
    return masked(text) if screened.secret else text


def shown_title(title: str, screened: Screened) -> str:
    return masked(title) if screened.secret else title


def candidates(notes: list[RawNote], threshold: int) -> list[tuple[RawNote, list[RawNote]]]:
    """Visible notes with enough hits, one per section and title: the most recently updated
    (`updatedAt` as text, a tie to the later note in the file), with the others it shadows.
    In the file order of the notes written."""
    groups: dict[tuple[str, str], list[tuple[str, int, RawNote]]] = {}
    for position, note in enumerate(notes):
        if qualifies(note, threshold):
            key = (_one_line(section_of(note)), entry_title(note))
            groups.setdefault(key, []).append((fields.updated_at(note), position, note))
    chosen = []
    for group in groups.values():
        winner = max(group, key=lambda item: item[:2])
        chosen.append((winner[1], winner[2], [item[2] for item in group if item is not winner]))
    return [(note, others) for _, note, others in sorted(chosen, key=lambda c: c[0])]


def written_ids(notes: list[RawNote], threshold: int = DEFAULT_THRESHOLD) -> set[str]:
    """The notes promotion would write: one per section and title (`candidates`)."""
    return {written["id"] for written, _ in candidates(notes, threshold)}


def _shadowed(notes: list[RawNote]) -> list[ShadowedNote]:
    # Built from the notes as read, without validation: a large memory shadows thousands.
    return [
        ShadowedNote.model_construct(
            note_id=n["id"], nugget_name=fields.nugget(n), updated_at=fields.updated_at(n)
        )
        for n in notes
    ]


def _move_to_own_sections(
    doc: MemoryDocument, entries: list[PromotionEntry], owners: dict[str, set[str]]
) -> None:
    """Take each written title out of the sections no note of that title belongs to."""
    first: dict[str, PromotionEntry] = {}
    for entry in entries:
        first.setdefault(entry.title, entry)
    for title, entry in first.items():
        for name in doc.sections_holding(title):
            if name not in owners[title] and doc.remove(name, title):
                entry.moved_from.append(name)


def expected_entries(chosen: list[tuple[RawNote, list[RawNote]]]) -> Expected:
    """The entries the candidates would write, by section and title. One line each: a heading
    or a title with a line break in it would not be found again."""
    return {
        (_one_line(section_of(note)), entry_title(note)): entry_lines(note) for note, _ in chosen
    }


def last_entries(promoted: list[PromotionEntry] | None) -> Expected:
    """The entries a run wrote, by section and title, as they read in its file."""
    return {
        (e.section, e.title): e.text.split("\n")
        for e in promoted or []
        if e.action in ("add", "update", "same")
    }


def cut_to_first_line(
    doc: MemoryDocument, last: MemoryDocument | None, section: str, title: str, lines: list[str]
) -> bool:
    """Whether the file holds only the first line of an entry our last write left whole (or
    already cut): the agent's promotion keeps only the first line of the entries it does not
    write itself, and we do not add the others back after every one of its runs."""
    if last is None or len(lines) < 2 or doc.only_entry(section, title) != lines[:1]:
        return False
    return (
        last.only_entry(section, title) == lines[:1] or last.upsert(section, title, lines) == "same"
    )


@dataclass(frozen=True)
class Sifted:
    """A candidate screening and the queue let through (or the operator allowed), with what
    its entry writes; `left_out` when the operator dropped it."""

    note: RawNote
    others: list[RawNote]
    section: str
    title: str
    lines: list[str]
    digest: str
    reason: str | None  # the screening reason allowed despite
    left_out: bool

    def entry(self, action: PromotionAction, text: str | None = None) -> PromotionEntry:
        return PromotionEntry(
            note_id=self.note["id"],
            nugget_name=fields.nugget(self.note),
            section=self.section,
            title=self.title,
            text="\n".join(self.lines) if text is None else text,
            action=action,
            allowed_despite=self.reason,
            hash=self.digest,
            shadowed=_shadowed(self.others),
        )


def sift(
    chosen: list[tuple[RawNote, list[RawNote]]],
    expected: Expected,
    allow: Collection[str] = (),
    drop: Collection[str] = (),
    allow_contact: bool = False,
    queued: Mapping[str, str] | None = None,
) -> tuple[list[Sifted], list[BlockedEntry]]:
    """The candidates to write (or dropped by the operator), and those held back: by screening
    (instructions to the agent, secrets; contact details unless `allow_contact`) or by the
    contradiction queue (`queued`: note id -> group id), unless allowed (`is_allowed`). What is
    screened is what would be written: a CRLF note is not held back for its CRs."""
    kept: list[Sifted] = []
    blocked: list[BlockedEntry] = []
    for note, others in chosen:
        section, title = _one_line(section_of(note)), entry_title(note)
        lines = expected[section, title]
        text = "\n".join(lines)
        digest = entry_hash(section, text)
        group = (queued or {}).get(note["id"])
        screened = held_back(
            screen(title, "\n".join(content_lines(note)), section, allow_contact), group
        )
        if screened and not is_allowed(note["id"], digest, allow):
            blocked.append(
                BlockedEntry(
                    note_id=note["id"],
                    nugget_name=fields.nugget(note),
                    section=section,
                    title=shown_title(title, screened),
                    text=shown_text(text, screened),
                    reason=screened.reason,
                    hash=digest,
                    shadowed=_shadowed(others),
                    secret=screened.secret,
                    queued=group or "",
                )
            )
            continue
        reason = screened.reason if screened else None
        kept.append(Sifted(note, others, section, title, lines, digest, reason, note["id"] in drop))
    return kept, blocked


def plan_promotion(
    notes: list[RawNote],
    path: Path,
    before_text: str,
    directory_exists: bool,
    threshold: int = DEFAULT_THRESHOLD,
    allow: Collection[str] = (),
    base_fingerprint: str = EMPTY_FINGERPRINT,
    drop: Collection[str] = (),
    allow_contact: bool = False,
    last_written: str | None = None,
    queued: Mapping[str, str] | None = None,
    known: Expected | None = None,
) -> PromotionPlan:
    """The edited MEMORY.md. Candidates that screening holds back (instructions to the agent,
    secrets; contact details unless `allow_contact`), and those whose note stands in an open
    group of the contradiction queue (`queued`: note id -> group id, core/review/queue.py), are
    left out and listed as blocked, unless allowed (`is_allowed`); those whose note id is in
    `drop` are left out and listed as dropped (what is already in the file stays).
    `last_written`: the text our last write left in the file (from the journal), by which an
    entry the agent cut is left cut (`cut_to_first_line`); `known`: the entries that write
    wrote, replaced whole where the file still spells them (`last_entries`)."""
    chosen = candidates(notes, threshold)
    expected = expected_entries(chosen)
    doc = MemoryDocument(before_text, HEADER, expected, known)
    last = None if last_written is None else MemoryDocument(last_written, HEADER, expected, known)
    kept, blocked = sift(chosen, expected, allow, drop, allow_contact, queued)
    entries: list[PromotionEntry] = []
    dropped: list[PromotionEntry] = []
    owners: dict[str, set[str]] = {}
    for section, title in expected:  # held back or not
        owners.setdefault(title, set()).add(section)
    for item in kept:
        action: PromotionAction = (
            "drop"
            if item.left_out
            else "same"
            if cut_to_first_line(doc, last, item.section, item.title, item.lines)
            else doc.upsert(item.section, item.title, item.lines)
        )
        (dropped if item.left_out else entries).append(item.entry(action))
    _move_to_own_sections(doc, entries, owners)
    mark_alike(entries, before_text)
    after = doc.text() if entries or before_text else before_text
    diff = "".join(
        difflib.unified_diff(
            split_lines(before_text),
            split_lines(after),
            fromfile=f"{path} (now)",
            tofile=f"{path} (promoted)",
        )
    )
    return PromotionPlan(
        path=str(path),
        directory_exists=directory_exists,
        threshold=threshold,
        entries=entries,
        added=sum(e.action == "add" for e in entries),
        updated=sum(e.action == "update" for e in entries),
        before_text=before_text,
        after_text=after,
        diff=diff,
        base_fingerprint=base_fingerprint,
        blocked=blocked,
        dropped=dropped,
        qualifying=sum(qualifies(n, threshold) for n in notes),
        lost=[] if last_written is None else lost_lines(last_written, before_text, expected, known),
    )


def entries_to_write(plan: PromotionPlan) -> int:
    """The entries writing the plan would add or update (none when it may not be written)."""
    if not plan.directory_exists or plan.refused:
        return 0
    return sum(e.action in ("add", "update") for e in plan.entries)


def refused_plan(
    path: Path, directory_exists: bool, threshold: int, qualifying: int, refusal: str
) -> PromotionPlan:
    """The plan of a scope whose file may not be written (core/safeio/scope_folder.py): nothing
    read,
    nothing to write, the one line that says why."""
    return PromotionPlan(
        path=str(path),
        directory_exists=directory_exists,
        threshold=threshold,
        entries=[],
        added=0,
        updated=0,
        before_text="",
        after_text="",
        diff="",
        qualifying=qualifying,
        refused=[refusal],
    )


def shown_as_one(plans: list[PromotionPlan], path: Path, threshold: int) -> PromotionPlan:
    """Several files' plans shown as one (entries and diffs one after the other); written
    file by file, never as such."""
    return PromotionPlan(
        path=str(path),
        directory_exists=any(p.directory_exists for p in plans),
        threshold=plans[0].threshold if plans else threshold,
        entries=[e for p in plans for e in p.entries],
        added=sum(p.added for p in plans),
        updated=sum(p.updated for p in plans),
        before_text="",
        after_text="",
        diff="".join(p.diff for p in plans),
        blocked=[b for p in plans for b in p.blocked],
        dropped=[d for p in plans for d in p.dropped],
        qualifying=sum(p.qualifying for p in plans),
        refused=[r for p in plans for r in p.refused],
        lost=[lost for p in plans for lost in p.lost],
        notices=[n for p in plans for n in p.notices],
        budgets=[b for p in plans for b in p.budgets],
    )
