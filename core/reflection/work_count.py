"""How much the pass compares, for tests that bound its work rather than its time.

Each partner search adds the candidates it looks at (link phase: notes of the nugget, merge phase:
members of a merge group), including every step over a note that can no longer be a partner. An
integer add per candidate: a few milliseconds at 100k notes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class WorkCount:
    link: int = 0
    merge: int = 0

    def reset(self) -> None:
        self.link = self.merge = 0


WORK = WorkCount()
