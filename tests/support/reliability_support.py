"""Building small memory homes and running engine steps in a child process that may be killed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.clock import fixed_clock
from core.errors import StalePlanError
from core.safeio import crashpoints
from core.settings import DEFAULTS, Settings
from core.stores.nuggets.store import NuggetsStore
from tests.support.moments import at

CLOCK = fixed_clock(at("2026-11-01T09:00:00Z"))


def note(note_id: str, title: str, content: str, **extra: object) -> dict:
    base = {
        "id": note_id,
        "nuggetName": "project",
        "title": title,
        "content": content,
        "tags": [],
        "links": [],
        "hidden": False,
        "kind": "note",
        "hits": 0,
        "subject": "shared:project",
        "scope": "project",
        "type": "fact",
        "createdAt": "2026-10-01T00:00:00.000Z",
        "updatedAt": "2026-10-01T00:00:00.000Z",
    }
    base.update(extra)
    return base


def messy_notes() -> list[dict]:
    """A few notes that give every kind of change: archive, rewrite, retag, merge, link."""
    return [
        note("n1", "deploy steps", "run make deploy\nrun make deploy  ", hits=4),
        note("n2", "tmp", "scratch text"),
        note("n3", "deploy steps again", "run make deploy", hits=3),
        note("n4", "cache port", "the cache listens on port 6379 for deploy jobs", hits=5),
        note("n5", "cache settings", "cache port 6379 deploy jobs use redis", tags=["Cache"]),
        note("n6", "old", "x", hidden=True, archivedAt="2026-09-01T00:00:00.000Z"),
        note("n7", "pref: tabs", "use tabs, not spaces", type="preference", hits=6),
    ]


def make_home(root: Path, notes: list[dict], memory_md: str | None = "# Memory\n") -> Path:
    home = root / "home"
    (home / "graph").mkdir(parents=True)
    (home / "graph" / "graph.json").write_text(
        json.dumps({"version": 3, "notes": notes}, indent=2) + "\n"
    )
    (home / "memory").mkdir()
    if memory_md is not None:
        (home / "memory" / "MEMORY.md").write_text(memory_md)
    return home


def memory_of(home: Path, settings: Settings = DEFAULTS) -> NuggetsStore:
    return NuggetsStore(home, CLOCK, home / "memory" / "MEMORY.md", settings)


def graph_bytes(home: Path) -> bytes:
    return (home / "graph" / "graph.json").read_bytes()


def memory_md_bytes(home: Path) -> bytes | None:
    path = home / "memory" / "MEMORY.md"
    return path.read_bytes() if path.exists() else None


def leftovers(home: Path) -> list[str]:
    """Files an interrupted write leaves behind: none may survive a recovery."""
    found = []
    for directory in (home / "graph", home / "reflections", home / "memory"):
        if directory.is_dir():
            found += [
                p.name
                for p in directory.iterdir()
                if ".nuggets-" in p.name or p.name.endswith(".pending")
            ]
    return sorted(found)


def copy_home(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, symlinks=True)
    return target


@dataclass
class ChildOutcome:
    killed: bool
    code: int | None  # 0 done, 3 stale plan, 4 another error


def run_in_child(action: Callable[..., object], crash_at: int | None) -> ChildOutcome:
    """Run `action` in a forked child armed to SIGKILL itself at the `crash_at`-th step."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            crashpoints.reset()
            crashpoints.arm(crash_at)
            action()
        except StalePlanError:
            code = 3
        except BaseException:
            traceback.print_exc()
            code = 4
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return ChildOutcome(os.WTERMSIG(status) == signal.SIGKILL, None)
    return ChildOutcome(False, os.WEXITSTATUS(status))


def traced_steps(action: Callable[..., object]) -> list[str]:
    """The crash steps `action` passes through, in order (run in a child, reported back)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        crashpoints.reset()
        steps = crashpoints.trace()
        try:
            action()
        finally:
            os.write(write, json.dumps(steps).encode())
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        data = handle.read()
    os.waitpid(pid, 0)
    return json.loads(data)
