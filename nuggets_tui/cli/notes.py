"""The notes themselves: `nuggets notes` lists them; `archive` and `unhide` change them by
hand, as journaled runs."""

from __future__ import annotations

from typing import Any

import click

from core.browse.shelf import Shelf
from core.models import RawNote
from core.notes import fields
from core.notes.snapshot import Graph
from core.safeio.inert_text import one_line

from .. import render
from ..runlogging import logs_run
from ..words import counted
from .group import Context, take_options
from .options import json_option, kind_options
from .output import echo_lines, known_nugget, print_json, reports_errors, show, tell
from .records import record_entry


@click.command()
@click.option("--nugget", help="Only this nugget.")
@click.option("--hidden", is_flag=True, help="Include archived notes.")
@click.option("--query", "-q", help="Only notes whose title, content or tags contain this text.")
@json_option("Print the notes as stored, as JSON.")
@click.pass_obj
@reports_errors
def notes(obj: Context, nugget: str | None, hidden: bool, query: str | None, as_json: bool) -> None:
    """List notes (archived ones only with --hidden)."""
    memory = obj.memory(needs_graph=True)
    shelf = Shelf(memory.read())
    known_nugget(shelf, nugget)
    found = shelf.list_notes(nugget, include_hidden=hidden, query=query)
    if as_json:
        print_json(found)
        return
    echo_lines(render.note_row(note, memory.profile.summary) for note in found)
    click.echo(counted(len(found), "note"), err=True)


@click.command()
@click.argument("note_ids", nargs=-1, required=True)
@kind_options("unhide")
@click.option(
    "--raise-confidence",
    "lift",
    is_flag=True,
    help="Also raise what keeps a note out of the agent's context, in the same run "
    "(MicroClaw: a confidence below 0.45, the least its prompt takes, raised "
    "to 0.45); undo puts it back.",
)
@click.pass_obj
@reports_errors
@logs_run("unhide")
def unhide(obj: Context, note_ids: tuple[str, ...], lift: bool, **kind_options: Any) -> None:
    """Bring archived notes back."""
    take_options(obj, kind_options)
    memory = obj.memory(needs_graph=True)
    if lift and not memory.by_hand.unhide_outlook(note_ids).lift:
        show("nuggets: --raise-confidence: nothing to raise for these notes", err=True)
    entry = memory.by_hand.unhide(note_ids, lift)
    record_entry(entry, "unhidden")
    if entry is not None and entry.file_name is not None:  # written into a file instead
        echo_lines(render.file_diff(entry))
        show(
            f"Restored into {entry.file_name} (run {entry.run_id}; undo: nuggets undo "
            f"{entry.run_id})"
        )
        tell(memory)
        return
    show(
        f"Unhid {counted(len(entry.after), 'note')} (run {entry.run_id})"
        if entry
        else "Those notes are already visible; nothing written."
    )
    if entry is not None:
        echo_lines(_absorbed_lines(memory.read(), list(entry.before.values())))
    tell(memory)  # what the store says about them (MicroClaw: rows its prompt skips)


def _absorbed_lines(graph: Graph, notes: list[RawNote]) -> list[str]:
    """For each note brought back that a merge had absorbed: which note absorbed it (that note
    keeps the lines it took; undoing the merge's run restores both exactly)."""
    lines = []
    for note in notes:
        winner = fields.merged_into(note)
        if winner is None:
            continue
        absorbed = graph.get(winner)
        name = (
            f"“{one_line(fields.text(absorbed, 'title'))}” ({one_line(winner)})"
            if absorbed
            else one_line(winner)
        )
        lines.append(
            f"  {one_line(note['id'])} had been merged into {name}, which keeps its lines too"
        )
    return lines


@click.command()
@click.argument("note_ids", nargs=-1, required=True)
@click.pass_obj
@reports_errors
@logs_run("archive")
def archive(obj: Context, note_ids: tuple[str, ...]) -> None:
    """Archive notes by hand, as the pass does (undo brings them back)."""
    memory = obj.memory(needs_graph=True)
    entry = memory.by_hand.archive(note_ids)
    record_entry(entry, "archived")
    show(
        f"Archived {counted(len(entry.after), 'note')} (run {entry.run_id})"
        if entry
        else "Those notes are already archived; nothing written."
    )
    tell(memory)  # what the store says will become of them (Nuggets: a running agent)
