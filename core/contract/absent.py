"""What a front end says when a store has no part for what the operator asked: a refusal in the
store's words (`Profile.refusal`), one line, before anything is written."""

from __future__ import annotations

from pathlib import Path

from core.contract.store import Store
from core.errors import NuggetsError
from core.models import PromotionPlan
from core.promotion.candidates import refused_plan

PROMOTION_FILE = "MEMORY.md"  # what a promotion would have named, for the refusal's plan


def refused(store: Store, what: str) -> NuggetsError:
    """The one-line error for a write the store does not offer ("promote: ...")."""
    return NuggetsError(f"{what}: {store.profile.refusal}")


def refused_promotion(
    store: Store, memory_md: Path | None = None, threshold: int = 0
) -> PromotionPlan:
    """The promotion plan of a store without a promoter: nothing qualifies, nothing is written,
    and the plan says why."""
    path = memory_md or store.home / PROMOTION_FILE
    return refused_plan(path, path.parent.is_dir(), threshold, 0, str(refused(store, "promotion")))
