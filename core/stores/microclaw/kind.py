"""The MicroClaw memory system as the command line offers it (`--microclaw DIR`,
`--demo-microclaw`)."""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.settings import Settings
from core.stores.microclaw.paths import resolve_data_dir, runtime_dir


def _open(home: Path, clock: Clock, memory_md: Path | None, settings: Settings) -> Store:
    from core.stores.microclaw.store import MicroClawStore

    return MicroClawStore(home, clock, settings=settings)


def demo_data_dir(settings: Settings) -> Path:
    """The MicroClaw demo's data dir, beside the Nuggets demo."""
    return settings.demo_home.with_name("demo-microclaw")


def _demo(clock: Clock, reset: bool, settings: Settings) -> Path:
    from core.stores.microclaw.demo import materialize_microclaw_demo

    return materialize_microclaw_demo(demo_data_dir(settings), clock(), reset=reset)


def _missing_home(home: str) -> str:
    return (
        f"no MicroClaw data dir at {home} (no such directory); use --microclaw DIR, or try "
        "the demo with --demo-microclaw"
    )


def _missing_source(home: str, source: str) -> str:
    return (
        f"no MicroClaw database at {source}: is {home} the bot's data dir? Use "
        "--microclaw DIR, or try the demo with --demo-microclaw"
    )


KIND = StoreKind(
    name="microclaw",
    title="MicroClaw",
    demo_about="a bot's chats: stale, expired, duplicate rows",
    home_option="--microclaw",
    home_help="Review a MicroClaw bot's memory instead: its data dir (the bot's default is "
    "~/.microclaw, or ./microclaw.data in older setups).",
    demo_option="--demo-microclaw",
    demo_help="Use the built-in MicroClaw demo instead.",
    demo_dir_help="The MicroClaw demo's data dir instead.",
    resolve=lambda chosen, settings: resolve_data_dir(chosen),
    open=_open,
    materialize_demo=_demo,
    missing_home=_missing_home,
    missing_source=_missing_source,
    holds_memory=lambda home: runtime_dir(home).exists(),
    # beside our journal, outside the bot's files
    run_log_parts=("runtime", "nuggets-review", "telemetry"),
)
