"""Promotion of MicroClaw rows to the bot's file memory (AGENTS.md): deciding is pure.

Active PROFILE and KNOWLEDGE rows with confidence at or above the threshold (a percentage,
80 unless set) go to the AGENTS.md of their scope (global -> `groups/AGENTS.md`, a chat -> its
`<channel>/<chats.chat_id>/AGENTS.md`, the file the bot reads) under `## Promoted memories`,
one `- <content>` line each, that section before the first `## Person:` heading (the bot's
write_memory rewrites those). The file is edited in place (core/promotion/memory_md.py):
hand-written text is kept, a row whose text is in the file already is not added again,
screening (core/promotion/screening.py) holds back what must not reach the bot's prompt, and
the contradiction queue (core/review/queue.py) what it has yet to decide. Each file is its own
plan and its own journaled run, so each undoes on its own.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from pathlib import Path

from core.models import BlockedEntry, PromotionEntry, PromotionPlan, RawNote
from core.notes.snapshot import EMPTY_FINGERPRINT
from core.promotion.alike import mark_alike
from core.promotion.candidates import entry_hash, held_back, is_allowed, shown_text, shown_title
from core.promotion.memory_md import MemoryDocument, split_lines
from core.promotion.screening import screen
from core.stores.microclaw.paths import agents_md_target, target_problem
from core.stores.microclaw.rows import scope_of

SECTION = "Promoted memories"
# The bot's write_memory replaces a chat file's `## Person: <sender>` section up to the next
# one or the end: our section before the first of them is never inside one.
PERSON = "Person:"
DEFAULT_THRESHOLD = 80  # percent confidence
PROMOTED_CATEGORIES = ("PROFILE", "KNOWLEDGE")


def promotable(note: RawNote, threshold: int = DEFAULT_THRESHOLD) -> bool:
    """Active PROFILE or KNOWLEDGE rows with confidence >= threshold percent."""
    return (
        not note.get("hidden")
        and note.get("type") in PROMOTED_CATEGORIES
        and float(note.get("confidence", 0)) * 100 >= threshold - 1e-9
    )


def entry_line(note: RawNote) -> str:
    """`- <content>` on one line (line breaks inside would end the entry)."""
    return f"- {' '.join(str(note.get('content', '')).split())}"


def collapsed(text: str) -> str:
    """Text with every run of white space one space (the bot's normalize_memory_content)."""
    return " ".join(text.split())


def in_text(note: RawNote, collapsed_text: str) -> bool:
    """Whether the row's text is in the file already (a row `write_memory` made holds the
    text it wrote, white space collapsed)."""
    content = collapsed(str(note.get("content", "")))
    return bool(content) and content in collapsed_text


def targets(
    data_dir: Path, notes: list[RawNote], threshold: int = DEFAULT_THRESHOLD
) -> tuple[dict[Path, list[RawNote]], dict[str, str]]:
    """The rows to promote, by the AGENTS.md the bot reads for their scope (oldest row first
    in each); and the scopes no such file can be named for, each with its one line."""
    found: dict[Path, list[RawNote]] = {}
    skipped: dict[str, str] = {}
    for note in notes:
        if promotable(note, threshold) and "microclaw" in note:
            scope = scope_of(note)
            path = agents_md_target(data_dir, scope)
            if path is None:
                skipped[scope.nugget] = target_problem(scope) or scope.nugget
            else:
                found.setdefault(path, []).append(note)
    return found, skipped


def plan_file(
    notes: list[RawNote],
    path: Path,
    before_text: str,
    directory_exists: bool,
    threshold: int = DEFAULT_THRESHOLD,
    allow: Collection[str] = (),
    base_fingerprint: str = EMPTY_FINGERPRINT,
    drop: Collection[str] = (),
    allow_contact: bool = False,
    queued: Mapping[str, str] | None = None,
) -> PromotionPlan:
    """One AGENTS.md edited: screened entries, and those of rows in an open group of the
    contradiction queue (`queued`: row id -> group id), held back unless allowed, dropped ones
    left out; writes nothing."""
    doc = MemoryDocument(before_text, [])
    moved = doc.move_before(SECTION, PERSON)
    held = collapsed(before_text)
    entries: list[PromotionEntry] = []
    blocked: list[BlockedEntry] = []
    dropped: list[PromotionEntry] = []
    for note in notes:
        line = entry_line(note)
        title, content = str(note.get("title", "")), line[2:]
        digest = entry_hash(SECTION, line)
        common = {
            "note_id": note["id"],
            "nugget_name": note["nuggetName"],
            "section": SECTION,
            "title": title,
            "text": line,
            "hash": digest,
        }
        group = (queued or {}).get(note["id"])
        # an entry is the row's text alone: its title (that text again) is not written
        screened = held_back(screen("", content, SECTION, allow_contact), group)
        reason = screened.reason if screened else None
        if screened and not is_allowed(note["id"], digest, allow):
            blocked.append(
                BlockedEntry(
                    **{
                        **common,
                        "title": shown_title(title, screened),
                        "text": shown_text(line, screened),
                    },
                    reason=screened.reason,
                    secret=screened.secret,
                    queued=group or "",
                )
            )
            continue
        if note["id"] in drop:
            dropped.append(PromotionEntry(**common, action="drop"))
            continue
        action = "same" if in_text(note, held) else doc.add_line(SECTION, line, before=PERSON)
        entries.append(PromotionEntry(**common, action=action, allowed_despite=reason))
    mark_alike(entries, before_text)
    after = doc.text() if moved or any(e.action == "add" for e in entries) else before_text
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
        updated=0,
        before_text=before_text,
        after_text=after,
        diff=diff,
        base_fingerprint=base_fingerprint,
        blocked=blocked,
        dropped=dropped,
        qualifying=len(notes),
    )
