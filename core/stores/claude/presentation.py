"""How the front ends show a Claude Code memory directory: its profile (words, the columns of
its topic files: type, the index line's hook, size, flags; capabilities) and a note on one
line."""

from __future__ import annotations

from typing import Any

from core.contract.capabilities import Capabilities
from core.contract.parts import SideFiles
from core.contract.profile import NoteColumn, Profile
from core.models import Plan, RawNote
from core.safeio.inert_text import one_line
from core.stores.claude.paths import INDEX


def _info(note: RawNote) -> dict[str, Any]:
    info = note.get("claude")
    return info if isinstance(info, dict) else {}


def flags(note: RawNote) -> str:
    return "; ".join(str(f) for f in _info(note).get("flags") or [])


def size(note: RawNote) -> str:
    value = _info(note).get("size")
    return f"{value:,}" if isinstance(value, int) else ""


def hook(note: RawNote) -> str:
    return str(_info(note).get("hook") or _info(note).get("description") or "")


COLUMNS: tuple[NoteColumn, ...] = (
    NoteColumn("Type", 10, 5, lambda note: str(note.get("type") or "")),
    NoteColumn("Hook", 28, 2, hook, in_detail=True),
    NoteColumn("Size", 7, 3, size, right=True),
    NoteColumn("Flags", 24, 4, flags, in_detail=True),
)


def note_summary(note: RawNote) -> str:
    line = _info(note).get("indexLine")
    return (
        f"{one_line(str(note.get('type') or '-'))} size={size(note)} "
        f"index={'line ' + str(line) if line else 'none'} hook={one_line(hook(note))}"
        + (f" flags={one_line(flags(note))}" if flags(note) else "")
    )


def _merged_into(note: RawNote) -> str:
    return str(_info(note).get("mergedInto") or "")


def merge_lines(plan: Plan, note_ids: set[str]) -> list[str]:
    """What a merge of these notes does besides rewriting the file that stays, one line each."""
    found = []
    for diff in plan.notes:
        into = _merged_into(diff.after)
        if into not in note_ids:
            continue
        if diff.after.get("hidden"):
            found.append(
                f"{one_line(diff.note_id)}: removed, its lines folded into "
                f"{one_line(into)} (archived: u brings it back byte for byte)"
            )
        else:
            gone = str(diff.before.get("content") or "").splitlines()
            found += [f"{INDEX}: this line goes: {one_line(line)}" for line in gone]
    return found


def proposal_lines(plan: Plan, note_ids: set[str]) -> list[str]:
    """The topic files the budget proposal writes, when these notes hold it, one line each."""
    return [
        f"{name}: a new topic file with {lines} lines moved out of {INDEX}"
        if new
        else f"{name}: {lines} lines of {INDEX} added at its end"
        for name, lines, new in _proposal(plan, note_ids)
    ]


def proposal_files(plan: Plan, note_ids: set[str]) -> list[str]:
    """The topic files the budget proposal writes, when these notes hold it."""
    return [name for name, _, _ in _proposal(plan, note_ids)]


def _proposal(plan: Plan, note_ids: set[str]) -> list[tuple[str, int, bool]]:
    if INDEX not in note_ids:
        return []
    return [
        (str(name), int(lines), bool(new))
        for d in plan.notes
        if d.note_id == INDEX
        for name, lines, new in _info(d.after).get("detailFiles") or []
    ]


def merge_files(plan: Plan, note_ids: set[str]) -> list[str]:
    """The files a merge of these notes writes besides the file that stays."""
    return [
        str(_info(d.after).get("file") or d.note_id)
        for d in plan.notes
        if _merged_into(d.after) in note_ids
    ]


PROFILE = Profile(
    system="Claude Code",
    source_label="memory directory",
    pass_label="agent's changes since the last review",
    promotion_label="nothing (the agent writes MEMORY.md itself)",
    promotion_rule="(the agent's own memory: nothing is promoted) {threshold}",
    archive_effect="nothing: a topic file is never deleted by hand here",
    capabilities=Capabilities(manual_archive=False, whole_file_apply=False),
    columns=COLUMNS,
    summary=note_summary,
    refusal="not offered for a Claude Code memory directory (its files are written only by "
    "a review you apply, by unhide and by undo)",
    change_kinds=("rewrite", "merge", "hide"),
    apply_effect="The agent's changes kept are accepted (nothing written); each one left out "
    "puts its file's reviewed version back, and each hygiene change kept is "
    "written: a run per file, undone together, each only if the file is unchanged "
    "since this plan. Every version seen stays in our record.",
    plan_scope="The directory against its last review: {notes} read; what the agent changed "
    "since, file by file.",
    archived_text="its text, kept in our record of what was seen (u brings the file back)",
    archive_refused="Nothing is archived by hand here: a topic file leaves only when the agent "
    "deletes it or a merge you apply folds it into another (u puts it back).",
    group="type",
    groups="types",
)


def side_file_lines(plan: Plan, note_ids: set[str]) -> list[str]:
    return proposal_lines(plan, note_ids) + merge_lines(plan, note_ids)


def side_file_names(plan: Plan, note_ids: set[str]) -> list[str]:
    return proposal_files(plan, note_ids) + merge_files(plan, note_ids)


OTHER_FILES = SideFiles(
    title="Other files",
    why="written with this change, each a journaled run of its own",
    sentence="With them it writes {names}. ",
    lines=side_file_lines,
    names=side_file_names,
)
