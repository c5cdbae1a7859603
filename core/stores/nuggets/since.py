"""What the agent did since to the notes and facts our runs wrote (core/journal/aftermath.py,
docs/RUNS.md "What the agent did since, and will do").

The agent keeps writing its home after a run of ours: each process keeps the facts it loaded
and rewrites the whole fact file from them at every `remember` (every file it reads), so a fact
we removed comes back and one we put back is dropped; each start re-creates every fact note from
its fact, un-archived; its morning pass archives and merges notes again; and its write of the
graph, read before ours landed, puts ours back as it was. Each note is compared with the
after-image of the newest run of ours that wrote it, give or take the agent's normalization, and
each fact with what that run left in the fact file: what differs is the agent's doing, told for
that run. A run whose notes are all back as they were before it is told as undone by the agent,
never as plainly applied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.journal.aftermath import Aftermath
from core.models import FactEdit, JournalEntry, RawNote
from core.notes import fields
from core.notes.agent_normalize import unchanged_since

SHOWN = 10  # note ids named in one line per kind

# What the agent did to a note, as the line says it (in this order).
_LINE = {
    "undone": "undid this run: every note it wrote is back as it was before it",
    "merged": "merged again {ids} (its morning pass)",
    "archived": "archived again {ids}",
    "restored": "brought back {ids} (a write of the agent's, read before this run landed, "
    "put them back)",
    "restored_fact": "brought back {ids} (each start re-creates a fact note from its fact)",
    "written_back": "wrote back the facts of {ids} (a running agent rewrites its fact file "
    "from the facts it loaded)",
    "dropped": "dropped the facts of {ids} (a running agent never loaded them)",
    "deleted": "deleted {ids} (an undo cannot bring them back)",
    "changed": "changed {ids}",
}
_NOTE = {
    "merged": "Merged again by the agent's morning pass since run {run} left it visible.",
    "archived": "Archived again by the agent since run {run} left it visible.",
    "restored": "Brought back by the agent since run {run} archived it: a write of the "
    "agent's, read before the run landed, put it back.",
    "restored_fact": "Brought back by the agent since run {run} archived it: each start of the "
    "agent re-creates a fact note from its fact, un-archived.",
    "written_back": "Its fact was written back by a running agent since run {run} removed or "
    "changed it: the agent rewrites its fact file from the facts it loaded at its start.",
    "dropped": "Its fact was dropped by a running agent since run {run} put it back: that "
    "agent loaded its facts before and rewrites the fact file from them.",
    "deleted": "Deleted by the agent since run {run}.",
    "changed": "Changed by the agent since run {run}.",
}
# A note taken back by the agent whose run archived it, or that our run merged: told as what
# the kinds above say; "undone" is said of the run, not of a note.
NOTE_KINDS = tuple(k for k in _LINE if k != "undone")


@dataclass
class Images:
    """Each note and fact the runs wrote (newest run first): the newest run's id and what it
    left, and for each run its notes' before-images."""

    notes: dict[str, tuple[str, RawNote]] = field(default_factory=dict)
    facts: dict[tuple[str, str], tuple[str, FactEdit]] = field(default_factory=dict)
    before: dict[str, dict[str, RawNote]] = field(default_factory=dict)

    def add(self, entry: JournalEntry) -> None:
        """One run, older than those added before it."""
        for note_id, after in entry.after.items():
            self.notes.setdefault(note_id, (entry.run_id, after))
        for edit in entry.side_file_edits:
            self.facts.setdefault((edit.path, edit.key.lower()), (entry.run_id, edit))
        self.before[entry.run_id] = dict(entry.before)


def note_became(image: RawNote, now: RawNote | None) -> str | None:
    """What the agent did to a note a run left as `image` (pure); None: nothing."""
    if now is None:
        return "deleted"
    if unchanged_since(image, now):
        return None
    was, is_now = fields.hidden(image), fields.hidden(now)
    if was and not is_now:
        return "restored_fact" if now.get("kind") == "fact" else "restored"
    if is_now and not was:
        return "merged" if _agent_merged(now) else "archived"
    return "changed"


def _agent_merged(note: RawNote) -> bool:
    return any(
        link.get("reason") == fields.AGENT_MERGE_REASON
        for link in fields.links(note)
        if isinstance(link, dict)
    )


def fact_became(edit: FactEdit, now: Mapping[str, Any] | None) -> str | None:
    """What a running agent did to a fact a run left as `edit.after` (pure); None: nothing.
    A fact whose value or hits the agent moved on is its own business (recall, capture): only
    a fact back that the run removed, or gone that the run wrote, is told."""
    if edit.after is None:
        return None if now is None else "written_back"
    if now is None:
        return "dropped"
    if edit.before is not None and now.get("value") == edit.before.get("value") != (
        edit.after.get("value")
    ):
        return "written_back"
    return None


def aftermaths(
    images: Images,
    notes: Mapping[str, RawNote],
    facts: Mapping[tuple[str, str], Mapping[str, Any] | None],
    newest: str | None = None,
) -> dict[str, Aftermath]:
    """Each run whose notes or facts the agent changed since, by run id (pure). `notes`: the
    graph's notes by id; `facts`: the fact each run's fact edit names, by (file, lower-cased
    key), None when it is not in its file; `newest`: the journal's newest run."""
    found: dict[str, dict[str, list[str]]] = {}
    for note_id, (run_id, image) in images.notes.items():
        kind = note_became(image, notes.get(note_id))
        if kind is not None:
            found.setdefault(run_id, {}).setdefault(kind, []).append(note_id)
    for place, (run_id, edit) in images.facts.items():
        if place not in facts:
            continue  # its file cannot be read: nothing to tell
        kind = fact_became(edit, facts[place])
        if kind is not None:
            found.setdefault(run_id, {}).setdefault(kind, []).append(edit.note_id)
    told = {}
    for run_id, kinds in found.items():
        before = images.before.get(run_id, {})
        undone = bool(before) and all(
            unchanged_since(note, notes.get(note_id)) for note_id, note in before.items()
        )
        told[run_id] = Aftermath(
            run_id,
            deleted=_ids(kinds, "deleted"),
            archived=_ids(kinds, "archived", "merged"),
            restored=_ids(kinds, "restored", "restored_fact"),
            changed=_ids(kinds, "changed", "written_back", "dropped"),
            line=said(kinds, undone),
            notes=_remarks(kinds, run_id),
            newest=run_id == newest,
        )
    return told


def _remarks(kinds: Mapping[str, list[str]], run_id: str) -> dict[str, str]:
    """Per note, what the agent did to it (a fact note may be told twice: its note and its
    fact)."""
    said: dict[str, list[str]] = {}
    for kind in NOTE_KINDS:
        for note_id in kinds.get(kind, ()):
            said.setdefault(note_id, []).append(_NOTE[kind].format(run=run_id))
    return {note_id: " ".join(parts) for note_id, parts in said.items()}


def _ids(kinds: Mapping[str, list[str]], *names: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for name in names for i in kinds.get(name, ())))


def said(kinds: Mapping[str, Sequence[str]], undone: bool = False) -> str:
    """One line: what the agent did since, kind by kind."""
    parts = [_LINE["undone"]] if undone else []
    for kind in NOTE_KINDS:
        ids = list(dict.fromkeys(kinds.get(kind) or []))
        if ids:
            shown = ", ".join(ids[:SHOWN]) + (
                f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
            )
            parts.append(_LINE[kind].format(ids=shown))
    return "since this run the agent " + "; ".join(parts)
