"""The front door: the store of the memory system a front end opens.

Every front end (the console, the command line, a cron job) goes through a `Store`
(core/stores/base.py); `Memory` is the Nuggets store under the name it has always had.
"""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock, system_clock
from core.stores.base import Store
from core.stores.nuggets.store import NuggetsStore, result_of

Memory = NuggetsStore

SYSTEMS = ("nuggets", "microclaw")


def open_store(home: Path, system: str = "nuggets", clock: Clock = system_clock,
               memory_md: Path | None = None) -> Store:
    """The store for the memory system `system` at `home` (a Nuggets home, a MicroClaw data
    dir). Reads nothing yet."""
    if system == "microclaw":
        from core.stores.microclaw.store import MicroClawStore

        return MicroClawStore(home, clock)
    if system != "nuggets":
        raise ValueError(f"unknown memory system {system!r} (known: {', '.join(SYSTEMS)})")
    return NuggetsStore(home, clock, memory_md)


__all__ = ["SYSTEMS", "Memory", "NuggetsStore", "open_store", "result_of"]
