"""Fixtures of the engine tests: the small memories they decide on, built in
tests/support/note_builders.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.conflict_builders import answers_memory
from tests.support.note_builders import make_home


@pytest.fixture
def answers_home(tmp_path: Path) -> Path:
    """A home holding the answers memory: one contradiction group and a few plain notes."""
    return make_home(tmp_path, answers_memory())
