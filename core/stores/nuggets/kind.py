"""The Nuggets memory system as the command line offers it (`--home`, `--demo`)."""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock
from core.contract.kind import KindOption, StoreKind
from core.contract.store import Store
from core.settings import Settings
from core.stores.nuggets.graph_file import graph_path
from core.stores.nuggets.home import demo_memory_md, home_choice, resolve_home


def _open(home: Path, clock: Clock, memory_md: Path | None, settings: Settings) -> Store:
    from core.stores.nuggets.store import NuggetsStore

    return NuggetsStore(home, clock, memory_md, settings)


def _demo(clock: Clock, reset: bool, settings: Settings) -> Path:
    from core.stores.nuggets.demo import materialize_demo

    return materialize_demo(settings.demo_home, reset=reset)


def _missing_home(home: str) -> str:
    return (
        f"no memory at {home} (no such directory); use --home DIR, set $NUGGETS_HOME, or "
        "try the demo with --demo"
    )


def _missing_source(home: str, source: str) -> str:
    return (
        f"no graph file at {source}: {home} holds no memory yet; use --home DIR for another "
        "one, or try the demo with --demo"
    )


def _force_home(store: Store, value: object) -> None:
    if value:
        setattr(store, "force_home", True)  # noqa: B010 - the Nuggets store's own switch


FORCE_HOME = KindOption(
    "--force-home",
    "force_home",
    is_flag=True,
    help="Write to a home the agent left (~/.nuggets once it moved to ~/.donna); refused "
    "without it.",
    configure=_force_home,
)


KIND = StoreKind(
    name="nuggets",
    title="Nuggets",
    demo_about="a messy agent memory of 300 notes",
    home_option="--home",
    home_help="Memory directory (default $NUGGETS_HOME, else ~/.donna when it holds a graph, "
    "else ~/.nuggets).",
    demo_option="--demo",
    demo_help="Use the built-in demo memory instead.",
    demo_dir_help="The demo memory's directory.",
    resolve=lambda chosen, settings: resolve_home(chosen, settings.home),
    named_elsewhere=lambda settings: settings.home is not None,
    open=_open,
    materialize_demo=_demo,
    demo_memory_md=demo_memory_md,
    home_notice=home_choice,
    missing_home=_missing_home,
    missing_source=_missing_source,
    holds_memory=lambda home: graph_path(home).exists(),
    run_log_parts=("telemetry",),
    options=(FORCE_HOME,),
)
