"""Promotion of durable notes to MEMORY.md (SPEC §6): deciding is pure, writing is thin."""

from __future__ import annotations

import difflib
import os
from collections.abc import Collection, Mapping
from pathlib import Path

from . import fields
from .memorymd import MemoryDocument
from .models import BlockedEntry, PromotionEntry, PromotionPlan, RawNote
from .screening import screen_entry
from .store import EMPTY_FINGERPRINT

DEFAULT_THRESHOLD = 3
MEMORY_MD_ENV = "NUGGETS_MEMORY_MD"
HEADER = [
    "# Memory",
    "",
    "Auto-promoted from nuggets graph notes (3+ recalls across sessions).",
]


def default_memory_md(cwd: Path, home_dir: Path) -> Path:
    """~/.claude/projects/<cwd with every "/" replaced by "-">/memory/MEMORY.md"""
    return home_dir / ".claude" / "projects" / str(cwd).replace("/", "-") / "memory" / "MEMORY.md"


def resolve_memory_md(
    explicit: Path | None, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Path:
    env = os.environ if environ is None else environ
    if explicit is not None:
        return explicit
    if env.get(MEMORY_MD_ENV):
        return Path(env[MEMORY_MD_ENV]).expanduser()
    return default_memory_md(cwd or Path.cwd(), Path.home())


def section_of(note: RawNote) -> str:
    tags = fields.tags(note)
    title = fields.text(note, "title").lower()
    subject = fields.text(note, "subject")
    if note.get("type") == "preference" or "preferences" in tags:
        return "preferences"
    if "learnings" in tags or title.startswith("learn"):
        return "learnings"
    if subject == "assistant:self":
        return "assistant-self"
    if subject.startswith("user:"):
        return "user"
    if fields.text(note, "scope") in fields.SHARED_SCOPES:
        return "shared-context"
    return fields.text(note, "nuggetName")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def entry_title(note: RawNote) -> str:
    """The title as an entry writes it: one line, and no `**:` inside, which would end the bold
    title early and make one entry's line look like another's (`- **a**: b**: …`)."""
    return _one_line(fields.text(note, "title")).replace("**:", "** :")


def _content_lines(note: RawNote) -> list[str]:
    """The content as an entry writes it: non-blank lines, stripped. Line breaks of any kind
    (CR, CRLF, form feed, U+2028) end a line here and are never written."""
    return [line.strip() for line in fields.text(note, "content").splitlines() if line.strip()]


def entry_lines(note: RawNote) -> list[str]:
    """`- **title**: first line`, further non-blank content lines indented by two spaces."""
    lines = _content_lines(note)
    head = f"- **{entry_title(note)}**: {lines[0] if lines else ''}".rstrip()
    return [head] + [f"  {line}" for line in lines[1:]]


def qualifies(note: RawNote, threshold: int = DEFAULT_THRESHOLD) -> bool:
    """Recalled often enough to be promoted: a visible note with `threshold` hits or more. The
    one definition behind every count of such notes."""
    return not fields.hidden(note) and fields.hits(note) >= threshold


def candidates(notes: list[RawNote], threshold: int) -> list[RawNote]:
    """Qualifying notes; one per section and title (most hits, then file order)."""
    eligible = [n for n in notes if qualifies(n, threshold)]
    best: dict[tuple[str, str], RawNote] = {}
    for note in sorted(eligible, key=lambda n: -fields.hits(n)):
        best.setdefault((section_of(note), entry_title(note)), note)
    chosen = {id(n) for n in best.values()}
    return [n for n in eligible if id(n) in chosen]


def plan_promotion(
    notes: list[RawNote], path: Path, before_text: str, directory_exists: bool,
    threshold: int = DEFAULT_THRESHOLD, allow: Collection[str] = (),
    base_fingerprint: str = EMPTY_FINGERPRINT,
) -> PromotionPlan:
    """The edited MEMORY.md. Candidates that screening holds back are left out and listed as
    blocked, unless their note id is in `allow`."""
    doc = MemoryDocument(before_text, HEADER)
    entries: list[PromotionEntry] = []
    blocked: list[BlockedEntry] = []
    for note in candidates(notes, threshold):
        # One line each: a heading or a title with a line break in it would not be found again.
        section, title = _one_line(section_of(note)), entry_title(note)
        lines = entry_lines(note)
        # What would be written is screened: a CRLF note is not held back for its CRs.
        reason = screen_entry(title, "\n".join(_content_lines(note)), section)
        if reason and note["id"] not in allow:
            blocked.append(BlockedEntry(note_id=note["id"], nugget_name=note["nuggetName"],
                                        section=section, title=title, text="\n".join(lines),
                                        reason=reason))
            continue
        action = doc.upsert(section, title, lines)
        entries.append(
            PromotionEntry(note_id=note["id"], nugget_name=note["nuggetName"], section=section,
                           title=title, text="\n".join(lines), action=action,
                           allowed_despite=reason)
        )
    after = doc.text() if entries or before_text else before_text
    diff = "".join(
        difflib.unified_diff(
            before_text.splitlines(keepends=True), after.splitlines(keepends=True),
            fromfile=f"{path} (now)", tofile=f"{path} (promoted)",
        )
    )
    return PromotionPlan(
        path=str(path), directory_exists=directory_exists, threshold=threshold, entries=entries,
        added=sum(e.action == "add" for e in entries),
        updated=sum(e.action == "update" for e in entries),
        before_text=before_text, after_text=after, diff=diff,
        base_fingerprint=base_fingerprint, blocked=blocked,
        qualifying=sum(qualifies(n, threshold) for n in notes),
    )
