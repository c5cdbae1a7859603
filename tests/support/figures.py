"""Counting what the reliability tests tried, for docs/RELIABILITY.md.

With $NUGGETS_FIGURES set to a file, each `record` adds to a count in it; otherwise nothing
happens. `python tests/support/reliability_figures.py` runs the suite that way and prints the
table.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FIGURES_ENV = "NUGGETS_FIGURES"


def record(name: str, count: int = 1) -> None:
    target = os.environ.get(FIGURES_ENV)
    if not target:
        return
    path = Path(target)
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = data.get(name, 0) + count
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
