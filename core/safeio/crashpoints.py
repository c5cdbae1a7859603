"""A test hook that kills this process at a chosen step of a write, to prove crash safety.

Every step of a write that leaves something on disk calls `step(name)`. Normally that does
nothing. `arm(n)` (or `$NUGGETS_CRASH_AT=n` in a fresh process) makes the n-th step reached
SIGKILL the process - no cleanup, no `finally`, exactly like a power cut after that step.
`trace()` records the names of the steps reached, so a test can try every one of them, and
`on(name, action)` runs an action at a step (a test's stand-in for another program writing in
exactly that window).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

CRASH_ENV = "NUGGETS_CRASH_AT"

_raw = os.environ.get(CRASH_ENV, "")
# A test hook read at import, before any command can report an error: a value that is not a
# plain step number (², 1e3, 5,000 digits) arms nothing rather than failing every command.
_armed: int | None = int(_raw) if _raw.isascii() and _raw.isdigit() and len(_raw) < 10 else None
_reached = 0
_trace: list[str] | None = None
_actions: dict[str, Callable[[], None]] = {}


def arm(n: int | None) -> None:
    """Kill the process at the n-th step from now (None: never)."""
    global _armed, _reached
    _armed, _reached = n, 0


def trace() -> list[str]:
    """Start recording step names; the returned list fills as steps are reached."""
    global _trace
    _trace = []
    return _trace


def on(name: str, action: Callable[[], None] | None) -> None:
    """Run `action` each time step `name` is reached (None: stop)."""
    if action is None:
        _actions.pop(name, None)
    else:
        _actions[name] = action


def reset() -> None:
    """Back to doing nothing: not armed, not tracing, no actions."""
    global _trace
    arm(None)
    _trace = None
    _actions.clear()


def step(name: str) -> None:
    global _reached
    if _trace is not None:
        _trace.append(name)
    action = _actions.get(name)
    if action is not None:
        action()
    if _armed is None:
        return
    _reached += 1
    if _reached == _armed:
        os.kill(os.getpid(), signal.SIGKILL)
