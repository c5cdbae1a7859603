"""A plan's result as far as the operator kept its changes."""

from __future__ import annotations

from collections.abc import Collection

from core.models import Plan, ReflectionResult, operation_note_ids


def result_of(result: ReflectionResult, kept: set[int]) -> ReflectionResult:
    """The result counting only the kept changes (ids are 1-based positions)."""
    changes = [c for i, c in enumerate(result.changes, start=1) if i in kept]
    counts = {name: 0 for name in ("rewritten", "merged", "hidden", "tagged", "linked")}
    names = {
        "rewrite": "rewritten",
        "merge": "merged",
        "hide": "hidden",
        "tag": "tagged",
        "link": "linked",
    }
    for change in changes:
        if change.type in names:  # a keep changes no note: it is counted nowhere
            counts[names[change.type]] += 1
    return ReflectionResult(
        ran_at=result.ran_at, inspected=result.inspected, changes=changes, **counts
    )


def chosen(plan: Plan, also: Collection[str] = ()) -> set[int]:
    """The operations kept by default, and those left out by default that name a note of
    `also` (the operator took them, e.g. on the command line)."""
    wanted = set(also)
    extra = {
        i
        for i in plan.unkept_by_default
        if wanted.intersection(operation_note_ids(plan.operations[i - 1]))
    }
    return plan.default_kept() | extra
