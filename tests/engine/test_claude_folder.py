"""Which memory folder Claude Code uses (core/promotion/claude_folder.py). The repositories are
written by hand the way git lays them out (a `.git` folder; a linked worktree's `.git` file, its
`commondir` and `gitdir` back-pointer; a submodule's `.git` file with no `commondir`); what is
expected is what Claude Code 2.1.332 resolves for them: its git-root walk `Ce` and worktree
canonicalisation `$i` for the base path, its sanitiser `J$` and hash `Nle` for the name, and
`resolveEntry` / `defaultKey` for the order of the overrides and settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.promotion.claude_folder import (
    ClaudeEnvironment,
    base_path,
    folder_name,
    memory_folder,
    path_hash,
)
from core.settings import Settings


@pytest.mark.parametrize(
    ("base", "name"),
    [
        ("/home/u/proj", "-home-u-proj"),
        ("/home/u/proj.v2_x", "-home-u-proj-v2-x"),
        ("/Users/Jo Smith/My Project", "-Users-Jo-Smith-My-Project"),
        ("/home/u/café/日本", "-home-u-caf----"),
        ("/home/u/cafe\u0301", "-home-u-cafe-"),
        ("/home/u/🙂x", "-home-u---x"),
        ("/", "-"),
        ("/" + "a" * 199, "-" + "a" * 199),
        ("/" + "a" * 200, "-" + "a" * 199 + "-b6ymvl"),
        ("C:\\Users\\jo\\proj", "C--Users-jo-proj"),
    ],
)
def test_the_folder_name_is_claude_codes(base: str, name: str) -> None:
    assert folder_name(base) == name


def test_a_long_path_is_cut_at_200_with_its_hash() -> None:
    base = "/home/user/" + "very-long-directory-name/" * 9 + "project"
    name = folder_name(base)
    assert name.endswith("-very-long-dire-kdn7hq") and len(name) == 207
    assert folder_name("/home/u/" + "プロジェクト" * 40) == "-home-u-" + "-" * 192 + "-x3qz3f"
    assert path_hash("/home/u/proj") == "v3bcrc"
    assert path_hash("/home/u/proj.v2_x") == "gddrcl"


def repositories(root: Path) -> Path:
    """A repository with a subfolder, a linked worktree, a bare repository's worktree, a clone
    with a submodule, and a plain folder, laid out as git lays them out."""
    repo = root / "repo"
    if repo.exists():
        return root
    (repo / ".git" / "worktrees" / "wt").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    worktree = root / "wt"
    (worktree / "pkg").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {repo}/.git/worktrees/wt\n")
    (repo / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    (repo / ".git" / "worktrees" / "wt" / "gitdir").write_text(f"{worktree}/.git\n")
    bare = root / "bare.git"
    (bare / "worktrees" / "bw").mkdir(parents=True)
    bare_wt = root / "bare-wt"
    bare_wt.mkdir()
    (bare_wt / ".git").write_text(f"gitdir: {bare}/worktrees/bw\n")
    (bare / "worktrees" / "bw" / "commondir").write_text("../..\n")
    (bare / "worktrees" / "bw" / "gitdir").write_text(f"{bare_wt}/.git\n")
    clone = root / "clone-with-sub"
    (clone / ".git" / "modules" / "mod").mkdir(parents=True)
    (clone / "mod").mkdir()
    (clone / "mod" / ".git").write_text("gitdir: ../.git/modules/mod\n")
    (root / "plain").mkdir()
    return root


@pytest.mark.parametrize(
    ("start", "base"),
    [
        ("repo", "repo"),
        ("repo/src/deep", "repo"),
        ("wt", "repo"),
        ("wt/pkg", "repo"),
        ("bare-wt", "bare.git"),
        ("clone-with-sub/mod", "clone-with-sub/mod"),
        ("plain", "plain"),
    ],
)
def test_the_base_is_the_canonical_git_root(tmp_path: Path, start: str, base: str) -> None:
    root = repositories(tmp_path.resolve())
    assert base_path(root / start)[0] == root / base


def test_a_worktree_whose_back_pointer_disagrees_keeps_its_own_root(tmp_path: Path) -> None:
    root = repositories(tmp_path.resolve())
    (root / "repo" / ".git" / "worktrees" / "wt" / "gitdir").write_text("/elsewhere/.git\n")
    assert base_path(root / "wt" / "pkg")[0] == root / "wt"


def folder(tmp_path: Path, start: str = "repo/src", *, policy: Path | str = "", **env: str) -> Path:
    root = repositories(tmp_path.resolve())
    (root / "repo" / "src").mkdir(exist_ok=True)
    found = memory_folder(
        Settings.of(**env), root / start, tmp_path / "home", Path(policy or tmp_path / "no-policy")
    )
    return found.path


def default(tmp_path: Path, config: str = "") -> Path:
    name = folder_name(str(tmp_path.resolve() / "repo"))
    return Path(config or tmp_path / "home" / ".claude") / "projects" / name / "memory"


def test_from_a_subfolder_or_a_worktree_the_folder_is_the_repositorys(tmp_path: Path) -> None:
    assert folder(tmp_path) == default(tmp_path)
    assert folder(tmp_path, "wt/pkg") == default(tmp_path)


def test_the_variables_claude_code_reads(tmp_path: Path) -> None:
    assert folder(tmp_path, claude_config_dir="/tmp/cfg") == default(tmp_path, "/tmp/cfg")
    named = {"claude_config_dir": "/tmp/cfg", "claude_project_dir_name": "my-proj"}
    assert folder(tmp_path, **named) == Path("/tmp/cfg/projects/my-proj/memory")
    assert folder(tmp_path, claude_project_dir_name="my-proj") == default(tmp_path)
    for bad in ("con", "a.b", "x" * 65):
        assert folder(tmp_path, **dict(named, claude_project_dir_name=bad)) == default(
            tmp_path, "/tmp/cfg"
        )
    remote = folder(tmp_path, **named, claude_remote_memory_dir="/tmp/remote")
    assert remote == default(tmp_path, "/tmp/remote")
    override = {"claude_memory_path_override": "/tmp/cowork/mem"}
    assert folder(tmp_path, **override, claude_remote_memory_dir="/r") == Path("/tmp/cowork/mem")
    for ignored in ("~/mem", "rel/mem", "/a"):
        assert folder(tmp_path, claude_memory_path_override=ignored) == default(tmp_path)


def write_json(path: Path, values: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values))


def test_the_auto_memory_directory_setting(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_json(home / ".claude" / "settings.json", {"autoMemoryDirectory": "~/my-mem"})
    assert folder(tmp_path) == home / "my-mem"
    local = tmp_path / "repo" / "src" / ".claude" / "settings.local.json"
    write_json(local, {"autoMemoryDirectory": "/tmp/x/../y//"})
    assert folder(tmp_path) == Path("/tmp/y")
    write_json(local, {"autoMemoryDirectory": "rel/dir"})  # the first value found, refused
    assert folder(tmp_path) == default(tmp_path)
    policy = tmp_path / "managed-settings.json"
    write_json(policy, {"autoMemoryDirectory": "/srv/mem"})
    assert folder(tmp_path, policy=policy) == Path("/srv/mem")
    for refused in ("~/", "~/../x", "/a"):
        write_json(policy, {"autoMemoryDirectory": refused})
        assert folder(tmp_path, policy=policy) == default(tmp_path)


def off(tmp_path: Path, **env: str) -> str:
    return memory_folder(Settings.of(**env), tmp_path, tmp_path / "home", tmp_path / "p").off


def test_the_switches_that_turn_auto_memory_off(tmp_path: Path) -> None:
    assert off(tmp_path) == ""
    assert "CLAUDE_CODE_DISABLE_AUTO_MEMORY" in off(tmp_path, claude_disable_auto_memory="1")
    assert "CLAUDE_CODE_SIMPLE" in off(tmp_path, claude_simple="1")
    assert off(tmp_path, claude_disable_auto_memory="0", claude_simple="1") == ""
    assert "CLAUDE_CODE_REMOTE" in off(tmp_path, claude_remote="1")
    assert off(tmp_path, claude_remote="1", claude_remote_memory_dir="/tmp/remote") == ""
    safe = off(tmp_path, claude_safe_mode="1", claude_disable_auto_memory="0")
    assert "CLAUDE_CODE_SAFE_MODE" in safe
    write_json(tmp_path / "home" / ".claude" / "settings.json", {"autoMemoryEnabled": False})
    assert "autoMemoryEnabled" in off(tmp_path)
    assert off(tmp_path, claude_disable_auto_memory="false") == ""


def test_the_environment_reaches_the_resolver_through_the_settings() -> None:
    from core.settings import load

    settings = load({"CLAUDE_CONFIG_DIR": "/c", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}).settings
    env = ClaudeEnvironment.of(settings)
    assert (env.config_dir, env.disable_auto_memory) == ("/c", "1")
