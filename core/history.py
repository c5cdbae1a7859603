"""Reading the journal's history: which applied run an undo would restore next."""

from __future__ import annotations

from .journal import JournalHeader


def last_undoable(entries: list[JournalHeader]) -> JournalHeader | None:
    """The newest run that changed notes and is not itself undone (entries newest first).

    Undo entries themselves are skipped: undoing goes back through the runs one by one.
    """
    undone = {e.undoes for e in entries if e.undoes}
    for entry in entries:
        if entry.kind != "undo" and entry.run_id not in undone:
            return entry
    return None
