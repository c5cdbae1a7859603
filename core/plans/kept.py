"""A plan's result as far as the operator kept its changes."""

from __future__ import annotations

from core.models import ReflectionResult


def result_of(result: ReflectionResult, kept: set[int]) -> ReflectionResult:
    """The result counting only the kept changes (ids are 1-based positions)."""
    changes = [c for i, c in enumerate(result.changes, start=1) if i in kept]
    counts = {name: 0 for name in ("rewritten", "merged", "hidden", "tagged", "linked")}
    names = {"rewrite": "rewritten", "merge": "merged", "hide": "hidden", "tag": "tagged",
             "link": "linked"}
    for change in changes:
        counts[names[change.type]] += 1
    return ReflectionResult(ran_at=result.ran_at, inspected=result.inspected, changes=changes,
                            **counts)
