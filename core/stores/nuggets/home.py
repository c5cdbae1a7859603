"""Where a memory lives: --home, else $NUGGETS_HOME, else the agent's current home ~/.donna
when it holds a graph file (the agent copies ~/.nuggets there once, then writes only there),
else ~/.nuggets; or the demo memory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

HOME_ENV = "NUGGETS_HOME"
DEMO_ENV = "NUGGETS_DEMO_DIR"


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


def demo_home(environ: Mapping[str, str] | None = None) -> Path:
    """The demo memory's directory: $NUGGETS_DEMO_DIR, else the user's data directory."""
    env = os.environ if environ is None else environ
    if env.get(DEMO_ENV):
        return Path(env[DEMO_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("nuggets-review", appauthor=False)) / "demo"


def demo_memory_md(home: Path) -> Path:
    return home / "memory" / "MEMORY.md"


MICROCLAW_HOME = ".microclaw"
MICROCLAW_OLD_LAYOUT = "microclaw.data"  # the bot's older default, beside where it runs


def resolve_microclaw_dir(explicit: Path | None = None, user_home: Path | None = None,
                          cwd: Path | None = None) -> Path:
    """A MicroClaw data dir: the one named, else ~/.microclaw, else ./microclaw.data when
    only that older layout exists."""
    if explicit is not None:
        return explicit.expanduser()
    current = (Path.home() if user_home is None else user_home) / MICROCLAW_HOME
    older = (Path.cwd() if cwd is None else cwd) / MICROCLAW_OLD_LAYOUT
    return older if not current.is_dir() and older.is_dir() else current


def demo_microclaw_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The MicroClaw demo's data dir, beside the Nuggets demo."""
    return demo_home(environ).with_name("demo-microclaw")
