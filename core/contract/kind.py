"""A memory system as the command line offers it: its options, its default directory, its demo,
its errors, and how to open its store. Each system's `KIND` is registered once, in
core/stores/registry.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.clock import Clock
from core.contract.store import Store
from core.settings import Settings


@dataclass(frozen=True)
class KindOption:
    """An option only one memory system has, handed to its store once opened: an option of
    the command line as a whole (`command` None) or of one command (`reflect`)."""

    flag: str  # "--something"
    name: str  # the parameter's name
    help: str
    configure: Callable[[Store, object], None]  # the store, the value given
    command: str | None = None
    is_flag: bool = False  # else it takes a path, shown as `metavar`
    metavar: str = "PATH"


def _never(settings: Settings) -> bool:
    return False


def _nothing(home: Path) -> None:
    return None


@dataclass(frozen=True, kw_only=True)
class StoreKind:
    """A memory system as the command line offers it: its options, where its memory is by
    default, its demo, and how to open its store, each given the settings in force."""

    name: str  # "nuggets", "microclaw"
    title: str  # the system's name said to a person, as its profile says it ("MicroClaw")
    demo_about: str  # what its demo holds, in a phrase, where the demo is offered
    home_option: str  # the option naming its directory ("--home", "--microclaw")
    home_help: str
    demo_option: str  # the option opening its demo ("--demo", "--demo-microclaw")
    demo_help: str
    demo_dir_help: str  # `nuggets demo --<name>`: its demo's directory
    # where its memory is: the directory named (None: the default place)
    resolve: Callable[[Path | None, Settings], Path]
    # whether the directory counts as named although the option was not given (a setting)
    named_elsewhere: Callable[[Settings], bool] = _never
    # home, clock, a MEMORY.md path or None
    open: Callable[[Path, Clock, Path | None, Settings], Store]
    materialize_demo: Callable[[Clock, bool, Settings], Path]  # clock, reset: the demo's dir
    # the demo's promotion file, if its own
    demo_memory_md: Callable[[Path], Path | None] = _nothing
    home_notice: Callable[[Path], str | None] = _nothing  # what to say about the directory chosen
    # the errors for a directory that does not exist, and one without its notes (the
    # directory and the notes' file as shown)
    missing_home: Callable[[str], str]
    missing_source: Callable[[str, str], str]
    holds_memory: Callable[[Path], bool]  # whether the directory holds its memory yet
    # the folders below the directory that hold the run log by default, opened without
    # following a link (docs/RUNS.md, "The run log")
    run_log_parts: tuple[str, ...]
    options: tuple[KindOption, ...] = ()  # options only this system has
    # whether its option may be given without a directory (`--purifier notes`): its default
    home_optional: bool = False
