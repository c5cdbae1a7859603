"""Fixtures of the reliability tests: the messy memory most of them attack (duplicates, scratch
notes, messy text: tests/support/reliability_support.py), as made and after one reflection."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.reliability_support import make_home, memory_of, messy_notes


@pytest.fixture
def messy_home(tmp_path: Path) -> Path:
    """The messy memory, with no run yet."""
    return make_home(tmp_path, messy_notes())


@pytest.fixture
def reflected_home(messy_home: Path) -> Path:
    """The messy memory after one uncapped reflection, applied whole (journal entry 0001)."""
    memory = memory_of(messy_home)
    memory.apply(memory.plan(uncapped=True))
    return messy_home
