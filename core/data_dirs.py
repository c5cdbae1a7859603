"""Where this program keeps data of its own: the demo memories of every store, and what it keeps
for a memory it never writes into or reads beside it (a memory-purifier workspace's journal and
marks, a Claude Code memory directory's seen versions). The directories chosen come from the
settings (`data_dir`, `demo_dir`: core/settings.py)."""

from __future__ import annotations

from pathlib import Path


def _user_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("nuggets-review", appauthor=False))


def data_home(chosen: Path | None = None) -> Path:
    """Our own data directory: the one chosen ($NUGGETS_DATA_DIR), else the user's data
    directory."""
    return chosen if chosen is not None else _user_data_dir()


def demo_home(chosen: Path | None = None) -> Path:
    """The demo memory's directory: the one chosen ($NUGGETS_DEMO_DIR), else `demo` in the user's
    data directory."""
    return chosen if chosen is not None else _user_data_dir() / "demo"
