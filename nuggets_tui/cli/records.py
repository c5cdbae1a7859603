"""What a writing command did, for its run in the run log (nuggets_tui/runlogging.py): the
counts, the summary, the run to undo."""

from __future__ import annotations

from core.models import JournalEntry, Plan, PromotionPlan, ReflectionResult
from core.plans.kept import result_of

from .. import render
from ..runlogging import current_run


def applied(plan: Plan, entry: JournalEntry | None) -> ReflectionResult:
    """What a run wrote of its plan: the changes it applied, not those left out or waiting."""
    if entry is None:
        return result_of(plan.result, set())
    return entry.result if entry.result is not None else plan.result


def record_plan(result: ReflectionResult, entry: JournalEntry | None) -> None:
    """What an applied plan did, for the run log (`result`: what it wrote, see `applied`)."""
    run = current_run()
    run.add_counts(
        {
            name: getattr(result, name)
            for name in ("inspected", "rewritten", "merged", "hidden", "tagged", "linked")
        }
    )
    run.summary = render.result_summary(result)
    if entry is not None:
        run.run_id = run.run_id or entry.run_id
        run.undoes = [entry.run_id]


def record_entry(entry: JournalEntry | None, counted_as: str) -> None:
    run = current_run()
    run.counts[counted_as] = len(entry.after) if entry else 0
    if entry is not None:
        run.run_id, run.summary = entry.run_id, entry.summary
        run.undoes = [entry.run_id]
    else:
        run.summary = "nothing to write"


def record_promotion(
    plan: PromotionPlan, added: int, entries: list[JournalEntry], daily: bool = False
) -> None:
    """`entries`: the runs it wrote (one per file; MicroClaw may write several AGENTS.md)."""
    run = current_run()
    run.add_counts(
        {
            "promoted_added": added,
            "promoted_updated": plan.updated,
            "promotion_blocked": len(plan.blocked),
        }
    )
    run.warnings += [f"held back {b.note_id}: {b.reason}" for b in plan.blocked]
    run.warnings += [*plan.refused, *plan.notices]
    if not plan.directory_exists:
        run.warnings.append(f"promotion skipped: no directory for {plan.path}")
    for number, entry in enumerate(entries):
        run.run_id = run.run_id or entry.run_id
        run.undoes = [*run.undoes, entry.run_id] if daily or number else [entry.run_id]
    if not daily:
        run.summary = f"promotion: {added} added, {plan.updated} updated"
