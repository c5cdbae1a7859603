"""`python -m bench.claude_scale [FILES]`: a Claude Code memory directory of FILES topic files
(10,000 by default), opened and planned as every command does, beside a plain read of every
file of it.

Writes the directory in a temporary folder (seed 7): topic files in Claude Code's own format
(`metadata:` frontmatter with a type; a body of a few lines of common words, the words of a
subject some 25 files share, and words of the file's own), and a MEMORY.md naming the first 150
of them. Then times, in this process, each command as a fresh store with nothing screened yet:
a plain read of every file (the baseline); the first command (every file recorded); a command
with nothing new to record; and a command after one file was deleted (its last version found
in the record). Prints one JSON object: each figure [wall s, CPU s]."""

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
from core.stores.claude import notes
from core.stores.claude.store import ClaudeStore

NOW = datetime(2026, 11, 28, 9, tzinfo=UTC)
TYPES = ("user", "feedback", "project", "reference")
LISTED = 150


def _vocabulary(rnd: random.Random, size: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rnd.choices(letters, k=rnd.randint(3, 9))) for _ in range(size)]


def write_directory(directory: Path, files: int, seed: int = 7) -> None:
    """FILES topic files as a long-used memory has them: common words (drawn by frequency,
    as in prose), the words of a subject a few dozen files share (a service, a tool, a
    person), and a few of the file's own."""
    rnd = random.Random(seed)
    common = _vocabulary(rnd, 2_000)
    weights = [1 / (rank + 1) for rank in range(len(common))]
    subjects = [_vocabulary(rnd, 30) for _ in range(max(1, files // 25))]
    directory.mkdir(parents=True)
    lines = ["# Memory", ""]
    for number in range(files):
        kind = TYPES[number % len(TYPES)]
        name = f"{kind}_topic_{number:05d}.md"
        own, subject = _vocabulary(rnd, 6), rnd.choice(subjects)
        body = [
            " ".join(
                rnd.choices(common, weights, k=7) + rnd.sample(subject, 3) + rnd.sample(own, 2)
            )
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


def _timed(step: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of the step (the CPU time holds on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    step()
    return round(time.perf_counter() - wall, 3), round(time.process_time() - cpu, 3)


def _plain_read(directory: Path) -> None:
    for entry in os.scandir(directory):
        Path(entry.path).read_bytes()


def _command(directory: Path, record: Path) -> None:
    """What one command does: open (settle, record, read once), then the plan."""
    notes.forget_screened()  # a command is a process of its own: nothing screened yet
    store = ClaudeStore(directory, fixed_clock(NOW), record_root=record)
    store.open()
    store.read()
    store.plan()


def main(files: int = 10_000) -> dict[str, object]:
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
        "plain_read_s": plain,
        "first_command_s": first,
        "command_s": again,
        "command_after_a_deletion_s": deleted,
        "deleted_found": hidden,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)))
