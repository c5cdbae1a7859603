"""Claude Code memory directories for tests, written by hand the way Claude Code 2.1.332 writes
them: a topic file with the frontmatter its memory tool stamps (`metadata:` holding
`node_type`, `type`, `originSessionId`, `modified`), private to its user, and its index line in
MEMORY.md; and a clock that moves a minute on every call."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.clock import Clock

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
TESTING_POLICY = (
    "---\nname: testing-policy\ndescription: how tests run\nmetadata:\n  node_type: memory\n"
    "  type: feedback\n  originSessionId: 0f5e7a9c-2b1d-4c3e-9a8f-6d5c4b3a2f10\n"
    "  modified: 2026-11-20T09:00:00.000Z\n---\n\nReal database in integration tests.\n"
)
TESTING_LINE = "- [testing-policy](testing.md) — how tests run\n"


def ticking(start: datetime = NOW) -> Clock:
    """A clock a minute later on every call, from `start`."""
    moments = iter(start + timedelta(minutes=i) for i in range(10_000))
    return lambda: next(moments)


def project_folder(tmp_path: Path, index: str = TESTING_LINE, topic: str = TESTING_POLICY) -> Path:
    """A project's memory directory (`claude/projects/-home-u-proj/memory` under `tmp_path`):
    MEMORY.md holding `index`, and `testing.md` holding `topic`, 0600."""
    directory = tmp_path / "claude" / "projects" / "-home-u-proj" / "memory"
    directory.mkdir(parents=True)
    (directory / "MEMORY.md").write_text(index)
    (directory / "testing.md").write_text(topic)
    os.chmod(directory / "testing.md", 0o600)
    return directory
