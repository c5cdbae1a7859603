"""`nuggets mark`: the operator's marks on notes, for decisions the memory system has no input
for (core/review/marks.py). Offered by a store that declares the "marks" capability; a dry run
unless --apply, journaled and undoable."""

from __future__ import annotations

import click

from core.errors import NuggetsError, UnknownNoteError
from core.review.marks import MARKS, Mark, mark_notes

from ..runlogging import current_run, logs_run
from ..words import counted
from .group import Context
from .options import apply_option
from .output import reports_errors, show


@click.command()
@click.argument("note_ids", metavar="NOTE_ID...", nargs=-1, required=True)
@click.option("--as", "mark", type=click.Choice(MARKS), help="The mark to give them.")
@click.option("--clear", is_flag=True, help="Take their marks off instead.")
@apply_option("Write the marks and journal them.")
@click.pass_obj
@reports_errors
@logs_run("mark")
def mark(
    obj: Context, note_ids: tuple[str, ...], mark: Mark | None, clear: bool, do_apply: bool
) -> None:
    """Mark notes reviewed or disputed (kept beside our journal, never in the memory's files)."""
    if (mark is None) == (not clear):
        raise click.UsageError("give either --as reviewed|disputed or --clear")
    current_run().dry = not do_apply
    memory = obj.memory(needs_graph=True)
    if not memory.profile.capabilities.marks:
        raise NuggetsError(f"marks are not kept for {memory.profile.system} notes")
    graph = memory.read()
    unknown = [i for i in note_ids if graph.get(i) is None]
    if unknown:
        raise UnknownNoteError(f"no note {', '.join(unknown)}")
    what = f"marked {mark}" if mark else "unmarked"
    if not do_apply:
        show(
            f"{counted(len(note_ids), 'note')} to be {what} (dry run); run with --apply to "
            "write it."
        )
        return
    texts = {i: str((graph.get(i) or {}).get("content") or "") for i in note_ids}
    entry = mark_notes(memory, note_ids, mark, texts)
    run = current_run()
    run.counts["marked"] = len(note_ids) if entry is not None else 0
    if entry is None:
        show(f"Already {what}; nothing written.")
        return
    run.run_id, run.summary, run.undoes = entry.run_id, entry.summary, [entry.run_id]
    show(
        f"{counted(len(note_ids), 'note')} {what} (run {entry.run_id}; undo: nuggets undo "
        f"{entry.run_id})"
    )
