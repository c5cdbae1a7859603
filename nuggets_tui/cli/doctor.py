"""`nuggets doctor`: whether something beside us will undo what the operator decides (for
Nuggets: the agent's own daily pass, read from its checkout). Exits 1 when something will."""

from __future__ import annotations

import click

from .group import Context
from .options import json_option
from .output import print_json, reports_errors, show


@click.command()
@json_option("Print the findings as JSON.")
@click.pass_obj
@reports_errors
def doctor(obj: Context, as_json: bool) -> None:
    """Say whether the memory's own program will redo what you decided (exit 1 when so)."""
    memory = obj.memory(graph_warnings=False)
    checker = memory.doctor
    found = [] if checker is None else checker.check()
    if as_json:
        print_json(
            [{"warning": line.warning, "text": line.text, "brief": line.brief} for line in found]
        )
    elif checker is None:
        show(f"{memory.profile.system}: nothing beside us redoes what you decide here.")
    for line in found if not as_json else ():
        show(("WARNING: " if line.warning else "") + line.text)
    if any(line.warning for line in found):
        raise SystemExit(1)
