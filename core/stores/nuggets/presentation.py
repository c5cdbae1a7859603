"""How the front ends show a Nuggets memory: its profile (words, columns, capabilities), a note
on one line, and what a plan does to the agent's fact files beside the notes."""

from __future__ import annotations

from core.contract.capabilities import Capabilities
from core.contract.parts import SideFiles
from core.contract.profile import NoteColumn, Profile
from core.models import Plan, RawNote
from core.notes import fields
from core.safeio.inert_text import one_line
from core.stores.nuggets.fact_files import describe

COLUMNS: tuple[NoteColumn, ...] = (
    NoteColumn("Scope", 7, 2, lambda note: fields.text(note, "scope")),
    NoteColumn("Type", 10, 3, lambda note: fields.text(note, "type")),
    NoteColumn("Hits", 4, 6, lambda note: str(fields.hits(note)), right=True),
    NoteColumn("Tags", 18, 1, lambda note: ", ".join(fields.tags(note))),
    NoteColumn("Links", 5, 4, lambda note: str(len(fields.links(note))), right=True),
    NoteColumn("Updated", 10, 5, lambda note: fields.updated_at(note)[:10]),
)


def note_summary(note: RawNote) -> str:
    tags = ",".join(one_line(tag) for tag in fields.tags(note))
    return f"hits={fields.hits(note)} tags={tags}"


PROFILE = Profile(
    system="Nuggets",
    source_label="graph file",
    pass_label="reflection pass",
    promotion_label="MEMORY.md",
    promotion_rule="recalled {threshold:,}+ times",
    archive_effect="a fact note's fact leaves its fact file, as the pass's archive does",
    capabilities=Capabilities(
        merge=True,
        rules=True,
        capped_plans=True,
        recall_counts=True,
        fact_notes=True,
        promotion_elsewhere=True,
    ),
    columns=COLUMNS,
    summary=note_summary,
    promotion_option="--memory-md PATH",
    promotion_env="$NUGGETS_MEMORY_MD",
    plan_scope="Whole graph, no cap: {notes} inspected; merges and links unbounded.",
    plan_cap="Capped: {notes} inspected; merges and links count separately, up to {limit} each.",
    fact_label="fact",
    hits_label="Recalls",
    hits_line="{count} recalled {threshold}+ times",
    archived_text="its text, kept in the file",
)


def side_file_lines(plan: Plan, note_ids: set[str]) -> list[str]:
    """What the plan does to the fact files for these notes, one line per fact."""
    return [describe(edit) for edit in plan.side_file_edits if edit.note_id in note_ids]


def side_file_names(plan: Plan, note_ids: set[str]) -> list[str]:
    return sorted({edit.path for edit in plan.side_file_edits if edit.note_id in note_ids})


FACT_FILES = SideFiles(
    title="Fact file",
    why="the agent re-creates fact notes from it",
    sentence="With them it edits the facts of those fact notes in {names} (the agent "
    "re-creates fact notes from them), in the same unit.",
    lines=side_file_lines,
    names=side_file_names,
)
