"""Where a memory lives: --home, else the settings' home ($NUGGETS_HOME), else the agent's current
home ~/.donna when it holds a graph file (the agent copies ~/.nuggets there once, then writes only
there), else ~/.nuggets; whether a home is the copy the agent left (written only when forced);
and where the demo keeps its promotion file."""

from __future__ import annotations

import os
from pathlib import Path

AGENT_HOME = ".donna"
LEGACY_HOME = ".nuggets"


def resolve_home(
    explicit: Path | None = None,
    configured: Path | None = None,
    user_home: Path | None = None,
) -> Path:
    """`explicit`: --home; `configured`: the settings' home."""
    if explicit is not None:
        return explicit.expanduser()
    if configured is not None:
        return configured
    base = Path.home() if user_home is None else user_home
    agent = base / AGENT_HOME
    return agent if (agent / "graph" / "graph.json").exists() else base / LEGACY_HOME


def home_choice(home: Path, user_home: Path | None = None) -> str | None:
    """What to tell the user when both the agent's home and the older one exist: which one
    is used, and how to pick the other."""
    base = Path.home() if user_home is None else user_home
    agent, legacy = base / AGENT_HOME, base / LEGACY_HOME
    if not (agent.is_dir() and legacy.is_dir()):
        return None
    if home == agent:
        return (
            f"using {agent}, the agent's current home; {legacy} also exists (the older "
            f"copy the agent no longer writes) - use --home {legacy} to review that one"
        )
    if home == legacy:
        return (
            f"using {legacy}: {agent} exists but holds no graph file yet - use --home "
            f"{agent} to review that one"
        )
    return None


def live_home(home: Path) -> Path | None:
    """The agent's current home when `home` is the copy it left: `.nuggets` beside a `.donna`
    that holds a graph file (the agent copies the old home there and writes only there)."""
    home = Path(os.path.abspath(home))
    agent = home.parent / AGENT_HOME
    if home.name == LEGACY_HOME and (agent / "graph" / "graph.json").exists():
        return agent
    return None


def left_home_refusal(home: Path, live: Path) -> str:
    return (
        f"{home}: the agent moved this memory to {live} and writes only there; this copy is "
        f"left behind, so nothing is written here: use --home {live} (or no --home), or "
        "--force-home to write here anyway"
    )


def demo_memory_md(home: Path) -> Path:
    return home / "memory" / "MEMORY.md"
