"""The Nuggets memory engine: the reflection pass, plans, apply, unhide, undo, promotion.

Pure Python; it never imports a user interface, and this package's own module imports no store:
front ends open a memory's store through `core.stores.registry` and talk to it through the store
contract, `core.contract` (docs/ARCHITECTURE.md). The names below are the errors and the models
every part shares; the seeds' entry points are in `core.stores.nuggets.seeds`.
"""

from __future__ import annotations

from core.errors import (
    GraphError,
    JournalError,
    NuggetsError,
    StalePlanError,
    UndoConflictError,
    UnknownNoteError,
)
from core.models import JournalEntry, Note, Plan, PromotionPlan, ReflectionChange, ReflectionResult

__all__ = [
    "GraphError",
    "JournalEntry",
    "JournalError",
    "Note",
    "NuggetsError",
    "Plan",
    "PromotionPlan",
    "ReflectionChange",
    "ReflectionResult",
    "StalePlanError",
    "UndoConflictError",
    "UnknownNoteError",
]
