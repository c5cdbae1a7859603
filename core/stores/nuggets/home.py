"""Where a memory lives: --home, else $NUGGETS_HOME, else the agent's current home ~/.donna
when it holds a graph file (the agent copies ~/.nuggets there once, then writes only there),
else ~/.nuggets; and where the demo keeps its promotion file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

HOME_ENV = "NUGGETS_HOME"


AGENT_HOME = ".donna"
LEGACY_HOME = ".nuggets"


def resolve_home(
    explicit: Path | None = None, environ: Mapping[str, str] | None = None,
    user_home: Path | None = None,
) -> Path:
    env = os.environ if environ is None else environ
    if explicit is not None:
        return explicit.expanduser()
    if env.get(HOME_ENV):
        return Path(env[HOME_ENV]).expanduser()
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
        return (f"using {agent}, the agent's current home; {legacy} also exists (the older "
                f"copy the agent no longer writes) - use --home {legacy} to review that one")
    if home == legacy:
        return (f"using {legacy}: {agent} exists but holds no graph file yet - use --home "
                f"{agent} to review that one")
    return None


def demo_memory_md(home: Path) -> Path:
    return home / "memory" / "MEMORY.md"
