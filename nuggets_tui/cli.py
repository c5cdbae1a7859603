"""The `nuggets` command line. Without a subcommand it opens the review console."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import time
from functools import wraps
from pathlib import Path
from typing import Any

import click

from core.browse.shelf import Shelf
from core.clock import parse_iso
from core.contract.absent import refused, refused_promotion
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.errors import ArgumentError, NuggetsError
from core.journal.history import in_effect
from core.models import JournalEntry, Plan, PromotionPlan, RawNote, ReflectionResult
from core.notes import fields
from core.notes.json_writer import dumps_indented
from core.notes.snapshot import Graph
from core.plans.kept import result_of
from core.plans.review_rules import Decided
from core.plans.session import ReviewSession
from core.promotion.candidates import entries_to_write, parse_allowance, shown_as_one
from core.reflection.select_phase import MAX_LIMIT
from core.safeio.inert_text import inert, inert_json, one_line
from core.settings import DEFAULTS, Configuration, Settings, load
from core.stores.registry import DEFAULT_KIND, STORE_KINDS

from . import render
from .progress_line import stderr_progress
from .runlogging import current_run, logs_run
from .words import counted, shown_path


@dataclass
class Context:
    home: Path
    demo: bool
    verbose: bool
    explicit: bool = False  # the operator named the directory (an option or a setting)
    telemetry_dir: Path | None = None  # --telemetry-dir: where the run log goes (docs/RUNS.md)
    kind: StoreKind = DEFAULT_KIND  # the memory system at home
    options: dict[str, Any] = field(default_factory=dict)  # its own options' values
    told: list[str] = field(default_factory=list)  # for the console to say when it opens
    configuration: Configuration | None = None  # read once by `main` (core/settings.py)

    @property
    def settings(self) -> Settings:
        return DEFAULTS if self.configuration is None else self.configuration.settings

    def memory(self, memory_md: Path | None = None, must_exist: bool = True,
               announce: bool = True, needs_graph: bool = False,
               graph_warnings: bool = True) -> Store:
        """The memory at home; `announce` prints what opening it settled and, with
        `graph_warnings`, what the graph file's read tolerated (that reads the whole file: a
        command that may not need it says so later). The console shows those itself.
        `needs_graph`: a home without its notes' file is an error, not an empty memory."""
        if must_exist and not self.home.is_dir():
            raise NuggetsError(self.kind.missing_home(shown_path(self.home)))
        if memory_md is None and self.demo:
            memory_md = self.kind.demo_memory_md(self.home)
        memory = self.kind.open(self.home, self.settings.clock, memory_md, self.settings)
        for option in self.kind.options:
            option.configure(memory, self.options.get(option.name))
        choice = None if self.demo or self.explicit else self.kind.home_notice(self.home)
        if choice and announce:
            click.echo(f"nuggets: {one_line(choice)}", err=True)
        elif choice:
            self.told.append(choice)  # the console shows it when it opens
        if announce and self.home.is_dir():
            _tell(memory, memory.open(read=graph_warnings).messages)
        graph = memory.graph_path
        if needs_graph and not graph.exists() and not graph.is_symlink():
            raise NuggetsError(self.kind.missing_source(shown_path(self.home), shown_path(graph)))
        return memory


# What each open store has said: a file read twice by one command (the purifier's memory-log,
# read to open the store and again to list its runs) is said once.
_SAID: weakref.WeakKeyDictionary[Store, set[str]] = weakref.WeakKeyDictionary()


def _tell(memory: Store, messages: Iterable[str] = ()) -> None:
    """What opening or reading the memory settled, tolerated or skipped, on standard error,
    each line once."""
    said = _SAID.setdefault(memory, set())
    for message in dict.fromkeys([*messages, *memory.take_notices()]):
        if message not in said:
            said.add(message)
            click.echo(f"nuggets: {one_line(message)}", err=True)


def _echo(text: str, err: bool = False) -> None:
    """Every line for a person goes out inert, whatever built it (render.py already did)."""
    click.echo(inert(text), err=err)


def _known_nugget(shelf: Shelf, nugget: str | None) -> None:
    """--nugget names one of the memory's nuggets: a usage error, listing them, otherwise."""
    names = [summary.name for summary in shelf.nuggets()]
    if nugget is not None and nugget not in names:
        known = ", ".join(one_line(name) for name in names) or "none"
        raise click.BadParameter(f"no nugget {one_line(nugget)!r} in this memory "
                                 f"(known: {known})", param_hint="'--nugget'")


def _echo_lines(lines: Iterable[str]) -> None:
    for line in lines:
        _echo(line)


def _print_json(value: Any) -> None:
    """JSON with every character `inert` would replace written as its \\u escape: the same
    data for a program, nothing a terminal would act on for a person. Numbers are written as
    the graph file spells them."""
    click.echo(inert_json(dumps_indented(value)))


def _rules_json(by_rule: dict[int, Decided]) -> list[dict[str, Any]]:
    return [{"change": op_id, "action": d.action, "rule": d.rule}
            for op_id, d in sorted(by_rule.items())]


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Errors a user can act on: one line on stderr, exit 1, no traceback."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            _quiet_stdout()  # `nuggets notes | head`: the reader had enough; not an error
            sys.exit(0)
        except (NuggetsError, ValueError) as exc:
            click.echo(f"nuggets: {one_line(str(exc))}", err=True)
            sys.exit(2 if isinstance(exc, ArgumentError) else 1)
        except OSError as exc:  # a last resort: the engine turns the ones it expects into errors
            where = f": {exc.filename}" if exc.filename else ""
            _echo(one_line(f"nuggets: {exc.strerror or exc}{where}"), err=True)
            sys.exit(1)

    return wrapper


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit does not fail once more."""
    # No real file behind stdout (a test runner's): nothing will be flushed to a pipe.
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _materialized_demo(kind: StoreKind, settings: Settings, reset: bool = False) -> Path:
    return kind.materialize_demo(settings.clock, reset, settings)


def _store_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Each memory system's options: its directory and its demo (`--home`, `--demo`,
    `--microclaw DIR`, `--demo-microclaw`, ...), in the registry's order."""
    for kind in reversed(STORE_KINDS):
        command = click.option(kind.demo_option, f"demo_{kind.name}", is_flag=True,
                               help=kind.demo_help)(command)
        # An optional DIR: given bare, the option's value is "" (its default place).
        optional: dict[str, Any] = ({"is_flag": False, "flag_value": ""} if kind.home_optional
                                    else {})
        command = click.option(kind.home_option, f"home_{kind.name}",
                               metavar=(None if kind is DEFAULT_KIND
                                        else "[DIR]" if kind.home_optional else "DIR"),
                               type=click.Path(file_okay=False),
                               help=kind.home_help, **optional)(command)
    return command


def _kind_options(command_name: str | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options only one memory system has (`--purifier-scripts DIR`), of the command line
    as a whole (None) or of one command."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for kind in reversed(STORE_KINDS):
            for option in reversed(kind.options):
                if option.command != command_name:
                    continue
                kind_type = None if option.is_flag else click.Path(path_type=Path)
                command = click.option(option.flag, option.name, is_flag=option.is_flag,
                                       type=kind_type,
                                       metavar=None if option.is_flag else option.metavar,
                                       help=option.help)(command)
        return command

    return decorate


def _take_options(context: Context, given: dict[str, Any]) -> None:
    """Keep the values of the open system's own options; another system's: a usage error."""
    own = {option.name for option in context.kind.options}
    for kind in STORE_KINDS:
        for option in kind.options:
            value = given.get(option.name)
            if value is None or value is False:
                continue
            if option.name not in own:
                raise click.UsageError(f"{option.flag} goes with {kind.home_option} or "
                                       f"{kind.demo_option}")
            context.options[option.name] = value
def bare_home_options(args: list[str], commands: Iterable[str]) -> list[str]:
    """The arguments with an optional DIR left out before a command (`--purifier notes`)
    given as such (`--purifier=`): a command's name is never taken for the directory."""
    optional = {kind.home_option for kind in STORE_KINDS if kind.home_optional}
    names = set(commands)
    return [f"{arg}=" if arg in optional and i + 1 < len(args) and args[i + 1] in names
            else arg for i, arg in enumerate(args)]


class _Main(click.Group):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, bare_home_options(args, self.commands))


def _chosen(options: dict[str, Any]) -> tuple[StoreKind, Path | None, bool]:
    """The memory system the options name, its directory (None: its default place) and
    whether it is the demo; a usage error when more than one is named."""
    named = [(kind, demo) for kind in STORE_KINDS for demo in (False, True)
             if (options[f"demo_{kind.name}"] if demo
                 else options[f"home_{kind.name}"] is not None)]
    if len(named) > 1:
        flags = [kind.demo_option if demo else kind.home_option for kind, demo in named]
        raise click.UsageError(f"{' and '.join(sorted(flags, key=_flag_order))} cannot be used "
                               "together")
    kind, demo = named[0] if named else (DEFAULT_KIND, False)
    home = options[f"home_{kind.name}"]
    return kind, None if demo or not home else Path(home), demo


def _flag_order(flag: str) -> int:
    order = [f for kind in STORE_KINDS for f in (kind.demo_option, kind.home_option)]
    return order.index(flag)


@click.group(cls=_Main, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@_store_options
@_kind_options(None)
@click.option("-v", "--verbose", is_flag=True, help="Say more (the daily pass is silent without).")
@click.option("--telemetry-dir", type=click.Path(path_type=Path, file_okay=False),
              help="Where writing commands log their runs (default <home>/telemetry).")
@click.version_option(package_name="nuggets-review")
@click.pass_context
@reports_errors
def main(ctx: click.Context, verbose: bool, telemetry_dir: Path | None,
         **options: Any) -> None:
    """Review and tidy an AI agent's long-term memory (each system's options below).

    Without a command, opens the review console.
    """
    configuration = load(os.environ)  # the one read of the settings: every command's
    settings = configuration.settings
    kind, named, demo = _chosen(options)
    chosen = _materialized_demo(kind, settings) if demo else kind.resolve(named, settings)
    explicit = named is not None or (not demo and kind.named_elsewhere(settings))
    ctx.obj = Context(home=chosen, demo=demo, verbose=verbose, explicit=explicit, kind=kind,
                      configuration=configuration)
    ctx.obj.telemetry_dir = telemetry_dir
    _take_options(ctx.obj, options)
    if ctx.invoked_subcommand is None:
        _open_console(ctx.obj, explicit=ctx.obj.explicit)


def _open_console(context: Context, explicit: bool) -> None:
    from .app import run_console
    from .keys import checked_keymap

    missing = not context.home.is_dir()
    if missing and explicit:
        context.memory()  # raises the "no memory at" error
    kind, configuration = context.kind, context.configuration

    def open_demo() -> Store:
        home = _materialized_demo(kind, context.settings)
        return Context(home, True, context.verbose, kind=kind, options=context.options,
                       configuration=configuration).memory(announce=False)

    keymap = checked_keymap(configuration.file) if configuration else {}  # before it opens
    memory = context.memory(must_exist=False, announce=False)
    status = run_console(memory, demo_offer=missing, told=context.told, open_demo=open_demo,
                         keymap=keymap)
    if status:
        sys.exit(status)  # a console that died says so to whoever ran it


def console_main() -> None:
    """`nuggets-tui`: the console, with the same options as `nuggets`."""
    main.main(args=[a for a in sys.argv[1:] if a != "console"], prog_name="nuggets-tui")


@main.command()
@click.option("--nugget", help="Only this nugget.")
@click.option("--hidden", is_flag=True, help="Include archived notes.")
@click.option("--query", "-q", help="Only notes whose title, content or tags contain this text.")
@click.option("--json", "as_json", is_flag=True, help="Print the notes as stored, as JSON.")
@click.pass_obj
@reports_errors
def notes(obj: Context, nugget: str | None, hidden: bool, query: str | None, as_json: bool) -> None:
    """List notes (archived ones only with --hidden)."""
    memory = obj.memory(needs_graph=True)
    shelf = Shelf(memory.read())
    _known_nugget(shelf, nugget)
    found = shelf.list_notes(nugget, include_hidden=hidden, query=query)
    if as_json:
        _print_json(found)
        return
    _echo_lines(render.note_row(note, memory.profile.summary) for note in found)
    click.echo(counted(len(found), "note"), err=True)


@main.command()
@click.option("--nugget", help="Only this nugget (default: all).")
@click.option("--limit", type=click.IntRange(min=1),
              help=f"Notes to inspect (at most {MAX_LIMIT}; --all for the whole graph).")
@click.option("--all", "uncapped", is_flag=True, help="Lift the 10-note cap: the whole graph.")
@click.option("--apply", "do_apply", is_flag=True, help="Apply the pass and journal it.")
@click.option("--also", "also", multiple=True, metavar="NOTE_ID",
              help="With --apply: also apply this note's changes marked 'left out unless kept' "
                   "(with --microclaw: rescue an expired row from the bot's deletion).")
@click.option("--json", "as_json", is_flag=True, help="Print only the ReflectionResult as JSON.")
@_kind_options("reflect")
@click.pass_obj
@reports_errors
@logs_run("reflect")
def reflect(obj: Context, nugget: str | None, limit: int | None, uncapped: bool, do_apply: bool,
            also: tuple[str, ...], as_json: bool, **kind_options: Any) -> None:
    """Show what the reflection pass would change (a dry run), or --apply it."""
    _take_options(obj, kind_options)
    if limit is not None and uncapped:
        raise click.UsageError("--limit and --all cannot be used together")
    if also and not do_apply:
        raise click.UsageError("--also takes effect only with --apply")
    if limit is not None and limit > MAX_LIMIT:
        raise click.BadParameter(f"the pass inspects at most {MAX_LIMIT} notes, not {limit}; "
                                 "use --all to inspect the whole graph", param_hint="'--limit'")
    current_run().dry = not do_apply
    memory = obj.memory(needs_graph=True)
    shelf = Shelf(memory.read()) if nugget is not None else None
    if shelf is not None:
        _known_nugget(shelf, nugget)
    if memory.profile.capabilities.costly_plans:  # said before the pass runs
        click.echo(f"nuggets: {one_line(memory.profile.plan_cost)}", err=True)
    choose = ReviewSession(memory).unattended(also)  # rules and decisions (docs/REVIEW.md)
    if do_apply:
        plan, entry = memory.reflect(nugget, limit, uncapped, also, choose=choose)
        _record_plan(_applied(plan, entry), entry)
    else:
        with stderr_progress("nuggets: planning…") as told:
            plan = memory.plan(nugget, limit, uncapped, graph=shelf.graph if shelf else None,
                               progress=told)
        choose(plan)
        entry = None
    _tell(memory)  # what the read and the plan skipped or read from elsewhere
    if as_json:
        result = plan.result.to_json_dict()
        _print_json({**result, "rules": _rules_json(choose.by_rule)} if choose.by_rule else result)
        return
    _echo_lines(render.plan_text(plan, memory.profile, applied=do_apply, decided=choose.said))
    if do_apply:
        click.echo("")
        _echo(f"Applied as run {entry.run_id} (undo: nuggets undo {entry.run_id})"
              if entry else _nothing_applied(memory))


def _nothing_applied(memory: Store) -> str:
    """What an apply that wrote no run of ours says: the system ran its own program, or there
    was nothing to apply."""
    if memory.profile.capabilities.runs_itself:
        return memory.profile.applied_elsewhere
    return "Nothing to apply."


@main.command()
@click.option("--memory-md", type=click.Path(path_type=Path, dir_okay=False),
              help="MEMORY.md to write (default $NUGGETS_MEMORY_MD, else Claude's project memory; "
                   "with --microclaw: one AGENTS.md, else each scope's).")
@click.option("--threshold", type=click.IntRange(min=1),
              help="Hits a note needs to be promoted (default 3); with --microclaw, the "
                   "confidence in percent a row needs (default 80).")
@click.option("--allow", "allow", multiple=True, metavar="NOTE_ID@HASH",
              help="Promote this held-back note while it reads as the dry run showed it "
                   "(repeatable; a bare NOTE_ID only previews).")
@click.option("--drop", "drop", multiple=True, metavar="NOTE_ID",
              help="Leave this note's entry out (repeatable); what MEMORY.md holds stays.")
@click.option("--allow-contact", is_flag=True,
              help="Promote e-mail addresses and phone numbers (else held back, unless "
                   "$NUGGETS_ALLOW_CONTACT=1); credentials are held back still.")
@click.option("--apply", "do_apply", is_flag=True, help="Write MEMORY.md.")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"added", "path", "entries", "blocked", "dropped", "lost", "budgets"}.')
@click.pass_obj
@reports_errors
@logs_run("promote")
def promote(obj: Context, memory_md: Path | None, threshold: int | None,
            allow: tuple[str, ...], drop: tuple[str, ...], allow_contact: bool, do_apply: bool,
            as_json: bool) -> None:
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
            "(--allow NOTE_ID@HASH), so only the text you reviewed is written")
    current_run().dry = not do_apply
    memory = obj.memory(memory_md, needs_graph=True)
    promoter = memory.promoter
    if promoter is not None:
        promoter.allow_contact = allow_contact or obj.settings.allow_contact
    rule = {} if threshold is None else {"threshold": threshold}
    kept: dict[str, Any] = {"allow": set(allow), "drop": set(drop), **rule}
    plans = _promotion_plans(memory, memory_md, kept)
    plan = plans[0] if len(plans) == 1 else shown_as_one(plans, memory.home, 0)
    strays = [one_line(i) for i in drop if i not in {e.note_id for e in plan.dropped}]
    if strays:  # before anything is written
        raise click.BadParameter(f"{', '.join(strays)}: not a note this promotion would write",
                                 param_hint="'--drop'")
    candidates = {e.note_id for e in plan.entries if e.allowed_despite}
    candidates |= {b.note_id for b in plan.blocked}
    unknown = [one_line(token) for token in allow if parse_allowance(token)[0] not in candidates]
    if unknown:  # before anything is written
        raise click.BadParameter(f"{', '.join(unknown)}: not a held-back candidate (see the "
                                 "held-back entries of `nuggets promote`)", param_hint="'--allow'")
    runs: list[JournalEntry] = []
    if do_apply:
        if promoter is None:
            raise refused(memory, "promote")
        plan, added = promoter.promote_now(memory_md, **kept)
        plans, runs = [plan], promoter.promotion_runs
        _record_promotion(plan, added, runs)
    else:
        added = sum(p.added for p in plans if p.directory_exists)
    _say_unused_allowances(plan, allow)
    for line in [*plan.refused, *plan.notices]:
        _echo(f"nuggets: {one_line(line)}", err=True)
    if not do_apply:
        current_run().warnings += [*plan.refused, *plan.notices]
    if as_json:
        entries = [e.to_json_dict() for e in plan.entries]
        blocked = [e.to_json_dict() for e in plan.blocked]
        dropped = [e.to_json_dict() for e in plan.dropped]
        budgets = [b.to_json_dict() for b in plan.budgets]
        _print_json({"added": added, "path": plan.path, "entries": entries, "blocked": blocked,
                     "dropped": dropped, "lost": plan.lost, "budgets": budgets})
        return
    for number, shown in enumerate(plans):
        if number:
            _echo("")
        _echo_lines(render.promotion_text(shown, memory.profile))
    if do_apply and plan.directory_exists:
        _echo(f"\nPromoted {counted(added, 'new entry', 'new entries')} to "
              f"{shown_path(plan.path)}")
        for run in runs:
            _echo(f"Written as run {run.run_id} (undo: nuggets undo {run.run_id})")


def _promotion_plans(memory: Store, memory_md: Path | None,
                     kept: dict[str, Any]) -> list[PromotionPlan]:
    """The named file's plan, else every file promotion would edit; a store without a
    promoter: its refusal, as a plan."""
    if memory.promoter is None:
        return [refused_promotion(memory, memory_md, kept.get("threshold", 0))]
    if memory_md is not None:
        return [memory.promoter.plan_promotion(memory_md, **kept)]
    return memory.promoter.plan_promotions(**kept)


def _say_unused_allowances(plan: PromotionPlan, allow: tuple[str, ...]) -> None:
    screened = {e.note_id for e in plan.entries if e.allowed_despite}
    held = {b.note_id: b.hash for b in plan.blocked}
    for token in allow:
        note_id = parse_allowance(token)[0]
        if note_id in held:
            _echo(f"nuggets: --allow {one_line(token)}: the note changed since that hash "
                  f"was printed; held back again (now {one_line(note_id)}@{held[note_id]})",
                  err=True)
        elif note_id not in screened:
            _echo(f"nuggets: --allow {one_line(token)}: not a held-back candidate", err=True)


@main.command()
@click.argument("note_ids", nargs=-1, required=True)
@_kind_options("unhide")
@click.option("--raise-confidence", "lift", is_flag=True,
              help="Also raise what keeps a note out of the agent's context, in the same run "
                   "(MicroClaw: a confidence below 0.45, the least its prompt takes, raised "
                   "to 0.45); undo puts it back.")
@click.pass_obj
@reports_errors
@logs_run("unhide")
def unhide(obj: Context, note_ids: tuple[str, ...], lift: bool, **kind_options: Any) -> None:
    """Bring archived notes back."""
    _take_options(obj, kind_options)
    memory = obj.memory(needs_graph=True)
    if lift and not memory.by_hand.unhide_outlook(note_ids).lift:
        _echo("nuggets: --raise-confidence: nothing to raise for these notes", err=True)
    entry = memory.by_hand.unhide(note_ids, lift)
    _record_entry(entry, "unhidden")
    if entry is not None and entry.file_name is not None:  # written into a file instead
        _echo_lines(render.file_diff(entry))
        _echo(f"Restored into {entry.file_name} (run {entry.run_id}; undo: nuggets undo "
              f"{entry.run_id})")
        _tell(memory)
        return
    _echo(f"Unhid {counted(len(entry.after), 'note')} (run {entry.run_id})" if entry
          else "Those notes are already visible; nothing written.")
    if entry is not None:
        _echo_lines(_absorbed_lines(memory.read(), list(entry.before.values())))
    _tell(memory)  # what the store says about them (MicroClaw: rows its prompt skips)


def _absorbed_lines(graph: Graph, notes: list[RawNote]) -> list[str]:
    """For each note brought back that a merge had absorbed: which note absorbed it (that note
    keeps the lines it took; undoing the merge's run restores both exactly)."""
    lines = []
    for note in notes:
        winner = fields.merged_into(note)
        if winner is None:
            continue
        absorbed = graph.get(winner)
        name = f"“{one_line(fields.text(absorbed, 'title'))}” ({one_line(winner)})" \
            if absorbed else one_line(winner)
        lines.append(f"  {one_line(note['id'])} had been merged into {name}, which keeps its "
                     "lines too")
    return lines


@main.command()
@click.argument("note_ids", nargs=-1, required=True)
@click.pass_obj
@reports_errors
@logs_run("archive")
def archive(obj: Context, note_ids: tuple[str, ...]) -> None:
    """Archive notes by hand, as the pass does (undo brings them back)."""
    entry = obj.memory(needs_graph=True).by_hand.archive(note_ids)
    _record_entry(entry, "archived")
    _echo(f"Archived {counted(len(entry.after), 'note')} (run {entry.run_id})" if entry
          else "Those notes are already archived; nothing written.")


@main.command()
@click.argument("run_id")
@click.option("--memory-md", type=click.Path(path_type=Path, dir_okay=False),
              help="The MEMORY.md a promotion run wrote, when it was not the default "
                   "($NUGGETS_MEMORY_MD, else Claude's project memory).")
@click.pass_obj
@reports_errors
@logs_run("undo")
def undo(obj: Context, run_id: str, memory_md: Path | None) -> None:
    """Restore the notes an applied run changed (or the file a promotion wrote)."""
    memory = obj.memory(memory_md)
    entry = memory.journal.undo(run_id)
    _tell(memory)  # rows the store left as they are (MicroClaw: changed by the bot since)
    _record_entry(entry, "restored")
    restored = (f"{entry.file_name} as it was before it" if entry.file_name is not None
                else counted(len(entry.after), "note"))
    _echo(f"Undid {run_id}: restored {restored} (run {entry.run_id})")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the journal entries as JSON.")
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
    _tell(memory, [*losses, *unknown])
    if as_json:
        _print_json([{**e.to_json_dict(), **({"since": since[e.run_id].to_json()}
                                            if e.run_id in since else {})} for e in entries])
        return
    for entry in entries:
        _echo(render.journal_line(entry))
        if entry.run_id in since:
            _echo(f"  {one_line(since[entry.run_id].line)}")
    if not entries:
        click.echo("No runs applied yet.", err=True)
    if memory.versions is not None:
        _echo_lines(render.kept_versions_text(memory.versions.kept_versions()))


def _applied(plan: Plan, entry: JournalEntry | None) -> ReflectionResult:
    """What a run wrote of its plan: the changes it applied, not those left out or waiting."""
    if entry is None:
        return result_of(plan.result, set())
    return entry.result if entry.result is not None else plan.result


def _record_plan(result: ReflectionResult, entry: JournalEntry | None) -> None:
    """What an applied plan did, for the run log (`result`: what it wrote, see `_applied`)."""
    run = current_run()
    run.add_counts({name: getattr(result, name) for name in (
        "inspected", "rewritten", "merged", "hidden", "tagged", "linked")})
    run.summary = render.result_summary(result)
    if entry is not None:
        run.run_id = run.run_id or entry.run_id
        run.undo = f"nuggets undo {entry.run_id}"


def _record_entry(entry: JournalEntry | None, counted_as: str) -> None:
    run = current_run()
    run.counts[counted_as] = len(entry.after) if entry else 0
    if entry is not None:
        run.run_id, run.summary = entry.run_id, entry.summary
        run.undo = f"nuggets undo {entry.run_id}"
    else:
        run.summary = "nothing to write"


def _record_promotion(plan: PromotionPlan, added: int, entries: list[JournalEntry],
                      daily: bool = False) -> None:
    """`entries`: the runs it wrote (one per file; MicroClaw may write several AGENTS.md)."""
    run = current_run()
    run.add_counts({"promoted_added": added, "promoted_updated": plan.updated,
                       "promotion_blocked": len(plan.blocked)})
    run.warnings += [f"held back {b.note_id}: {b.reason}" for b in plan.blocked]
    run.warnings += [*plan.refused, *plan.notices]
    if not plan.directory_exists:
        run.warnings.append(f"promotion skipped: no directory for {plan.path}")
    for number, entry in enumerate(entries):
        run.run_id = run.run_id or entry.run_id
        undo = f"nuggets undo {entry.run_id}"
        run.undo = f"{run.undo}, then {undo}" if (daily or number) and run.undo else undo
    if not daily:
        run.summary = f"promotion: {added} added, {plan.updated} updated"


@main.command()
@click.option("--hold", is_flag=True,
              help="Apply only the changes review rules (or your decisions) keep; the rest, "
                   "and every promotion entry, wait for review in the console.")
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
            _echo(message)

    if memory.profile.capabilities.own_schedule:
        _daily_health(memory, say)
        return
    if local.time() < due:
        say(f"Not yet: the daily pass runs after {due:%H:%M} local time.")
        current_run().skipped(f"not yet: the daily pass runs after {due:%H:%M} local time")
        return
    with memory.journal.lock():  # two crons at once: the second sees the first's run
        entries = memory.journal.log()
        _tell(memory)
        for header in entries:
            moment = parse_iso(header.at)
            if (header.kind == "reflect" and moment and moment.astimezone().date() == local.date()
                    and in_effect(entries, header.run_id)):  # an undone run did not run
                say(f"Already ran today ({header.run_id}).")
                current_run().skipped(f"already ran today ({header.run_id})")
                return
        _tell(memory, memory.open().messages)
        session = ReviewSession(memory)
        choose = session.unattended(hold=hold)
        plan, entry = memory.reflect(choose=choose)
        applied = _applied(plan, entry)
        _record_plan(applied, entry)
        _leave_waiting(session.leave_waiting(choose), choose.waiting)
        say(f"Reflection: {render.result_summary(applied, memory.profile.change_kinds)}"
            + _reflection_outcome(entry, len(choose.waiting)))
        promotion, added, waiting = _daily_promotion(memory, hold)
    where = shown_path(promotion.path)
    for line in [*promotion.refused, *promotion.notices]:
        say(line)
    if not promotion.directory_exists:
        say(f"Promotion skipped: no directory for {where}")
    elif hold and (waiting or not promotion.refused):  # a store that never promotes: as ever
        say(f"Promotion held (--hold): {counted(waiting, 'entry', 'entries')} to {where} "
            "wait for review")
    else:
        say(f"Promotion: {counted(added, 'new entry', 'new entries')} to {where}")
    if promotion.blocked:
        queued = " (and `nuggets conflicts`)" if any(b.queued for b in promotion.blocked) else ""
        say(f"Promotion held back {counted(len(promotion.blocked), 'entry', 'entries')}; "
            f"see `nuggets promote`{queued}.")


def _reflection_outcome(entry: JournalEntry | None, waiting: int) -> str:
    """What the daily run wrote of its plan, and what it left waiting, for its -v line."""
    waits = f"{counted(waiting, 'change')} wait for review" if waiting else ""
    if entry is None:
        return f" (nothing written; {waits})" if waits else " (nothing to change)"
    return f" (run {entry.run_id}; {waits})" if waits else f" (run {entry.run_id})"


def _daily_promotion(memory: Store, hold: bool) -> tuple[PromotionPlan, int, int]:
    """Promotion in the daily run: the plan shown, the entries added, and how many wait.

    No review rule can keep a promotion entry, so under --hold nothing is promoted: the
    entries a write would add or update wait for `nuggets promote` (or `p` in the console),
    and how many is said, with or without -v, as the changes waiting are."""
    promoter = memory.promoter
    if promoter is None:
        refused = refused_promotion(memory)
        _record_promotion(refused, 0, [], daily=True)
        return refused, 0, 0
    if not hold:
        promotion, added = promoter.promote_now()
        _record_promotion(promotion, added, promoter.promotion_runs, daily=True)
        return promotion, added, 0
    plans = promoter.plan_promotions()
    promotion = plans[0] if len(plans) == 1 else shown_as_one(plans, memory.home, 0)
    _record_promotion(promotion, 0, [], daily=True)
    waiting = sum(entries_to_write(p) for p in plans)
    current_run().add_counts({"promotion_waiting": waiting})
    if waiting:  # the operator's to learn, even from cron
        _echo(f"nuggets: {counted(waiting, 'promotion entry', 'promotion entries')} wait: "
              "review with `nuggets promote` (console: p).", err=True)
    return promotion, 0, waiting


def _daily_health(memory: Store, say: Callable[[str], None]) -> None:
    """Daily for a system maintained by its own schedule: its health said and logged, no pass
    run, nothing promoted (docs/STORES.md)."""
    run = current_run()
    run.warnings += memory.open().messages  # said on opening already: read again, for the log
    run.summary = memory.profile.maintained_elsewhere
    say(memory.profile.maintained_elsewhere)


def _leave_waiting(since: str | None, waiting: list[str]) -> None:
    """Say how many changes the run left for a person (the session remembered them since
    `since`; None: nothing waits, nothing waited), with or without -v (README, "The daily pass
    from cron")."""
    if since is None:
        return
    current_run().add_counts({"waiting_for_review": len(waiting)})
    if waiting:  # the operator's to learn, even from cron: on stderr, as _tell's
        _echo(f"nuggets: {counted(len(waiting), 'change')} waiting for review since "
              f"{since} (open the console: nuggets).", err=True)


def _demo_options(command: Callable[..., Any]) -> Callable[..., Any]:
    for kind in reversed(STORE_KINDS[1:]):
        command = click.option(f"--{kind.name}", kind.name, is_flag=True,
                               help=kind.demo_dir_help)(command)
    return command


@main.command()
@click.option("--reset", is_flag=True, help="Recreate the demo memory from scratch.")
@_demo_options
@click.pass_obj
@reports_errors
def demo(obj: Context, reset: bool, **systems: bool) -> None:
    """Print the demo memory's path (creating it on first use)."""
    kind = next((k for k in STORE_KINDS if systems.get(k.name)), DEFAULT_KIND)
    _echo(str(_materialized_demo(kind, obj.settings, reset=reset)))


# registers conflicts, resolve, verdicts, act; mark; rules; config
from . import config_cli, conflicts_cli, marks_cli, rules_cli  # noqa: E402, F401

if __name__ == "__main__":
    # Run as `python -m nuggets_tui.cli`, this module is __main__ and the modules above added
    # their commands to the group of nuggets_tui.cli, imported apart: run that one.
    from nuggets_tui.cli import main as registered

    registered()
