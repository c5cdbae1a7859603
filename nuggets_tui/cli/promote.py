"""`nuggets promote`: the MEMORY.md diff of promoting durable notes, what is held back and
why, and --apply to write it as a journaled run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from core.contract.absent import refused
from core.contract.parts import Promoter
from core.models import JournalEntry, PromotionPlan
from core.promotion.candidates import parse_allowance, shown_as_one
from core.safeio.inert_text import one_line

from .. import render
from ..runlogging import current_run, logs_run
from ..words import counted, shown_path
from .group import Context
from .options import apply_option, json_option, memory_md_option
from .output import echo_lines, print_json, reports_errors, show
from .records import record_promotion


@click.command()
@memory_md_option(
    "MEMORY.md to write (default $NUGGETS_MEMORY_MD, else Claude's project "
    "memory; with --microclaw: one AGENTS.md, else each scope's)."
)
@click.option(
    "--threshold",
    type=click.IntRange(min=1),
    help="Hits a note needs to be promoted (default 3); with --microclaw, the "
    "confidence in percent a row needs (default 80).",
)
@click.option(
    "--allow",
    "allow",
    multiple=True,
    metavar="NOTE_ID@HASH",
    help="Promote this held-back note while it reads as the dry run showed it "
    "(repeatable; a bare NOTE_ID only previews).",
)
@click.option(
    "--drop",
    "drop",
    multiple=True,
    metavar="NOTE_ID",
    help="Leave this note's entry out (repeatable); what MEMORY.md holds stays.",
)
@click.option(
    "--allow-contact",
    is_flag=True,
    help="Promote e-mail addresses and phone numbers (else held back, unless "
    "$NUGGETS_ALLOW_CONTACT=1); credentials are held back still.",
)
@click.option(
    "--form",
    metavar="FORM",
    help="How the facts are written, of the forms the memory offers: entries (the default: "
    "`- **title**: …` lines under `## section` in MEMORY.md, the Nuggets agent's format) or "
    "topic-files (Claude Code's own: a topic file per fact and an index line in MEMORY.md).",
)
@apply_option("Write MEMORY.md.")
@json_option(
    'Print {"added", "path", "form", "files", "entries", "blocked", "dropped", "lost", "budgets"}.'
)
@click.pass_obj
@reports_errors
@logs_run("promote")
def promote(
    obj: Context,
    memory_md: Path | None,
    threshold: int | None,
    allow: tuple[str, ...],
    drop: tuple[str, ...],
    allow_contact: bool,
    form: str | None,
    do_apply: bool,
    as_json: bool,
) -> None:
    """Show the MEMORY.md diff of promoting durable notes, or --apply it.

    Entries that read like instructions to the agent, or carry a secret (a key, token,
    password, e-mail address or phone number), or whose note stands in an open group of the
    contradiction queue (decide it first: `nuggets conflicts`, `nuggets resolve`), are held
    back and listed as blocked with the reason and a hash of the entry; --allow NOTE_ID@HASH
    promotes one anyway while it reads as reviewed (a note changed since is held back again).
    """
    bare = [token for token in allow if parse_allowance(token)[1] is None]
    if do_apply and bare:
        raise click.UsageError(
            f"--allow {one_line(bare[0])}: writing needs the hash the dry run printed "
            "(--allow NOTE_ID@HASH), so only the text you reviewed is written"
        )
    current_run().dry = not do_apply
    memory = obj.memory(memory_md, needs_graph=True)
    promoter = memory.promoter
    if promoter is None:  # not offered: one line, exit 1, as every refused command
        raise refused(memory, "promote")
    promoter.allow_contact = allow_contact or obj.settings.allow_contact
    if form is not None:
        promoter.promotion_form = _form(promoter, form)
    rule = {} if threshold is None else {"threshold": threshold}
    kept: dict[str, Any] = {"allow": set(allow), "drop": set(drop), **rule}
    plans = _promotion_plans(promoter, memory_md, kept)
    plan = plans[0] if len(plans) == 1 else shown_as_one(plans, memory.home, 0)
    strays = [one_line(i) for i in drop if i not in {e.note_id for e in plan.dropped}]
    if strays:  # before anything is written
        raise click.BadParameter(
            f"{', '.join(strays)}: not a note this promotion would write", param_hint="'--drop'"
        )
    _check_allowances(plan, allow)  # before anything is written
    runs: list[JournalEntry] = []
    if do_apply:
        plan, added = promoter.promote_now(memory_md, **kept)
        plans, runs = [plan], undo_runs(promoter.promotion_runs)
        record_promotion(plan, added, runs)
    else:
        added = sum(p.added for p in plans if p.directory_exists)
    _say_unused_allowances(plan, allow)
    for line in [*plan.refused, *plan.notices]:
        show(f"nuggets: {one_line(line)}", err=True)
    if not do_apply:
        current_run().warnings += [*plan.refused, *plan.notices]
    if as_json:
        entries = [e.to_json_dict() for e in plan.entries]
        blocked = [e.to_json_dict() for e in plan.blocked]
        dropped = [e.to_json_dict() for e in plan.dropped]
        budgets = [b.to_json_dict() for b in plan.budgets]
        print_json(
            {
                "added": added,
                "path": plan.path,
                "form": plan.form,
                "files": [f.path for f in plan.topic_files],
                "entries": entries,
                "blocked": blocked,
                "dropped": dropped,
                "lost": plan.lost,
                "budgets": budgets,
            }
        )
        return
    for number, shown in enumerate(plans):
        if number:
            show("")
        echo_lines(render.promotion_text(shown, memory.profile))
    if do_apply and plan.directory_exists:
        show(f"\nPromoted {counted(added, 'new entry', 'new entries')} to {shown_path(plan.path)}")
        for run in runs:
            show(f"Written as run {run.run_id} (undo: nuggets undo {run.run_id})")


def _form(promoter: Promoter, form: str) -> str:
    """The form asked for, when the memory writes it; a usage error naming those it does."""
    keys = [f.key for f in promoter.promotion_forms]
    if form not in keys:
        raise click.BadParameter(
            f"{one_line(form)}: not a form this memory writes ({', '.join(keys)})",
            param_hint="'--form'",
        )
    return form


def undo_runs(runs: list[JournalEntry]) -> list[JournalEntry]:
    """The runs to name for undo: one per batch (undoing any run of a batch takes back all)."""
    return [run for run in runs if run.batch in (None, run.run_id)]


def _promotion_plans(
    promoter: Promoter, memory_md: Path | None, kept: dict[str, Any]
) -> list[PromotionPlan]:
    """The named file's plan, else every file promotion would edit."""
    if memory_md is not None:
        return [promoter.plan_promotion(memory_md, **kept)]
    return promoter.plan_promotions(**kept)


def _check_allowances(plan: PromotionPlan, allow: tuple[str, ...]) -> None:
    """A usage error naming what is wrong with an `--allow` that names no held-back entry: a
    hash that is not the entry's (a typo, a hash of another note) or a note that is none."""
    held = {b.note_id: b.hash for b in plan.blocked}
    candidates = held.keys() | {e.note_id for e in plan.entries if e.allowed_despite}
    for token in allow:
        if parse_allowance(token)[0] in candidates:
            continue
        note_id = token.rpartition("@")[0]
        if note_id in held:
            why = f"the hash does not match the entry's ({one_line(note_id)}@{held[note_id]})"
        else:
            why = "not a held-back candidate (see the held-back entries of `nuggets promote`)"
        raise click.BadParameter(f"{one_line(token)}: {why}", param_hint="'--allow'")


def _say_unused_allowances(plan: PromotionPlan, allow: tuple[str, ...]) -> None:
    screened = {e.note_id for e in plan.entries if e.allowed_despite}
    held = {b.note_id: b.hash for b in plan.blocked}
    for token in allow:
        note_id = parse_allowance(token)[0]
        if note_id in held:
            show(
                f"nuggets: --allow {one_line(token)}: the note changed since that hash "
                f"was printed; held back again (now {one_line(note_id)}@{held[note_id]})",
                err=True,
            )
        elif note_id not in screened:
            show(f"nuggets: --allow {one_line(token)}: not a held-back candidate", err=True)
