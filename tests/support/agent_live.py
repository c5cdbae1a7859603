"""The agent's home at a step of one of the `tests/fixtures/agent_live/` scenarios.

Each scenario folder holds `before/` (the fake user's home before its first step) and
`steps/NN-label/` (only the files that step changed, byte for byte). How they were made is told
by the test modules that read them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.paths import FIXTURES_DIR

LIVE = FIXTURES_DIR / "agent_live"


def home_at(scenario: str, step: int, into: Path) -> Path:
    """A copy of the scenario's user home as it was after step `step` (0: before the first);
    returns the agent's home in it (`.donna`)."""
    folder = LIVE / scenario
    root = into / scenario
    shutil.copytree(folder / "before", root, dirs_exist_ok=True)
    for done in sorted((folder / "steps").iterdir()):
        if int(done.name.split("-", 1)[0]) <= step:
            shutil.copytree(done, root, dirs_exist_ok=True)
    return root / ".donna"
