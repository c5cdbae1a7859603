"""Fixtures shared by the whole suite. Builders and helpers live in tests/support/ and are
imported from there (`from tests.support.note_builders import note`).

`home` is a temporary copy of the demo memory; a module that needs another memory defines its own
`home` fixture, which takes precedence in that module. `data_dir` is a temporary copy of the
MicroClaw demo data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.microclaw.demo import materialize_microclaw_demo
from tests.support.console_support import demo_home
from tests.support.microclaw_support import NOW as MICROCLAW_NOW


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the program records of a memory it reads goes under a temporary directory, never
    the user's data directory."""
    monkeypatch.setenv("NUGGETS_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return demo_home(tmp_path)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return materialize_microclaw_demo(tmp_path / "mc", MICROCLAW_NOW)
