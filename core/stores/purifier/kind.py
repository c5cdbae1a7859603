"""The memory-purifier system as the command line offers it (`--purifier WORKSPACE`,
`--demo-purifier`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.clock import Clock
from core.contract.kind import KindOption, StoreKind
from core.contract.store import Store
from core.settings import Settings
from core.stores.purifier.paths import resolve_workspace


def _open(home: Path, clock: Clock, memory_md: Path | None, settings: Settings) -> Store:
    from core.stores.purifier.store import PurifierStore

    return PurifierStore(home, clock, settings)


def demo_workspace(settings: Settings) -> Path:
    """The purifier demo's workspace, beside the other demos (its telemetry beside it)."""
    return settings.demo_home.with_name("demo-purifier") / "workspace"


def _demo(clock: Clock, reset: bool, settings: Settings) -> Path:
    from core.stores.purifier.demo import materialize_purifier_demo

    return materialize_purifier_demo(
        demo_workspace(settings), clock(), reset=reset, data=settings.data_home
    )


# Where --purifier without DIR looks (paths.resolve_workspace), said in its help and errors.
WITHOUT_DIR = (
    "without DIR: the purifier's own, from its config's paths.workspace, $WORKSPACE, "
    "else ~/.openclaw/workspace"
)


def _missing_home(home: str) -> str:
    return (
        f"no memory-purifier workspace at {home} (no such directory); use --purifier DIR "
        f"({WITHOUT_DIR}), or try the demo with --demo-purifier"
    )


def _missing_source(home: str, source: str) -> str:
    return (
        f"no purified claims at {source}: has the purifier run in {home}? Use --purifier "
        "DIR, or try the demo with --demo-purifier"
    )


def _set(attribute: str, fixed: object = None) -> Callable[[Store, object], None]:
    """An option's value (or `fixed`, when given) handed to the purifier's store
    (core/stores/purifier/acting.py)."""

    def configure(store: Store, value: object) -> None:
        if value is not None and value is not False:
            setattr(store, attribute, value if fixed is None else fixed)

    return configure


OPTIONS = (
    KindOption(
        "--purifier-scripts",
        "purifier_scripts",
        metavar="DIR",
        help="With --purifier: memory-purifier's scripts (its package, or its scripts/ "
        "folder), when not installed in the workspace's skills/ folder.",
        configure=_set("purifier_scripts"),
    ),
    KindOption(
        "--reconcile",
        "reconcile",
        command="reflect",
        is_flag=True,
        help="With --purifier: the purifier's reconciliation run instead of its incremental one.",
        configure=_set("run_mode", "reconciliation"),
    ),
    KindOption(
        "--acknowledge-upgrade",
        "acknowledge_upgrade",
        command="reflect",
        is_flag=True,
        help="With --purifier: acknowledge its pending upgrade (a reconciliation that "
        "rebuilds its state).",
        configure=_set("acknowledge_upgrade"),
    ),
    KindOption(
        "--into",
        "into",
        command="unhide",
        metavar="FILE",
        help="With --purifier: the workspace's source file a rejected or deferred "
        "candidate is restored into (a diff first; undo takes it back).",
        configure=_set("restore_into"),
    ),
)


KIND = StoreKind(
    name="purifier",
    title="memory-purifier",
    demo_about="a workspace: claims, candidates and runs",
    home_option="--purifier",
    home_help="Review an OpenClaw memory-purifier workspace instead (its files are never "
    f"written but by the purifier itself; {WITHOUT_DIR}).",
    demo_option="--demo-purifier",
    demo_help="Use the built-in memory-purifier demo instead.",
    demo_dir_help="The memory-purifier demo's workspace instead.",
    resolve=lambda chosen, settings: resolve_workspace(chosen, settings.purifier_workspace),
    open=_open,
    materialize_demo=_demo,
    missing_home=_missing_home,
    missing_source=_missing_source,
    # Never "holds memory" of ours: no run log is written inside the purifier's workspace
    # (a refused command logs only where --telemetry-dir points).
    holds_memory=lambda home: False,
    run_log_parts=("runtime", "nuggets-review", "telemetry"),
    options=OPTIONS,
    home_optional=True,
)
