"""`nuggets daily`: the scheduled pass for cron. Once a day after the configured time it runs
the pass with the review rules and decisions deciding, then promotes (or, with --hold, leaves
what no rule keeps and every promotion entry waiting for a person)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import time

import click

from core.clock import parse_iso, shown_time
from core.contract.absent import refused_promotion
from core.contract.store import Store
from core.journal.history import in_effect
from core.models import JournalEntry, PromotionPlan
from core.plans.session import ReviewSession
from core.promotion.candidates import entries_to_write, shown_as_one

from .. import render
from ..runlogging import current_run, logs_run
from ..words import counted, shown_path
from .group import Context
from .output import reports_errors, show, tell
from .records import applied, record_plan, record_promotion


@click.command()
@click.option(
    "--hold",
    is_flag=True,
    help="Apply only the changes review rules (or your decisions) keep; the rest, "
    "and every promotion entry, wait for review in the console.",
)
@click.pass_obj
@reports_errors
@logs_run("daily")
def daily(obj: Context, hold: bool) -> None:
    """The scheduled pass for cron: once a day after $MEMORY_REFLECTION_HOUR:MINUTE.

    Review rules and your decisions in the console decide its changes (docs/REVIEW.md)."""
    due = time(obj.settings.daily_hour, obj.settings.daily_minute)
    memory = obj.memory(graph_warnings=False)  # read below only when the pass runs
    local = memory.clock().astimezone()

    def say(message: str) -> None:
        if obj.verbose:
            show(message)

    if memory.profile.capabilities.own_schedule:
        _daily_health(memory, say)
        return
    memory.journal.may_write()  # a home nothing may be written to: said even on a quiet day
    if local.time() < due:
        say(f"Not yet: the daily pass runs after {due:%H:%M} local time.")
        current_run().skipped(f"not yet: the daily pass runs after {due:%H:%M} local time")
        return
    with memory.journal.lock():  # two crons at once: the second sees the first's run
        entries = memory.journal.log()
        tell(memory)
        for header in entries:
            moment = parse_iso(header.at)
            if (
                header.kind == "reflect"
                and moment
                and moment.astimezone().date() == local.date()
                and in_effect(entries, header.run_id)
            ):  # an undone run did not run
                # the pass applied today by daily, reflect --apply or the console alike
                said = f"the pass was applied today already (run {header.run_id})"
                say(f"Not again: {said}; daily applies it at most once a day.")
                current_run().skipped(said)
                return
        tell(memory, memory.open().messages)
        session = ReviewSession(memory)
        choose = session.unattended(hold=hold)
        plan, entry = memory.reflect(choose=choose)
        wrote = applied(plan, entry)
        record_plan(wrote, entry)
        _leave_waiting(session.leave_waiting(choose), choose.waiting, obj.command())
        say(
            f"Reflection: {render.result_summary(wrote, memory.profile.change_kinds)}"
            + _reflection_outcome(entry, len(choose.waiting))
        )
        promotion, added, waiting = _daily_promotion(memory, hold, obj)
    where = shown_path(promotion.path)
    for line in [*promotion.refused, *promotion.notices]:
        say(line)
    if not promotion.directory_exists:
        say(f"Promotion skipped: no directory for {where}")
    elif hold and (waiting or not promotion.refused):  # a store that never promotes: as ever
        say(
            f"Promotion held (--hold): {counted(waiting, 'entry', 'entries')} to {where} "
            "wait for review"
        )
    else:
        say(f"Promotion: {counted(added, 'new entry', 'new entries')} to {where}")
    if promotion.blocked:
        queued = " (and `nuggets conflicts`)" if any(b.queued for b in promotion.blocked) else ""
        say(
            f"Promotion held back {counted(len(promotion.blocked), 'entry', 'entries')}; "
            f"see `{obj.command('promote')}`{queued}."
        )


def _reflection_outcome(entry: JournalEntry | None, waiting: int) -> str:
    """What the daily run wrote of its plan, and what it left waiting, for its -v line."""
    waits = f"{counted(waiting, 'change')} wait for review" if waiting else ""
    if entry is None:
        return f" (nothing written; {waits})" if waits else " (nothing to change)"
    return f" (run {entry.run_id}; {waits})" if waits else f" (run {entry.run_id})"


def _daily_promotion(memory: Store, hold: bool, obj: Context) -> tuple[PromotionPlan, int, int]:
    """Promotion in the daily run: the plan shown, the entries added, and how many wait.

    No review rule can keep a promotion entry, so under --hold nothing is promoted: the
    entries a write would add or update wait for `nuggets promote` (or `p` in the console),
    and how many is said, with or without -v, as the changes waiting are."""
    promoter = memory.promoter
    if promoter is None:
        refused = refused_promotion(memory)
        record_promotion(refused, 0, [], daily=True)
        return refused, 0, 0
    if not hold:
        promotion, added = promoter.promote_now()
        record_promotion(promotion, added, promoter.promotion_runs, daily=True)
        return promotion, added, 0
    plans = promoter.plan_promotions()
    promotion = plans[0] if len(plans) == 1 else shown_as_one(plans, memory.home, 0)
    record_promotion(promotion, 0, [], daily=True)
    waiting = sum(entries_to_write(p) for p in plans)
    current_run().add_counts({"promotion_waiting": waiting})
    if waiting:  # the operator's to learn, even from cron
        show(
            f"nuggets: {counted(waiting, 'promotion entry', 'promotion entries')} wait: "
            f"review with `{obj.command('promote')}` (console: p).",
            err=True,
        )
    return promotion, 0, waiting


def _daily_health(memory: Store, say: Callable[[str], None]) -> None:
    """Daily for a system maintained by its own schedule: its health said and logged, no pass
    run, nothing promoted (docs/STORES.md)."""
    run = current_run()
    run.warnings += memory.open().messages  # said on opening already: read again, for the log
    run.summary = memory.profile.maintained_elsewhere
    say(memory.profile.maintained_elsewhere)


def _leave_waiting(since: str | None, waiting: list[str], console: str) -> None:
    """Say how many changes the run left for a person (the session remembered them since
    `since`; None: nothing waits, nothing waited), with or without -v (README, "The daily pass
    from cron")."""
    if since is None:
        return
    current_run().add_counts({"waiting_for_review": len(waiting)})
    if waiting:  # the operator's to learn, even from cron: on stderr, as tell's
        show(
            f"nuggets: {counted(len(waiting), 'change')} waiting for review since "
            f"{shown_time(since)} (open the console: {console}).",
            err=True,
        )
