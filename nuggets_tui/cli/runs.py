"""The journal of applied runs: `nuggets log` lists them, `nuggets undo` takes one back."""

from __future__ import annotations

from pathlib import Path

import click

from core.errors import NuggetsError
from core.safeio.inert_text import one_line

from .. import render
from ..foretold import foretold
from ..runlogging import logs_run
from ..words import restored_words
from .group import Context
from .options import json_option, memory_md_option
from .output import echo_lines, print_json, reports_errors, show, tell
from .records import record_entry


@click.command()
@click.argument("run_id")
@memory_md_option(
    "The MEMORY.md a promotion run wrote, when it was not the default "
    "($NUGGETS_MEMORY_MD, else Claude's project memory)."
)
@click.pass_obj
@reports_errors
@logs_run("undo")
def undo(obj: Context, run_id: str, memory_md: Path | None) -> None:
    """Restore the notes an applied run changed (or the file a promotion wrote)."""
    memory = obj.memory(memory_md)
    told = foretold(memory, lambda foresight: foresight.undo_outlook(run_id))
    entry = memory.journal.undo(run_id)
    tell(memory)  # rows the store left as they are (MicroClaw: changed by the bot since)
    tell(memory, told)  # what the agent will do to them (Nuggets: its pass, a running agent)
    record_entry(entry, "restored")
    show(f"Undid {run_id}: restored {restored_words(entry)} (run {entry.run_id})")


@click.command()
@json_option("Print the journal entries as JSON.")
@click.pass_obj
@reports_errors
def log(obj: Context, as_json: bool) -> None:
    """Applied runs, newest first."""
    memory = obj.memory(graph_warnings=False)  # the journal only: no need to read the graph
    entries = memory.journal.log()
    try:  # what the memory's own program did to them since
        teller = memory.aftermaths
        since, unknown = (teller.aftermath(entries) if teller else {}), []
    except NuggetsError as exc:  # the journal still lists
        since, unknown = {}, [f"what changed since each run cannot be told: {exc}"]
    losses = memory.promoter.promotion_losses() if memory.promoter else []
    tell(memory, [*losses, *unknown])
    if as_json:
        print_json(
            [
                {
                    **e.to_json_dict(),
                    **({"since": since[e.run_id].to_json()} if e.run_id in since else {}),
                }
                for e in entries
            ]
        )
        return
    for entry in entries:
        show(render.journal_line(entry))
        if entry.run_id in since:
            show(f"  {one_line(since[entry.run_id].line)}")
    if not entries:
        click.echo("No runs applied yet.", err=True)
    if memory.versions is not None:
        echo_lines(render.kept_versions_text(memory.versions.kept_versions()))
