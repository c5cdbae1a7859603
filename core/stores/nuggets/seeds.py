"""The seeds' entry points, as the Nuggets agent's own code names them: the reflection pass run
and applied on a shelf's home, and promotion to MEMORY.md (docs/PASS.md, docs/PROMOTION.md)."""

from __future__ import annotations

from pathlib import Path

from core.browse.shelf import Shelf
from core.clock import Clock, system_clock
from core.models import ReflectionResult
from core.stores.nuggets.store import NuggetsStore


def _home_of(shelf: Shelf) -> Path:
    return shelf.graph.path.parent.parent


def reflect_and_clean_memory(
    shelf: Shelf,
    nugget_name: str | None = None,
    limit: int | None = None,
    *,
    uncapped: bool = False,
    clock: Clock = system_clock,
) -> ReflectionResult:
    """Run the pass on the shelf's home, apply it and journal it."""
    memory = NuggetsStore(_home_of(shelf), clock)
    plan = memory.plan(nugget_name, limit, uncapped, graph=shelf.graph)
    memory.apply(plan)
    return plan.result


def promote_facts(shelf: Shelf, memory_md: Path | None = None, threshold: int = 3) -> int:
    """Write durable notes to MEMORY.md; returns the entries added."""
    memory = NuggetsStore(_home_of(shelf), memory_md=memory_md)
    return memory.promote(memory.plan_promotion(threshold=threshold))
