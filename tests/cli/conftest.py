"""Fixtures of the command-line tests. The command line finds a memory from the person's home
when none is named (`~/.nuggets`, `~/.microclaw`, `~/.openclaw`, `~/.claude`), so every test here
runs with a home of its own under the test's temp dir: a test that forgets `--home` reads an
empty home, never the person's memory. A test that wants a home with something in it fills
`user_home`."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TZ", "UTC")
    return home
