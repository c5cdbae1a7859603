"""Running the `nuggets` command line in-process on a home, at a fixed time."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from nuggets_tui.cli import main

NOW = "2026-11-01T09:00:00Z"


def run(home: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    environ = {"NUGGETS_NOW": NOW, "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": ""}
    environ.update(env or {})
    return CliRunner().invoke(main, ["--home", str(home), *args], env=environ)
