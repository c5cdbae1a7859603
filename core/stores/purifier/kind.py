"""The memory-purifier system as the command line offers it (`--purifier WORKSPACE`,
`--demo-purifier`)."""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock
from core.data_dirs import demo_home
from core.stores.base import Store, StoreKind
from core.stores.purifier.paths import resolve_workspace


def _open(home: Path, clock: Clock, memory_md: Path | None) -> Store:
    from core.stores.purifier.store import PurifierStore

    return PurifierStore(home, clock)


def demo_workspace() -> Path:
    """The purifier demo's workspace, beside the other demos (its telemetry beside it)."""
    return demo_home().with_name("demo-purifier") / "workspace"


def _demo(clock: Clock, reset: bool) -> Path:
    from core.stores.purifier.demo import materialize_purifier_demo

    return materialize_purifier_demo(demo_workspace(), clock(), reset=reset)


def _missing_home(home: str) -> str:
    return (f"no memory-purifier workspace at {home} (no such directory); use --purifier DIR "
            "(without DIR: the purifier's own, from its config's paths.workspace, $WORKSPACE, "
            "else ~/.openclaw/workspace), or try the demo with --demo-purifier")


def _missing_source(home: str, source: str) -> str:
    return (f"no purified claims at {source}: has the purifier run in {home}? Use --purifier "
            "DIR, or try the demo with --demo-purifier")


KIND = StoreKind(
    name="purifier",
    home_option="--purifier",
    home_help="Review an OpenClaw memory-purifier workspace instead, read-only (without DIR: "
              "the purifier's own, from its config's paths.workspace, $WORKSPACE, else "
              "~/.openclaw/workspace).",
    demo_option="--demo-purifier",
    demo_help="Use the built-in memory-purifier demo instead.",
    demo_dir_help="The memory-purifier demo's workspace instead.",
    resolve=resolve_workspace,
    named_elsewhere=lambda: False,
    open=_open,
    materialize_demo=_demo,
    demo_memory_md=lambda home: None,
    home_notice=lambda home: None,
    missing_home=_missing_home,
    missing_source=_missing_source,
    # Never "holds memory" of ours: no run log is written inside the purifier's workspace
    # (a refused command logs only where --telemetry-dir points).
    holds_memory=lambda home: False,
    run_log_parts=("runtime", "nuggets-review", "telemetry"),
    home_optional=True,
)
