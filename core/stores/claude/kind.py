"""Claude Code's memory directory as the command line offers it (`--claude [DIR]`,
`--demo-claude`)."""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.settings import Settings
from core.stores.claude.paths import INDEX, resolve_directory


def _open(home: Path, clock: Clock, memory_md: Path | None, settings: Settings) -> Store:
    from core.stores.claude.store import ClaudeStore

    return ClaudeStore(home, clock, settings=settings)


def demo_directory(settings: Settings) -> Path:
    """The Claude Code demo's memory directory, beside the other demos."""
    return settings.demo_home.with_name("demo-claude") / "memory"


def _demo(clock: Clock, reset: bool, settings: Settings) -> Path:
    from core.stores.claude.demo import materialize_claude_demo

    return materialize_claude_demo(
        demo_directory(settings), clock(), reset=reset, data_dir=settings.data_home
    )


def _missing_home(home: str) -> str:
    return (
        f"no Claude Code memory directory at {home} (looked there for the current "
        "directory's memory); use --claude DIR, or try the demo with --demo-claude"
    )


def _missing_source(home: str, source: str) -> str:
    return (
        f"no {INDEX} at {source}: has Claude Code written memory in {home}? Use --claude "
        "DIR, or try the demo with --demo-claude"
    )


KIND = StoreKind(
    name="claude",
    title="Claude Code",
    demo_about="a week of topic files the agent edited",
    home_option="--claude",
    home_help="Review a Claude Code memory directory instead (without DIR: the one Claude Code "
    "uses here: ~/.claude/projects/<the repository's root, each character but letters and "
    "digits as ->/memory, unless Claude Code's settings name another).",
    demo_option="--demo-claude",
    demo_help="Use the built-in Claude Code demo instead.",
    demo_dir_help="The Claude Code demo's memory directory instead.",
    resolve=resolve_directory,
    open=_open,
    materialize_demo=_demo,
    missing_home=_missing_home,
    missing_source=_missing_source,
    # Never "holds memory" of ours: no run log is written inside the agent's directory.
    holds_memory=lambda home: False,
    run_log_parts=(".nuggets-review", "telemetry"),
    home_optional=True,
)
