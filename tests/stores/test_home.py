"""Which home is used when none is named (the agent's ~/.donna before the older ~/.nuggets)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from core.settings import load
from core.stores.nuggets.home import home_choice, resolve_home
from nuggets_tui.cli import main

GRAPH = '{"version": 3, "notes": []}\n'


def _home(base: Path, name: str, graph: bool = True) -> Path:
    home = base / name
    (home / "graph").mkdir(parents=True)
    if graph:
        (home / "graph" / "graph.json").write_text(GRAPH)
    return home


def test_agent_home_wins_when_it_holds_a_graph(tmp_path: Path) -> None:
    _home(tmp_path, ".nuggets")
    agent = _home(tmp_path, ".donna")
    assert resolve_home(user_home=tmp_path) == agent
    assert "the agent's current home" in (home_choice(agent, tmp_path) or "")


def test_older_home_when_the_agent_home_has_no_graph(tmp_path: Path) -> None:
    legacy = _home(tmp_path, ".nuggets")
    _home(tmp_path, ".donna", graph=False)
    assert resolve_home(user_home=tmp_path) == legacy
    assert "holds no graph file yet" in (home_choice(legacy, tmp_path) or "")


def test_only_one_home_says_nothing(tmp_path: Path) -> None:
    agent = _home(tmp_path, ".donna")
    assert resolve_home(user_home=tmp_path) == agent
    assert home_choice(agent, tmp_path) is None
    assert resolve_home(user_home=tmp_path / "none") == tmp_path / "none" / ".nuggets"


def test_named_home_wins_over_both(tmp_path: Path) -> None:
    _home(tmp_path, ".donna")
    configured = load({"NUGGETS_HOME": "/x"}).settings.home
    assert resolve_home(configured=configured, user_home=tmp_path) == Path("/x")
    named = resolve_home(Path("/y"), configured=configured, user_home=tmp_path)
    assert named == Path("/y")


def test_command_line_says_which_home_it_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _home(tmp_path, ".nuggets")
    _home(tmp_path, ".donna")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("NUGGETS_HOME", raising=False)
    done = CliRunner().invoke(main, ["notes"])
    assert done.exit_code == 0, done.output
    assert f"using {tmp_path / '.donna'}" in done.stderr
    named = CliRunner().invoke(main, ["--home", str(tmp_path / ".donna"), "notes"])
    assert "using" not in named.stderr
