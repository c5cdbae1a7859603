"""Where a memory lives: --home, else $NUGGETS_HOME, else ~/.nuggets; or the demo memory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

HOME_ENV = "NUGGETS_HOME"
DEMO_ENV = "NUGGETS_DEMO_DIR"


def resolve_home(explicit: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if explicit is not None:
        return explicit.expanduser()
    if env.get(HOME_ENV):
        return Path(env[HOME_ENV]).expanduser()
    return Path.home() / ".nuggets"


def demo_home(environ: Mapping[str, str] | None = None) -> Path:
    """The demo memory's directory: $NUGGETS_DEMO_DIR, else the user's data directory."""
    env = os.environ if environ is None else environ
    if env.get(DEMO_ENV):
        return Path(env[DEMO_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("nuggets-review", appauthor=False)) / "demo"


def demo_memory_md(home: Path) -> Path:
    return home / "memory" / "MEMORY.md"
