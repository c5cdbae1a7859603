"""Running a plan-and-write step again while another program keeps the plan stale."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from core.errors import StalePlanError

T = TypeVar("T")

RETRIES = 8


def retrying(attempt: Callable[[], T], what: str = "the graph file") -> T:
    """Run a plan-and-write step again while the file keeps changing under it (bounded)."""
    for _ in range(RETRIES - 1):
        try:
            return attempt()
        except StalePlanError:
            time.sleep(random.uniform(0.01, 0.1))  # jitter: don't fall in step with a writer
    try:
        return attempt()
    except StalePlanError:
        raise StalePlanError(
            f"{what} kept changing while we wrote it ({RETRIES} tries); "
            "another program is writing it - try again in a moment"
        ) from None
