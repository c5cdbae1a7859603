"""Where this program keeps data of its own: the demo memories of every store, and what it keeps
for a memory it never writes into or reads beside it (a memory-purifier workspace's journal and
marks, a Claude Code memory directory's seen versions)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DEMO_ENV = "NUGGETS_DEMO_DIR"
DATA_ENV = "NUGGETS_DATA_DIR"


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """Our own data directory: $NUGGETS_DATA_DIR, else the user's data directory."""
    env = os.environ if environ is None else environ
    if env.get(DATA_ENV):
        return Path(env[DATA_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("nuggets-review", appauthor=False))


def demo_home(environ: Mapping[str, str] | None = None) -> Path:
    """The demo memory's directory: $NUGGETS_DEMO_DIR, else the user's data directory."""
    env = os.environ if environ is None else environ
    if env.get(DEMO_ENV):
        return Path(env[DEMO_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("nuggets-review", appauthor=False)) / "demo"
