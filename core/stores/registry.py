"""The memory systems the front ends offer, in the order they offer them: adding a store is a
new package under core/stores/ and one line here."""

from __future__ import annotations

from pathlib import Path

from core.clock import Clock, system_clock
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.settings import DEFAULTS, Settings
from core.stores.claude.kind import KIND as CLAUDE
from core.stores.microclaw.kind import KIND as MICROCLAW
from core.stores.nuggets.kind import KIND as NUGGETS
from core.stores.purifier.kind import KIND as PURIFIER

STORE_KINDS: tuple[StoreKind, ...] = (NUGGETS, MICROCLAW, PURIFIER, CLAUDE)
DEFAULT_KIND = NUGGETS


def kind_named(name: str) -> StoreKind:
    for kind in STORE_KINDS:
        if kind.name == name:
            return kind
    known = ", ".join(kind.name for kind in STORE_KINDS)
    raise ValueError(f"unknown memory system {name!r} (known: {known})")


def open_store(
    home: Path,
    system: str = DEFAULT_KIND.name,
    clock: Clock = system_clock,
    memory_md: Path | None = None,
    settings: Settings = DEFAULTS,
) -> Store:
    """The store of the memory system named `system` at `home`. Reads nothing yet."""
    return kind_named(system).open(home, clock, memory_md, settings)
