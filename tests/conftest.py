"""Fixtures shared by the whole suite. Builders and helpers live in tests/support/ and are
imported from there (`from tests.support.note_builders import note`).

`home` is a temporary copy of the demo memory; a module that needs another memory defines its own
`home` fixture, which takes precedence in that module. `data_dir` is a temporary copy of the
MicroClaw demo data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.settings import DEFAULTS
from core.stores.microclaw.demo import materialize_microclaw_demo
from tests.support.console_support import demo_home
from tests.support.microclaw_support import NOW as MICROCLAW_NOW


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return demo_home(tmp_path)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return materialize_microclaw_demo(tmp_path / "mc", MICROCLAW_NOW)


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Our data directory (core/data_dirs.py) under the test's temp dir, never the user's: the
    user data directory a store made without settings uses, and $NUGGETS_DATA_DIR, which the
    command line reads, name the same one. No config file is read but a test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.delenv("NUGGETS_CONFIG", raising=False)
    monkeypatch.setenv("NUGGETS_DATA_DIR", str(DEFAULTS.data_home))
    return DEFAULTS.data_home
