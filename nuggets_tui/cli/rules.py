"""`nuggets rules`: the review rules kept for a memory (docs/REVIEW.md) — list them, add one,
remove one. Adding and removing are journaled runs (`nuggets undo` takes them back)."""

from __future__ import annotations

import click

from core.contract.store import Store
from core.errors import NuggetsError
from core.plans.review_rules import (
    ACTIONS,
    KINDS,
    add_rule,
    parse_rule,
    remove_rule,
    store_rules,
)
from core.safeio.inert_text import one_line

from ..runlogging import current_run, logs_run
from .group import Context
from .options import json_option
from .output import print_json, reports_errors, show


def require_rules(memory: Store) -> None:
    if not memory.profile.capabilities.rules:
        raise NuggetsError(
            f"{memory.profile.system} memories are read-only here: no review rules to save"
        )


@click.group(invoke_without_command=True)
@json_option("Print the rules as JSON.")
@click.pass_context
@reports_errors
def rules(ctx: click.Context, as_json: bool) -> None:
    """Review rules: list them (add and remove below); each new plan applies them."""
    if ctx.invoked_subcommand is not None:
        return
    memory = ctx.obj.memory(graph_warnings=False)
    found = store_rules(memory)
    if as_json:
        print_json([{"name": r.name, "action": r.action, **r.conditions()} for r in found])
        return
    for rule in found:
        show(f"{one_line(rule.name)}: {one_line(rule.describe())}")
    if not found:
        click.echo("No review rules yet (nuggets rules add NAME ACTION ...).", err=True)


@rules.command("add")
@click.argument("name")
@click.argument("action", type=click.Choice(ACTIONS))
@click.option("--kind", type=click.Choice(KINDS), help="Only changes of this kind.")
@click.option("--nugget", help="Only changes in this nugget.")
@click.option("--step", help="Only changes whose reason (the step that made them) contains this.")
@click.option(
    "--text",
    help="Only changes whose note's title or content, reason, nugget or note id contains this.",
)
@click.option("--min-age", "min_age_days", type=int, help="Notes at least this many days old.")
@click.option("--max-age", "max_age_days", type=int, help="Notes at most this many days old.")
@click.option("--min-hits", type=int, help="Notes with at least this many hits.")
@click.option("--max-hits", type=int, help="Notes with at most this many hits.")
@click.pass_obj
@reports_errors
@logs_run("rules")
def add(obj: Context, name: str, action: str, **conditions: str | int | None) -> None:
    """Save a rule (replacing one of the same name): ACTION is keep, reject or review."""
    rule = parse_rule(name, action, **conditions)  # a usage error before the memory is opened
    memory = obj.memory(graph_warnings=False)
    require_rules(memory)
    entry = add_rule(memory, rule)
    _record(entry.run_id, entry.summary)
    show(
        f"Saved rule {one_line(rule.name)}: {one_line(rule.describe())} (run {entry.run_id}; "
        f"undo: nuggets undo {entry.run_id})"
    )


@rules.command("remove")
@click.argument("name")
@click.pass_obj
@reports_errors
@logs_run("rules")
def remove(obj: Context, name: str) -> None:
    """Remove the rule of this name."""
    memory = obj.memory(graph_warnings=False)
    require_rules(memory)
    entry = remove_rule(memory, name)
    _record(entry.run_id, entry.summary)
    show(f"Removed rule {one_line(name)} (run {entry.run_id}; undo: nuggets undo {entry.run_id})")


def _record(run_id: str, summary: str) -> None:
    run = current_run()
    run.run_id, run.summary, run.undoes = run_id, summary, [run_id]
