"""`python -m bench.claude_scale [FILES]`: a Claude Code memory directory of FILES topic files
(10,000 by default), opened and planned as every command does, beside a plain read of every
file of it.

Writes the directory in a temporary folder (seed 7): topic files in Claude Code's own format
(`metadata:` frontmatter with a type, a body of a few lines drawn from a shared vocabulary and
words of the file's own topic), and a MEMORY.md naming the first 150 of them. Then times, in
this process: a plain read of every file (the baseline); the first open (every file recorded);
an open with nothing new to record; the review's plan; and a command after one file was
deleted (its last version found in the record). Prints one JSON object."""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from core.clock import fixed_clock
from core.stores.claude.store import ClaudeStore

NOW = datetime(2026, 11, 28, 9, tzinfo=UTC)
TYPES = ("user", "feedback", "project", "reference")
LISTED = 150


def _vocabulary(rnd: random.Random, size: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rnd.choices(letters, k=rnd.randint(3, 9))) for _ in range(size)]


def write_directory(directory: Path, files: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    shared = _vocabulary(rnd, 3_000)
    weights = [1 / (rank + 1) for rank in range(len(shared))]
    directory.mkdir(parents=True)
    lines = ["# Memory", ""]
    for number in range(files):
        kind = TYPES[number % len(TYPES)]
        name = f"{kind}_topic_{number:05d}.md"
        own = _vocabulary(rnd, 6)
        body = [
            " ".join(rnd.choices(shared, weights, k=10) + rnd.sample(own, 3))
            for _ in range(rnd.randint(2, 6))
        ]
        text = (
            f"---\nname: topic {number} {own[0]}\ndescription: about {own[0]} and {own[1]}\n"
            f"metadata:\n  type: {kind}\n---\n\n" + "\n".join(body) + "\n"
        )
        (directory / name).write_text(text)
        if number < LISTED:
            lines.append(f"- [topic {number}]({name}) \u2014 about {own[0]}")
    (directory / "MEMORY.md").write_text("\n".join(lines) + "\n")


def _timed(step: Callable[[], object]) -> float:
    start = time.perf_counter()
    step()
    return time.perf_counter() - start


def _plain_read(directory: Path) -> None:
    for entry in os.scandir(directory):
        Path(entry.path).read_bytes()


def _command(directory: Path, record: Path) -> None:
    """What one command does: open (settle, record, read once), then the plan."""
    store = ClaudeStore(directory, fixed_clock(NOW), record_root=record)
    store.open()
    store.read()
    store.plan()


def main(files: int = 10_000) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as tmp:
        directory, record = Path(tmp) / "memory", Path(tmp) / "record"
        write_directory(directory, files)
        plain = _timed(lambda: _plain_read(directory))
        first = _timed(lambda: _command(directory, record))
        again = _timed(lambda: _command(directory, record))
        gone = sorted(directory.glob("*_topic_*.md"))[-1]
        gone.unlink()
        deleted = _timed(lambda: _command(directory, record))
        store = ClaudeStore(directory, fixed_clock(NOW), record_root=record)
        hidden = sum(1 for n in store.read().notes if n["hidden"])
    return {
        "files": files,
        "plain_read_s": round(plain, 3),
        "first_command_s": round(first, 3),
        "command_s": round(again, 3),
        "command_after_a_deletion_s": round(deleted, 3),
        "deleted_found": hidden,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)))
