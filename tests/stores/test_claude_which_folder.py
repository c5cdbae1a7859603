"""From a repository's subfolder, the Claude Code store opens the folder Claude Code uses, and
promotion's default MEMORY.md is in it; where the Nuggets agent's own rule names another folder,
promotion says so. The repository is written by hand as git lays it out (a `.git` folder), and
the folder expected is the one Claude Code 2.1.332 resolves for it (its git-root walk `Ce`, its
sanitiser `J$`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.settings import Settings
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.note_builders import make_home, note

ENV = {"NUGGETS_NOW": "2026-11-25T09:00:00Z", "MEMORY_REFLECTION_HOUR": "0"}
TOPIC = (
    "---\nname: Testing\ndescription: how tests run\nmetadata:\n  type: feedback\n---\n\nReal db.\n"
)


def claude_name(path: Path) -> str:
    return re.sub("[^A-Za-z0-9]", "-", str(path))


def test_from_a_subfolder_the_store_opens_the_repositorys_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path.resolve() / "proj.v2_x"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    folder = (
        tmp_path
        / "home"
        / ".claude"
        / "projects"
        / (str(repo).replace("/", "-").replace(".", "-").replace("_", "-"))
        / "memory"
    )
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Testing](testing.md) — how tests run\n")
    (folder / "testing.md").write_text(TOPIC)
    monkeypatch.chdir(repo / "src" / "deep")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(main, ["--claude", "notes"], env=ENV)
    assert result.exit_code == 0, result.stderr
    assert "testing.md" in result.stdout
    # `--` before the command, as options end in any shell tool, reads the same
    assert CliRunner().invoke(main, ["--claude", "--", "notes"], env=ENV).stdout == result.stdout


def test_promotion_names_the_folder_the_agents_rule_would_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path.resolve() / "proj.v2_x"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.chdir(repo)
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    claude_name = "-".join(
        ["", *str(repo).strip("/").replace(".", "/").replace("_", "/").split("/")]
    )
    ours = home / ".claude" / "projects" / claude_name / "memory" / "MEMORY.md"
    ours.parent.mkdir(parents=True)
    notes = [note("n1", "Run make deploy", title="deploy steps", hits=4)]
    store = NuggetsStore(make_home(tmp_path, notes), settings=Settings.of())
    plan = store.plan_promotion()
    assert Path(plan.path) == ours
    agents = home / ".claude" / "projects" / str(repo).replace("/", "-") / "memory" / "MEMORY.md"
    assert plan.notices[0] == (
        f"{ours} is the MEMORY.md Claude Code loads here; the Nuggets agent's own promotion "
        f"writes {agents} instead (its rule only replaces /), a folder that does not exist, "
        "so it writes nothing"
    )
    assert "Claude Code's model is told never to write memory content" in plan.notices[1]


def test_the_store_says_when_claude_codes_auto_memory_is_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path.resolve() / "proj"
    repo.mkdir()
    folder = tmp_path / "home" / ".claude" / "projects" / claude_name(repo) / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Testing](testing.md) — how tests run\n")
    (folder / "testing.md").write_text(TOPIC)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    env = dict(ENV, CLAUDE_CODE_DISABLE_AUTO_MEMORY="1")
    result = CliRunner().invoke(main, ["--claude", "notes"], env=env)
    assert result.exit_code == 0, result.stderr
    assert (
        "Claude Code's auto memory is off here (CLAUDE_CODE_DISABLE_AUTO_MEMORY is set)"
        in result.stderr + result.stdout
    )
    result = CliRunner().invoke(main, ["--claude", "notes"], env=ENV)
    assert "auto memory is off" not in result.stderr + result.stdout
