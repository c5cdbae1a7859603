"""How far a long job has come, told by pure code through an injected callback.

A job (the uncapped plan, verdict scoring) calls `progress(done, total)` now and then, in units
of its own (notes walked); the caller times it and says what is left. No clock here."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]  # (done, total): `total` may be revised as the job learns

MIN_DONE_SHARE = 0.02  # below this share done, the pace says nothing yet


def time_left(done: int, total: int, elapsed: float) -> float | None:
    """Seconds left at the pace so far, or None while there is no pace to go by."""
    if total <= 0 or elapsed <= 0 or done < max(1, total * MIN_DONE_SHARE):
        return None
    return max(0.0, elapsed * (total - min(done, total)) / done)


def progress_text(done: int, total: int, left: float | None, noun: str | None = None) -> str:
    """ "41,000 of 100,000 notes · 41% · about 20 s left" with a `noun` for the units; without
    one (units of work, not of anything a user counts) "41% · about 20 s left"."""
    done = min(done, total)
    share = f"{done * 100 // total}%" if total > 0 else "0%"
    counted = f"{done:,} of {total:,} {noun} · " if noun else ""
    return f"{counted}{share} · {left_text(left)}"


def left_text(left: float | None) -> str:
    if left is None:
        return "estimating the time left"
    if left < 1:
        return "under a second left"
    if left < 90:
        return f"about {round(left)} s left"
    return f"about {round(left / 60)} min left"


class Stopped(Exception):
    """The caller's `should_stop` said to stop: the job ended early and gave nothing."""


class Stages:
    """One job of several stages told as one: each stage reports its own (done, total), scaled
    into the stage's share (`weights`: what each stage costs, relative to the others)."""

    SCALE = 1000  # units of the whole per unit of weight

    def __init__(self, progress: Progress | None, weights: tuple[int, ...]) -> None:
        self.progress = progress
        self.starts = [sum(weights[:i]) * self.SCALE for i in range(len(weights))]
        self.weights = weights
        self.total = sum(weights) * self.SCALE

    def stage(self, index: int) -> Progress | None:
        """The progress callback of stage `index` (None when nobody listens)."""
        if self.progress is None:
            return None
        tell, start, share = self.progress, self.starts[index], self.weights[index] * self.SCALE

        def told(done: int, total: int) -> None:
            part = share * min(done, total) // total if total > 0 else 0
            tell(start + part, self.total)

        return told

    def done(self, index: int) -> None:
        """Stage `index` is over."""
        if self.progress is not None:
            self.progress(self.starts[index] + self.weights[index] * self.SCALE, self.total)
