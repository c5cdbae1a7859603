"""Fixtures of the console tests. The demo Nuggets memory (`home`) is in tests/conftest.py, the
helpers that drive the console in tests/support/console_support.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.store import ClaudeStore
from nuggets_tui.app import NuggetsApp

CLAUDE_NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)


@pytest.fixture
def claude_app(tmp_path: Path) -> NuggetsApp:
    """The console on the Claude Code demo memory directory, at a fixed moment."""
    directory = materialize_claude_demo(tmp_path / "demo-claude" / "memory", CLAUDE_NOW)
    return NuggetsApp(ClaudeStore(directory, fixed_clock(CLAUDE_NOW)))
