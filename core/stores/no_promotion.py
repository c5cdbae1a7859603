"""The promoting half of a store whose system has no file we promote into (a memory-purifier
workspace, a Claude Code memory directory): every promotion plan is refused in one line, and
nothing is ever written (docs/STORES.md, "What every store offers")."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from core.errors import NuggetsError
from core.models import PromotionPlan
from core.notes.snapshot import Graph
from core.promotion.candidates import refused_plan


class NoPromotion:
    """Mixed into such a store: `refused(what)` says, in the store's words, why it writes
    nothing; `promotion_file` is the file a promotion would have named."""

    home: Path
    promotion_file = "MEMORY.md"

    def refused(self, what: str) -> NuggetsError:
        raise NotImplementedError  # the store's own

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        return memory_md or self.home / self.promotion_file

    def plan_promotion(self, memory_md: Path | None = None, threshold: int = 0,
                       allow: Collection[str] = (), graph: Graph | None = None,
                       drop: Collection[str] = ()) -> PromotionPlan:
        path = self.promotion_target(memory_md)
        return refused_plan(path, path.parent.is_dir(), threshold, 0,
                            str(self.refused("promotion")))

    def plan_promotions(self, threshold: int = 0, allow: Collection[str] = (),
                        graph: Graph | None = None,
                        drop: Collection[str] = ()) -> list[PromotionPlan]:
        return [self.plan_promotion(threshold=threshold)]

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        return None

    def promotion_losses(self) -> list[str]:
        return []  # nothing is ever promoted here

    def promote(self, plan: PromotionPlan) -> int:
        raise self.refused("promote")

    def promote_now(self, memory_md: Path | None = None, threshold: int = 0,
                    allow: Collection[str] = (),
                    drop: Collection[str] = ()) -> tuple[PromotionPlan, int]:
        return self.plan_promotion(memory_md, threshold), 0  # the refusal is in the plan
