"""The options several commands share, declared once: `--json`, `--apply`, `--memory-md`, and
the choice of the memory: `--system NAME` with `--home DIR` or `--demo`, each system's own
options, and the per-system flags (`--microclaw DIR`, `--demo-purifier`, ...) kept as
aliases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from core.stores.registry import DEFAULT_KIND, STORE_KINDS

Command = Callable[..., Any]
Decorator = Callable[[Command], Command]

SYSTEM_HELP = (
    "The memory system to open: {names} (default {default}); --home DIR names its "
    "directory, --demo opens its demo."
)
HOME_HELP = " With --system: that system's directory."
DEMO_HELP = " With --system: that system's demo."


def json_option(help: str) -> Decorator:
    return click.option("--json", "as_json", is_flag=True, help=help)


def apply_option(help: str) -> Decorator:
    return click.option("--apply", "do_apply", is_flag=True, help=help)


def memory_md_option(help: str) -> Decorator:
    return click.option("--memory-md", type=click.Path(path_type=Path, dir_okay=False), help=help)


def store_options(command: Command) -> Command:
    """The choice of the memory: `--system NAME`, then each system's directory and demo
    (`--home`, `--demo`, `--microclaw DIR`, `--demo-microclaw`, ...), in the registry's
    order."""
    for kind in reversed(STORE_KINDS):
        default = kind is DEFAULT_KIND
        command = click.option(
            kind.demo_option,
            f"demo_{kind.name}",
            is_flag=True,
            help=kind.demo_help + (DEMO_HELP if default else ""),
        )(command)
        # An optional DIR: given bare, the option's value is "" (its default place).
        optional: dict[str, Any] = (
            {"is_flag": False, "flag_value": ""} if kind.home_optional else {}
        )
        command = click.option(
            kind.home_option,
            f"home_{kind.name}",
            metavar="[DIR]" if kind.home_optional else "DIR",
            type=click.Path(file_okay=False),
            help=kind.home_help + (HOME_HELP if default else ""),
            **optional,
        )(command)
    names = [kind.name for kind in STORE_KINDS]
    return click.option(
        "--system",
        type=click.Choice(names),
        metavar="NAME",
        help=SYSTEM_HELP.format(names=", ".join(names), default=DEFAULT_KIND.name),
    )(command)


def kind_options(command_name: str | None) -> Decorator:
    """The options only one memory system has (`--purifier-scripts DIR`), of the command line
    as a whole (None) or of one command."""

    def decorate(command: Command) -> Command:
        for kind in reversed(STORE_KINDS):
            for option in reversed(kind.options):
                if option.command != command_name:
                    continue
                kind_type = None if option.is_flag else click.Path(path_type=Path)
                command = click.option(
                    option.flag,
                    option.name,
                    is_flag=option.is_flag,
                    type=kind_type,
                    metavar=None if option.is_flag else option.metavar,
                    help=option.help,
                )(command)
        return command

    return decorate


def demo_dir_options(command: Command) -> Command:
    """`nuggets demo --microclaw`, ...: which system's demo directory to print."""
    for kind in reversed(STORE_KINDS[1:]):
        command = click.option(f"--{kind.name}", kind.name, is_flag=True, help=kind.demo_dir_help)(
            command
        )
    return command
