"""`nuggets reflect`: the reflection pass as a dry run, or applied and journaled, with the
review rules and the operator's decisions deciding what a run without a person keeps."""

from __future__ import annotations

from typing import Any

import click

from core.browse.shelf import Shelf
from core.contract.store import Store
from core.plans.review_rules import Decided, rejected_notes
from core.plans.session import ReviewSession
from core.reflection.select_phase import MAX_LIMIT
from core.safeio.inert_text import one_line

from .. import render
from ..foretold import foretold
from ..progress_line import stderr_progress
from ..runlogging import current_run, logs_run
from .group import Context, take_options
from .options import apply_option, json_option, kind_options
from .output import echo_lines, known_nugget, print_json, reports_errors, show, tell
from .records import applied, record_plan


def _rules_json(by_rule: dict[int, Decided]) -> list[dict[str, Any]]:
    return [
        {"change": op_id, "action": d.action, "rule": d.rule}
        for op_id, d in sorted(by_rule.items())
    ]


@click.command()
@click.option("--nugget", help="Only this nugget (default: all).")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help=f"Notes to inspect (at most {MAX_LIMIT}; --all for the whole graph).",
)
@click.option("--all", "uncapped", is_flag=True, help="Lift the 10-note cap: the whole graph.")
@apply_option("Apply the pass and journal it.")
@click.option(
    "--also",
    "also",
    multiple=True,
    metavar="NOTE_ID",
    help="With --apply: also apply this note's changes marked 'left out unless kept' "
    "(with --microclaw: rescue an expired row from the bot's deletion).",
)
@json_option("Print only the ReflectionResult as JSON.")
@kind_options("reflect")
@click.pass_obj
@reports_errors
@logs_run("reflect")
def reflect(
    obj: Context,
    nugget: str | None,
    limit: int | None,
    uncapped: bool,
    do_apply: bool,
    also: tuple[str, ...],
    as_json: bool,
    **kind_options: Any,
) -> None:
    """Show what the reflection pass would change (a dry run), or --apply it."""
    take_options(obj, kind_options)
    if limit is not None and uncapped:
        raise click.UsageError("--limit and --all cannot be used together")
    if also and not do_apply:
        raise click.UsageError("--also takes effect only with --apply")
    if limit is not None and limit > MAX_LIMIT:
        raise click.BadParameter(
            f"the pass inspects at most {MAX_LIMIT} notes, not {limit}; "
            "use --all to inspect the whole graph",
            param_hint="'--limit'",
        )
    current_run().dry = not do_apply
    memory = obj.memory(needs_graph=True)
    shelf = Shelf(memory.read()) if nugget is not None else None
    if shelf is not None:
        known_nugget(shelf, nugget)
    if memory.profile.capabilities.costly_plans:  # said before the pass runs
        click.echo(f"nuggets: {one_line(memory.profile.plan_cost)}", err=True)
    choose = ReviewSession(memory).unattended(also)  # rules and decisions (docs/REVIEW.md)
    if do_apply:
        plan, entry = memory.reflect(nugget, limit, uncapped, also, choose=choose)
        record_plan(applied(plan, entry), entry)
    else:
        with stderr_progress("nuggets: planning…") as told:
            plan = memory.plan(
                nugget, limit, uncapped, graph=shelf.graph if shelf else None, progress=told
            )
        choose(plan)
        entry = None
    tell(memory)  # what the read and the plan skipped or read from elsewhere
    if as_json:
        result = plan.result.to_json_dict()
        print_json({**result, "rules": _rules_json(choose.by_rule)} if choose.by_rule else result)
        return
    echo_lines(render.plan_text(plan, memory.profile, applied=do_apply, decided=choose.said))
    rejected = rejected_notes(plan, choose.said)
    tell(memory, foretold(memory, lambda foresight: foresight.standing_outlook(rejected)))
    if do_apply:
        click.echo("")
        show(
            f"Applied as run {entry.run_id} (undo: nuggets undo {entry.run_id})"
            if entry
            else _nothingapplied(memory)
        )


def _nothingapplied(memory: Store) -> str:
    """What an apply that wrote no run of ours says: the system ran its own program, or there
    was nothing to apply."""
    if memory.profile.capabilities.runs_itself:
        return memory.profile.applied_elsewhere
    return "Nothing to apply."
