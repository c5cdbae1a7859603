"""`--purifier` without a directory: the workspace the purifier itself would use
(docs/PURIFIER.md): its config's `paths.workspace`, else $WORKSPACE, else ~/.openclaw/workspace."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.settings import load
from core.stores.purifier.paths import resolve_workspace
from nuggets_tui.cli import bare_home_options, main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-reconciliation"
NOW = "2026-11-25T09:00:00Z"


def invoke(home: Path, *args: str, workspace_env: str | None = None) -> tuple[int, str, str]:
    env = {"NUGGETS_NOW": NOW, "HOME": str(home), "WORKSPACE": workspace_env}
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def config(home: Path, workspace: object) -> Path:
    path = home / ".openclaw" / "memory-purifier" / "memory-purifier.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"paths": {"workspace": workspace}}))
    return path


def test_the_order_is_the_purifiers_config_then_the_environment_then_its_default(
    tmp_path: Path,
) -> None:
    cfg = tmp_path / "cfg.json"
    env = load({"WORKSPACE": "/from/env"}).settings.purifier_workspace
    assert load({"workspace": "/lower/case"}).settings.purifier_workspace is None  # not its name
    assert resolve_workspace(Path("/named"), env, cfg) == Path("/named")
    assert resolve_workspace(None, None, cfg) == Path("~/.openclaw/workspace").expanduser()
    assert resolve_workspace(None, env, cfg) == Path("/from/env")
    cfg.write_text(json.dumps({"paths": {"workspace": "/from/config"}}))
    assert resolve_workspace(None, env, cfg) == Path("/from/config")
    cfg.write_text(json.dumps({"paths": {"workspace": None}}))
    assert resolve_workspace(None, env, cfg) == Path("/from/env")
    cfg.write_text("{not json")
    assert resolve_workspace(None, env, cfg) == Path("/from/env")


def test_a_command_after_a_bare_option_is_never_taken_for_the_directory() -> None:
    commands = ["notes", "log"]
    assert bare_home_options(["--purifier", "notes"], commands) == ["--purifier=", "notes"]
    assert bare_home_options(["--purifier", "ws", "notes"], commands) == [
        "--purifier",
        "ws",
        "notes",
    ]
    assert bare_home_options(["--microclaw", "notes"], commands) == ["--microclaw", "notes"]


def test_bare_purifier_opens_the_default_workspace(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / ".openclaw")
    code, out, err = invoke(tmp_path, "--purifier", "notes", "--json")
    assert code == 0, err
    assert any(n["id"].startswith("cl-") for n in json.loads(out))


@pytest.mark.parametrize("where", ["config", "env"])
def test_bare_purifier_follows_the_config_or_the_environment(tmp_path: Path, where: str) -> None:
    shutil.copytree(FIXTURE, tmp_path / "elsewhere")
    workspace = str(tmp_path / "elsewhere" / "workspace")
    if where == "config":
        config(tmp_path, workspace)
    code, out, err = invoke(
        tmp_path, "--purifier", "log", workspace_env=workspace if where == "env" else "/nowhere"
    )
    assert code == 0, err
    assert "run-0004" in out


def test_a_missing_default_says_where_it_looked_and_how_to_name_one(tmp_path: Path) -> None:
    code, out, err = invoke(tmp_path, "--purifier", "notes")
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "~/.openclaw/workspace" in lines[0] and "--purifier DIR" in lines[0]
    assert not (tmp_path / ".openclaw").exists()
