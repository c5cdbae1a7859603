"""Where the repository and the test fixtures are, for tests that read files by path: one place,
so a test file can move between the suite's folders without its paths changing."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES_DIR = REPO / "tests" / "fixtures"
