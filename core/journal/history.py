"""Reading the journal's history: which applied run an undo would restore next."""

from __future__ import annotations

from pathlib import Path

from core.errors import NuggetsError
from core.journal.entries import JournalHeader, read_entry, read_headers
from core.journal.own_files import OwnFiles
from core.models import JournalEntry
from core.notes.agent_normalize import unchanged_since
from core.notes.snapshot import Graph


def undone_by(entries: list[JournalHeader], run_id: str) -> str | None:
    """The run that undid `run_id`, if one did."""
    return next((e.run_id for e in entries if e.undoes == run_id), None)


def in_effect(entries: list[JournalHeader], run_id: str) -> bool:
    """Whether the run still stands: not undone, or its undo undone in turn (and so on)."""
    standing, seen = True, {run_id}
    while (undo := undone_by(entries, run_id)) is not None and undo not in seen:
        standing, run_id = not standing, undo
        seen.add(undo)
    return standing


def undone_together(entries: list[JournalHeader], run_id: str) -> list[JournalHeader]:
    """The runs an undo of `run_id` takes back (entries newest first): the run itself and
    every other run of its batch still in effect, newest first."""
    asked = next((e for e in entries if e.run_id == run_id), None)
    if asked is None:
        return []
    if asked.batch is None:
        return [asked]
    return [
        e
        for e in entries
        if e.run_id == run_id or (e.batch == asked.batch and in_effect(entries, e.run_id))
    ]


def with_places(entries: list[JournalHeader]) -> list[JournalHeader]:
    """The entries (newest first), each run of a batch of several with its place in the batch
    said at the end of its summary, so that `log` and the run history show them together."""
    batches: dict[str, list[str]] = {}
    for entry in reversed(entries):  # oldest first
        if entry.batch is not None:
            batches.setdefault(entry.batch, []).append(entry.run_id)
    return [
        e.model_copy(update={"summary": e.summary + place(batches[e.batch], e.run_id)})
        if e.batch is not None and len(batches[e.batch]) > 1
        else e
        for e in entries
    ]


def place(batch: list[str], run_id: str) -> str:
    """What a run's summary says of its batch (`batch`: its run ids, oldest first)."""
    return (
        f" [{batch.index(run_id) + 1} of {len(batch)} runs written together from "
        f"{batch[0]}; undone together]"
    )


def undo_blockers(entry: JournalEntry, graph: Graph) -> list[str]:
    """Notes the run wrote that changed since (as the file holds them now, give or take the
    agent's normalization): undoing it would lose those changes, so it is refused while there
    are any."""
    return [
        note_id
        for note_id, after in entry.after.items()
        if not unchanged_since(after, graph.get(note_id))
    ]


def last_undoable(entries: list[JournalHeader]) -> JournalHeader | None:
    """The newest run that changed notes and is not itself undone (entries newest first).

    Undo entries themselves are skipped: undoing goes back through the runs one by one.
    """
    undone = {e.undoes for e in entries if e.undoes}
    for entry in entries:
        if entry.kind != "undo" and entry.run_id not in undone:
            return entry
    return None


def last_file_run(home: Path, name: str, files: OwnFiles) -> JournalEntry | None:
    """The newest run that wrote the file `name` (a promotion, or an undo of one); None when
    there is none, or it cannot be read (`log` names it)."""
    headers, _ = read_headers(home)
    newest = next((h for h in headers if h.file_name == name), None)
    if newest is None:
        return None
    try:
        return read_entry(home, newest.run_id, files)
    except NuggetsError:
        return None
