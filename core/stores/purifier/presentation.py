"""How the front ends show a memory-purifier workspace: its profile (words, the columns of its
claims and candidates: the purifier's own status, verdict and scores; capabilities), and a note
on one line."""

from __future__ import annotations

from typing import Any

from core.contract.capabilities import Capabilities
from core.contract.profile import NoteColumn, Profile
from core.models import RawNote
from core.safeio.inert_text import one_line
from core.stores.purifier.runner import TOKENS_WARNING


def _info(note: RawNote) -> dict[str, Any]:
    info = note.get("purifier")
    return info if isinstance(info, dict) else {}


def status(note: RawNote) -> str:
    """A claim's status, or a candidate's Pass-1 verdict."""
    info = _info(note)
    return str(info.get("status") or info.get("verdict") or "")


def strength(note: RawNote) -> str:
    stored = note.get("storedVerdict")
    value = stored.get("strength") if isinstance(stored, dict) else None
    flag = "!" if _info(note).get("drift") else ""
    return f"{value:.2f}{flag}" if isinstance(value, int | float) else ""


def provenance(note: RawNote) -> str:
    refs = _info(note).get("provenance") or []
    first = refs[0] if refs and isinstance(refs[0], dict) else {}
    span = first.get("lineSpan") or []
    lines = f":{span[0]}-{span[-1]}" if isinstance(span, list) and span else ""
    return f"{first.get('source') or ''}{lines}"


COLUMNS: tuple[NoteColumn, ...] = (
    NoteColumn("Status", 12, 6, status),
    NoteColumn("Type", 10, 3, lambda note: str(note.get("type") or "")),
    NoteColumn("Str.", 5, 5, strength, right=True),
    NoteColumn("Source", 18, 2, provenance),
    NoteColumn("Run", 10, 1, lambda note: str(_info(note).get("runId") or ""), cut_middle=True),
    NoteColumn("Links", 5, 4, lambda note: str(len(note.get("links") or [])), right=True),
)


def note_summary(note: RawNote) -> str:
    info = _info(note)
    return (
        f"{one_line(status(note))} {one_line(str(note.get('type') or ''))} "
        f"strength={one_line(strength(note))} source={one_line(provenance(note))} "
        f"run={one_line(str(info.get('runId') or ''))}"
        + (f" mark={one_line(str(note['mark']))}" if note.get("mark") else "")
        + (" (on an earlier text)" if note.get("markOnEarlierText") else "")
    )


READ_ONLY = (
    "a memory-purifier workspace is read-only here (its files are never written; act "
    "through the purifier itself)"
)

RESTORE_PROMPT = (
    "The workspace's source file to put this candidate's text back into "
    "(MEMORY.md, RTMEMORY.md, PROCEDURES.md, episodes/….md); the purifier reads it "
    "on its next reconciliation."
)

PROFILE = Profile(
    system="memory-purifier",
    source_label="purified claims",
    pass_label="purifier's next run",
    promotion_label="nothing (read-only)",
    promotion_rule="(read-only: nothing is promoted) {threshold}",
    archive_effect="nothing: the purifier's files are never written",
    capabilities=Capabilities(
        marks=True, manual_archive=False, own_schedule=True, runs_itself=True, costly_plans=True
    ),
    columns=COLUMNS,
    summary=note_summary,
    refusal=READ_ONLY,
    plan_cost=TOKENS_WARNING,
    applied_elsewhere="Run by the purifier itself, under its own lock and in its own "
    "memory-log: not a run of ours, so undo does not take it back.",
    maintained_elsewhere="The purifier runs on its own cron: daily neither runs it nor "
    "promotes; it checked the workspace's health (reflect --apply runs "
    "the purifier).",
    archive_refused="A memory-purifier workspace is read-only here: nothing is archived by "
    "hand (act through the purifier itself).",
    change_kinds=("rewrite", "hide"),
    plan_scope="The purifier's next run, on a copy of the workspace: {notes} compared.",
    group="home",
    groups="homes",
)
