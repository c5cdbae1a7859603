"""Commands for contradictions and verdicts (docs/VERDICTS.md): `conflicts`, `resolve`, `verdicts`,
`act`. Decisions and actions are plans: a dry run by default, `--apply` to write them."""

from __future__ import annotations

from pathlib import Path

import click

from core.clock import to_iso
from core.contract.absent import refused, refused_promotion
from core.contract.profile import Profile
from core.contract.store import Store
from core.errors import NuggetsError
from core.models import Plan, RawNote
from core.notes import fields
from core.notes.bounded_text import bounded
from core.notes.snapshot import Graph
from core.review.contradictions import Group, find_group, outdated_refusal
from core.review.decisions import require_plans
from core.review.service import ReviewService, model_scorer
from core.review.verdicts import VERDICTS, Judgement, act_operations
from core.safeio.inert_text import one_line

from .. import render
from ..foretold import archived_by, foretold
from ..progress_line import stderr_progress
from ..runlogging import current_run, logs_run
from ..words import counted, every, shown_path
from .group import Context
from .options import apply_option, json_option, memory_md_option
from .output import echo_lines, print_json, reports_errors, show, tell

SCORER = click.option(
    "--scorer",
    metavar="URL",
    help="An OpenAI-compatible chat-completions endpoint to score with (its "
    "key from $NUGGETS_SCORER_KEY); default: the built-in scorer.",
)
MODEL = click.option(
    "--model", default="local", show_default=True, help="The model name sent to --scorer."
)


RELATED_NAMED = 5  # of a group's related notes, named on its last line


def _groups(
    obj: Context,
    memory: Store,
    graph: Graph,
    include_settled: bool = False,
    scorer: str | None = None,
    model: str = "local",
) -> list[Group]:
    """The groups; with `scorer`, the model also judges the pairs the rule finds no minimal
    pair in (what fell back said in one line)."""
    settings = obj.settings
    judge = model_scorer(scorer, model, settings.scorer_secret, settings.scorer_deadline)
    found = ReviewService(memory).contradictions(graph, include_settled, judge)
    if include_settled:
        tell(memory, found.notices)  # what the model left to the rule, if asked
        return found.groups
    tell(memory, [*memory.take_notices(), *found.notices])  # unreadable: said, none settled
    return found.groups


def _note_line(note: RawNote) -> str:
    note = bounded(note)  # a line of it: its first 64 KB tell (core/notes/bounded_text.py)
    first = fields.text(note, "content").strip().split("\n", 1)[0]
    first = first if len(first) <= 100 else first[:99] + "…"
    confidence = note.get("confidence", "-")
    mark = f"  [{one_line(note['mark'])}]" if note.get("mark") else ""  # the operator's
    return (
        f"    {one_line(note['id'])}{mark}  {fields.updated_at(note)[:10]}  hits "
        f"{fields.hits(note)}  {one_line(fields.meta(note, 'source'))} {confidence}  "
        f"{one_line(first)}"
    )


def _echo_group(graph: Graph, group: Group, detail: str) -> None:
    """A group's line (`detail` in brackets after its topic), then a line per note."""
    show(f"{group.id}  [{one_line(group.nugget)}] {one_line(group.topic)}  ({detail})")
    for note_id in group.note_ids:
        show(_note_line(graph.notes[graph.index[note_id]]))
    if group.related:  # the topic's notes that state other things without disagreeing
        named = ", ".join(one_line(i) for i in group.related[:RELATED_NAMED])
        more = len(group.related) - RELATED_NAMED
        show(
            f"    related, not contradicting: {counted(len(group.related), 'note')} ({named}"
            + (f", {more:,} more)" if more > 0 else ")")
        )


@click.command()
@json_option("Print the groups and their notes as JSON.")
@click.option(
    "--all", "include_settled", is_flag=True, help="Include groups already let stand (both stand)."
)
@SCORER
@MODEL
@click.pass_obj
@reports_errors
def conflicts(
    obj: Context, as_json: bool, include_settled: bool, scorer: str | None, model: str
) -> None:
    """List contradicting notes: one topic, one value said otherwise (decide with `nuggets
    resolve`); --scorer lets a model judge the pairs the rule cannot."""
    memory = obj.memory(needs_graph=True)
    graph = memory.read()
    groups = _groups(obj, memory, graph, include_settled, scorer, model)
    if as_json:
        print_json(
            [g.to_json_dict() | {"notes": [graph.get(i) for i in g.note_ids]} for g in groups]
        )
        return
    contradictions = [g for g in groups if not g.duplicate and not g.outdated]
    duplicates = [g for g in groups if g.duplicate and not g.outdated]
    outdated = [g for g in groups if g.outdated]
    for group in contradictions:
        _echo_group(
            graph,
            group,
            f"{counted(len(group.note_ids), 'note')}, "
            f"{len(group.positions)} positions, {group.kind}",
        )
    if duplicates:
        show(
            ("\n" if contradictions else "") + "Duplicate sets (each states one thing more "
            "than once; merge with --keep NOTE_ID --merge):"
        )
    for group in duplicates:
        _echo_group(graph, group, f"{counted(len(group.note_ids), 'note')}, the same, {group.kind}")
    if outdated:
        show(
            ("\n" if contradictions or duplicates else "") + "Outdated (one side superseded "
            "or retired since; nothing to decide):"
        )
    for group in outdated:
        _echo_group(graph, group, one_line(group.outdated))
    click.echo(
        f"{counted(len(contradictions), 'contradiction group')}"
        + (f", {counted(len(duplicates), 'duplicate set')}" if duplicates else "")
        + (f", {len(outdated):,} outdated" if outdated else "")
        + (
            "; decide one with: nuggets resolve GROUP --keep NOTE_ID"
            if len(groups) > len(outdated)
            else ""
        ),
        err=True,
    )


@click.command()
@click.argument("group_id", metavar="GROUP")
@click.option(
    "--keep",
    "keep",
    metavar="NOTE_ID",
    help="The note that stands; the others are archived with a link to it.",
)
@click.option(
    "--merge",
    "merge",
    is_flag=True,
    help="With --keep: merge the others into it instead (the reflection merge).",
)
@click.option(
    "--both",
    "both",
    is_flag=True,
    help="Let every note stand; not asked again until one of them changes.",
)
@apply_option("Write the decision and journal it.")
@SCORER
@MODEL
@click.pass_obj
@reports_errors
@logs_run("resolve")
def resolve(
    obj: Context,
    group_id: str,
    keep: str | None,
    merge: bool,
    both: bool,
    do_apply: bool,
    scorer: str | None,
    model: str,
) -> None:
    """Decide one contradiction group (a dry run unless --apply)."""
    if both == (keep is not None):
        raise click.UsageError("give either --keep NOTE_ID (with --merge to merge) or --both")
    if merge and both:
        raise click.UsageError("--merge needs --keep NOTE_ID, not --both")
    run = current_run()
    run.dry = not do_apply
    memory = obj.memory(needs_graph=True)
    graph = memory.read()
    group = find_group(_groups(obj, memory, graph, True, scorer, model), group_id)
    if group.outdated:
        raise NuggetsError(outdated_refusal(group))
    if both:
        _both_stand(memory, graph, group, do_apply)
        return
    assert keep is not None  # not --both: --keep was given (checked above)
    plan = ReviewService(memory).plan_decision(
        group, keep, "merge" if merge else "keep", graph=graph
    )
    how = f"merge into {keep}" if merge else f"{keep} stands"
    _show_plan(plan, memory.profile, f"Decision on {group.id}: {how}", do_apply)
    archived = archived_by(plan)
    told = foretold(memory, lambda foresight: foresight.archive_outlook(archived))
    if do_apply:
        _apply(memory, plan)
    tell(memory, told)  # what the agent will do to them (Nuggets: a running agent)


def _both_stand(memory: Store, graph: Graph, group: Group, do_apply: bool) -> None:
    tell(memory, foretold(memory, lambda foresight: foresight.standing_outlook(group.note_ids)))
    if not do_apply:
        show(f"Decision on {group.id}: {every(len(group.note_ids), 'note')} stand (dry run)")
        show(
            "  nothing is written to the notes; the group is not asked again until one of "
            "them changes. Run with --apply to remember it."
        )
        return
    entry = ReviewService(memory).both_stand(group, {n["id"]: n for n in graph.notes})
    run = current_run()
    run.counts["settled"] = int(entry is not None)
    run.summary = f"both stand: {group.id}"
    if entry is None:
        show(f"{group.id} was already let stand; nothing written.")
        return
    run.run_id, run.undoes = entry.run_id, [entry.run_id]
    show(
        f"Remembered: the notes of {group.id} all stand (run {entry.run_id}; undo: "
        f"nuggets undo {entry.run_id})"
    )


def _show_plan(plan: Plan, words: Profile, header: str, do_apply: bool) -> None:
    lines = list(render.plan_text(plan, words, applied=do_apply))
    lines[0] = f"{header} ({'applied' if do_apply else 'dry run'})"
    echo_lines(lines)
    if not do_apply:
        show("\nDry run: nothing written. Run again with --apply to write it.")


def _apply(memory: Store, plan: Plan) -> None:
    entry = memory.apply(plan)
    run = current_run()
    run.add_counts({"archived": plan.result.hidden, "merged": plan.result.merged})
    run.summary = render.result_summary(plan.result)
    if entry is None:
        show("\nNothing to apply.")
        return
    run.run_id, run.undoes = entry.run_id, [entry.run_id]
    show(f"\nApplied as run {entry.run_id} (undo: nuggets undo {entry.run_id})")


def _score(obj: Context, memory: Store, graph: Graph, scorer: str | None, model: str) -> Judgement:
    settings = obj.settings
    with stderr_progress("nuggets: scoring the verdicts…") as told:
        scorer_at = model_scorer(scorer, model, settings.scorer_secret, settings.scorer_deadline)
        judgement = ReviewService(memory).verdicts(graph.notes, scorer_at, progress=told)
    tell(memory, judgement.notices)  # a settled file unreadable first
    if scorer:
        click.echo(f"nuggets: token usage: {one_line(judgement.usage)}", err=True)
    return judgement


@click.command()
@json_option("Print every verdict with its scores.")
@click.option("--verdict", "only", type=click.Choice(VERDICTS), help="Only this verdict.")
@SCORER
@MODEL
@click.pass_obj
@reports_errors
def verdicts(obj: Context, as_json: bool, only: str | None, scorer: str | None, model: str) -> None:
    """Score every visible note and give its verdict (advice: nothing is written)."""
    memory = obj.memory(needs_graph=True)
    graph = memory.read()
    found = [
        v
        for v in _score(obj, memory, graph, scorer, model).verdicts
        if only is None or v.verdict == only
    ]
    if as_json:
        print_json([v.to_json_dict() for v in found])
        return
    for v in found:
        note = graph.notes[graph.index[v.note_id]]
        show(
            f"{v.verdict:<8} {v.strength:5.2f}  {one_line(v.note_id)}  "
            f"{one_line(fields.text(note, 'title'))}  - {one_line(v.why)}"
        )
    click.echo(counted(len(found), "verdict"), err=True)


@click.command()
@click.argument("verdict", type=click.Choice(["reject", "promote"]))
@memory_md_option("promote: MEMORY.md to write (default as `nuggets promote`).")
@apply_option("Write it and journal it.")
@SCORER
@MODEL
@click.pass_obj
@reports_errors
@logs_run("act")
def act(
    obj: Context,
    verdict: str,
    memory_md: Path | None,
    do_apply: bool,
    scorer: str | None,
    model: str,
) -> None:
    """Act on verdicts as a plan: archive every reject, or promote every promote."""
    current_run().dry = not do_apply
    memory = obj.memory(memory_md, needs_graph=True)
    graph = memory.read()
    chosen = [v for v in _score(obj, memory, graph, scorer, model).verdicts if v.verdict == verdict]
    if verdict == "reject":
        nugget_of = {v.note_id: fields.nugget(graph.notes[graph.index[v.note_id]]) for v in chosen}
        operations, result = act_operations(chosen, "reject", to_iso(memory.clock()), nugget_of)
        plan = require_plans(memory).plan_operations(operations, result, graph=graph)
        _show_plan(
            plan, memory.profile, f"Archive every reject ({counted(len(chosen), 'note')})", do_apply
        )
        if do_apply:
            _apply(memory, plan)
        return
    ids = {v.note_id for v in chosen}
    promoted = Graph(
        graph.path, graph.with_notes([n for n in graph.notes if n["id"] in ids]), graph.fingerprint
    )
    promoter = memory.promoter
    promotion = (
        promoter.plan_promotion(threshold=0, graph=promoted)
        if promoter
        else refused_promotion(memory)
    )
    echo_lines(render.promotion_text(promotion, memory.profile, "with a promote verdict"))
    if not do_apply:
        show("\nDry run: nothing written. Run again with --apply to write it.")
        return
    if promoter is None:
        raise refused(memory, "promote")
    added = promoter.promote(promotion)
    run = current_run()
    run.add_counts({"promoted_added": added, "promoted_updated": promotion.updated})
    run.summary = f"promoted every promote verdict: {added} added, {promotion.updated} updated"
    if promoter.promotion_run is not None:
        run.run_id = promoter.promotion_run.run_id
        run.undoes = [run.run_id]
        show(
            f"\nWritten to {shown_path(promotion.path)} as run {run.run_id} "
            f"(undo: nuggets undo {run.run_id})"
        )
    else:
        show("\nNothing to write.")
