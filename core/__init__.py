"""The Nuggets memory engine: the reflection pass, plans, apply, unhide, undo, promotion.

Pure Python; it never imports a user interface. Front ends open a memory's store through
`core.stores.registry` and talk to it through `core.stores.base.Store` (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from pathlib import Path

from core.browse.shelf import Shelf
from core.clock import Clock, system_clock
from core.errors import (
    GraphError,
    JournalError,
    NuggetsError,
    StalePlanError,
    UndoConflictError,
    UnknownNoteError,
)
from core.models import JournalEntry, Note, Plan, PromotionPlan, ReflectionChange, ReflectionResult
from core.stores.base import Store
from core.stores.nuggets.store import NuggetsStore

__all__ = [
    "GraphError", "JournalEntry", "JournalError", "Note", "NuggetsError", "NuggetsStore",
    "Plan",
    "PromotionPlan", "ReflectionChange", "ReflectionResult", "Shelf", "StalePlanError", "Store",
    "UndoConflictError", "UnknownNoteError", "promote_facts", "reflect_and_clean_memory",
]


def _home_of(shelf: Shelf) -> Path:
    return shelf.graph.path.parent.parent


def reflect_and_clean_memory(
    shelf: Shelf, nugget_name: str | None = None, limit: int | None = None,
    *, uncapped: bool = False, clock: Clock = system_clock,
) -> ReflectionResult:
    """The seeds' entry point: run the pass on the shelf's home, apply it and journal it."""
    memory = NuggetsStore(_home_of(shelf), clock)
    plan = memory.plan(nugget_name, limit, uncapped, graph=shelf.graph)
    memory.apply(plan)
    return plan.result


def promote_facts(shelf: Shelf, memory_md: Path | None = None, threshold: int = 3) -> int:
    """The seeds' entry point: write durable notes to MEMORY.md; returns entries added."""
    memory = NuggetsStore(_home_of(shelf), memory_md=memory_md)
    return memory.promote(memory.plan_promotion(threshold=threshold))
