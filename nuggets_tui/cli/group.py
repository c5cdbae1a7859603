"""The `nuggets` group: its options choose the memory (core/stores/registry.py) and read the
settings once; `Context` carries both to every command. Without a command it opens the review
console."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import click

from core.contract.kind import StoreKind
from core.contract.store import Store
from core.errors import ArgumentError, NuggetsError
from core.safeio.inert_text import one_line
from core.settings import DEFAULTS, Configuration, Settings, load
from core.stores.registry import DEFAULT_KIND, STORE_KINDS, kind_named

from ..words import shown_path
from .options import kind_options, store_options
from .output import reports_errors, tell


@dataclass
class Context:
    home: Path
    demo: bool
    verbose: bool
    explicit: bool = False  # the operator named the directory (an option or a setting)
    from_option: bool = False  # named by an option of this command line
    telemetry_dir: Path | None = None  # --telemetry-dir: where the run log goes (docs/RUNS.md)
    kind: StoreKind = DEFAULT_KIND  # the memory system at home
    options: dict[str, Any] = field(default_factory=dict)  # its own options' values
    told: list[str] = field(default_factory=list)  # for the console to say when it opens
    configuration: Configuration | None = None  # read once by `main` (core/settings.py)

    @property
    def settings(self) -> Settings:
        return DEFAULTS if self.configuration is None else self.configuration.settings

    def command(self, *words: str) -> str:
        """The command line that opens this same memory (`nuggets --demo promote`), for a hint
        a person can paste: the option that chose it, and its directory quoted for a shell."""
        if self.demo:
            chosen = [self.kind.demo_option]
        elif self.from_option:
            chosen = [self.kind.home_option, shlex.quote(one_line(shown_path(self.home)))]
        else:
            chosen = []  # the default place, or a setting that names it: as it was found
        return " ".join(["nuggets", *chosen, *words])

    def memory(
        self,
        memory_md: Path | None = None,
        must_exist: bool = True,
        announce: bool = True,
        needs_graph: bool = False,
        graph_warnings: bool = True,
    ) -> Store:
        """The memory at home; `announce` prints what opening it settled and, with
        `graph_warnings`, what the graph file's read tolerated (that reads the whole file: a
        command that may not need it says so later). The console shows those itself.
        `needs_graph`: a home without its notes' file is an error, not an empty memory."""
        if must_exist and not self.home.is_dir():
            # a directory named on the command line that is not there: a usage error (2)
            error = ArgumentError if self.from_option else NuggetsError
            raise error(self.kind.missing_home(shown_path(self.home)))
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
            tell(memory, memory.open(read=graph_warnings).messages)
        graph = memory.graph_path
        if needs_graph and not graph.exists() and not graph.is_symlink():
            raise NuggetsError(self.kind.missing_source(shown_path(self.home), shown_path(graph)))
        return memory


def materialized_demo(kind: StoreKind, settings: Settings, reset: bool = False) -> Path:
    return kind.materialize_demo(settings.clock, reset, settings)


def take_options(context: Context, given: dict[str, Any]) -> None:
    """Keep the values of the open system's own options; another system's: a usage error."""
    own = {option.name for option in context.kind.options}
    for kind in STORE_KINDS:
        for option in kind.options:
            value = given.get(option.name)
            if value is None or value is False:
                continue
            if option.name not in own:
                raise click.UsageError(
                    f"{option.flag} goes with {kind.home_option} or {kind.demo_option}"
                )
            context.options[option.name] = value


def bare_home_options(args: list[str], commands: Iterable[str]) -> list[str]:
    """The arguments with an optional DIR left out before a command (`--purifier notes`)
    given as such (`--purifier=`): a command's name is never taken for the directory."""
    optional = {kind.home_option for kind in STORE_KINDS if kind.home_optional}
    names = set(commands)
    return [
        f"{arg}=" if arg in optional and i + 1 < len(args) and args[i + 1] in names else arg
        for i, arg in enumerate(args)
    ]


class _Main(click.Group):
    """The per-system flags whose directory is optional are kept as they were written
    (`--purifier notes`), which click alone would read as a directory named `notes`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, bare_home_options(args, self.commands))

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's own run, except that a usage error is one line, as every error is: the
        command, what is wrong, where its help is (exit 2)."""
        run = partial(super().main, args, prog_name, complete_var, False, **extra)
        if not standalone_mode:
            return run()
        try:
            code: object = run()
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "nuggets"
            message = one_line(" ".join(exc.format_message().split()))
            click.echo(one_line(f"{where}: {message} (see {where} --help)"), err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)  # Exit(n) comes back as n


# A memory chosen by one option: its system, whether it is its demo, its directory as given
# ("" for the default place, None for a demo), and the option's name as the user wrote it.
Named = tuple[StoreKind, bool, str | None, str]


def _named(options: dict[str, Any]) -> list[Named]:
    named: list[Named] = []
    for kind in STORE_KINDS:
        if options[f"demo_{kind.name}"]:
            named.append((kind, True, None, kind.demo_option))
        if options[f"home_{kind.name}"] is not None:
            named.append((kind, False, options[f"home_{kind.name}"], kind.home_option))
    return named


def _chosen(options: dict[str, Any]) -> tuple[StoreKind, Path | None, bool]:
    """The memory system the options name, its directory (None: its default place) and
    whether it is the demo; a usage error when more than one is named. With --system NAME,
    `--home` and `--demo` name that system's directory and demo."""
    named = _named(options)
    system = options["system"]
    if system is not None:
        chosen = kind_named(system)
        named = [
            (chosen if kind is DEFAULT_KIND else kind, demo, home, flag)
            for kind, demo, home, flag in named
        ]
        others = [flag for kind, _, _, flag in named if kind is not chosen]
        if others:
            raise click.UsageError(f"--system {system} and {others[0]} cannot be used together")
        if not named:
            return chosen, None, False
    if len(named) > 1:
        flags = sorted((flag for *_, flag in named), key=_flag_order)
        raise click.UsageError(f"{' and '.join(flags)} cannot be used together")
    kind, demo, home, _ = named[0] if named else (DEFAULT_KIND, False, None, "")
    return kind, None if demo or not home else Path(home), demo


def _flag_order(flag: str) -> int:
    order = [f for kind in STORE_KINDS for f in (kind.demo_option, kind.home_option)]
    return order.index(flag)


@click.group(
    cls=_Main, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@store_options
@kind_options(None)
@click.option("-v", "--verbose", is_flag=True, help="Say more (the daily pass is silent without).")
@click.option(
    "--telemetry-dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="Where writing commands log their runs (default <home>/telemetry).",
)
@click.version_option(package_name="nuggets-review")
@click.pass_context
@reports_errors
def main(ctx: click.Context, verbose: bool, telemetry_dir: Path | None, **options: Any) -> None:
    """Review and tidy an AI agent's long-term memory (each system's options below).

    Without a command, opens the review console.
    """
    configuration = load(os.environ)  # the one read of the settings: every command's
    settings = configuration.settings
    kind, named, demo = _chosen(options)
    chosen = materialized_demo(kind, settings) if demo else kind.resolve(named, settings)
    explicit = named is not None or (not demo and kind.named_elsewhere(settings))
    ctx.obj = Context(
        home=chosen,
        demo=demo,
        verbose=verbose,
        explicit=explicit,
        from_option=named is not None,
        kind=kind,
        configuration=configuration,
    )
    ctx.obj.telemetry_dir = telemetry_dir
    take_options(ctx.obj, options)
    if ctx.invoked_subcommand is None:
        _open_console(ctx.obj, explicit=ctx.obj.explicit)


def _open_console(context: Context, explicit: bool) -> None:
    from ..app import run_console
    from ..keys import checked_keymap

    missing = not context.home.is_dir()
    if missing and explicit:
        context.memory()  # raises the "no memory at" error
    kind, configuration = context.kind, context.configuration

    def open_demo(chosen: StoreKind) -> Store:
        home = materialized_demo(chosen, context.settings)
        return Context(
            home,
            True,
            context.verbose,
            kind=chosen,
            options=context.options if chosen is kind else {},  # its own options only
            configuration=configuration,
        ).memory(announce=False)

    keymap = checked_keymap(configuration.file) if configuration else {}  # before it opens
    memory = context.memory(must_exist=False, announce=False)
    demos = [kind, *(other for other in STORE_KINDS if other is not kind)]  # its own first
    status = run_console(
        memory,
        demo_offer=missing,
        told=context.told,
        open_demo=open_demo,
        demos=demos,
        keymap=keymap,
    )
    if status:
        sys.exit(status)  # a console that died says so to whoever ran it
