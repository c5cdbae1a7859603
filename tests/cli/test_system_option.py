"""`--system NAME` with `--home DIR` or `--demo` chooses the memory as the per-system flags do
(`--microclaw DIR`, `--demo-claude`, a bare `--purifier`), which stay as aliases."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from nuggets_tui.cli import main
from tests.support.note_builders import make_home, note

PURIFIER = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-reconciliation"
ENV = {"NUGGETS_NOW": "2026-11-25T09:00:00Z", "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": ""}


def invoke(*args: str, **env: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={**ENV, **env})
    return result.exit_code, result.stdout, result.stderr


def test_system_and_home_open_what_the_systems_own_flag_opens(data_dir: Path) -> None:
    alias = invoke("--microclaw", str(data_dir), "notes", "--json")
    chosen = invoke("--system", "microclaw", "--home", str(data_dir), "notes", "--json")
    assert alias[0] == 0 and '"id"' in alias[1]
    assert chosen == alias


def test_system_nuggets_and_home_is_home_alone(tmp_path: Path) -> None:
    home = make_home(tmp_path, [note("n1", "a note", hits=4)])
    alias = invoke("--home", str(home), "notes", "--json")
    assert alias[0] == 0 and '"n1"' in alias[1]
    assert invoke("--system", "nuggets", "--home", str(home), "notes", "--json") == alias


@pytest.mark.parametrize("system", ["nuggets", "microclaw", "purifier", "claude"])
def test_system_and_demo_open_that_systems_demo(tmp_path: Path, system: str) -> None:
    demo_flag = "--demo" if system == "nuggets" else f"--demo-{system}"
    where = {"NUGGETS_DEMO_DIR": str(tmp_path / "demo"), "NUGGETS_DATA_DIR": str(tmp_path / "d")}
    alias = invoke(demo_flag, "notes", "--json", **where)
    chosen = invoke("--system", system, "--demo", "notes", "--json", **where)
    assert alias[0] == 0 and '"id"' in alias[1], alias[2]
    assert chosen[:2] == alias[:2]


def test_system_alone_opens_that_systems_default_place(tmp_path: Path) -> None:
    shutil.copytree(PURIFIER, tmp_path / ".openclaw")
    alias = invoke("--purifier", "notes", "--json", HOME=str(tmp_path))
    chosen = invoke("--system", "purifier", "notes", "--json", HOME=str(tmp_path))
    assert alias[0] == 0 and '"cl-' in alias[1]
    assert chosen == alias


@pytest.mark.parametrize("other", [["--purifier", "ws"], ["--demo-claude"]])
def test_system_and_another_systems_flag_are_a_usage_error(other: list[str]) -> None:
    code, out, err = invoke("--system", "microclaw", *other, "log")
    assert code == 2 and out == ""
    assert f"--system microclaw and {other[0]} cannot be used together" in err


def test_system_and_its_own_flag_twice_are_a_usage_error(data_dir: Path) -> None:
    code, _, err = invoke(
        "--system", "microclaw", "--home", "x", "--microclaw", str(data_dir), "log"
    )
    assert code == 2 and "--home and --microclaw cannot be used together" in err


def test_an_unknown_system_is_a_usage_error_naming_the_known_ones() -> None:
    code, _, err = invoke("--system", "nope", "log")
    assert code == 2 and "'nope'" in err and "microclaw" in err


@pytest.mark.parametrize("system", ["nuggets", "claude"])
def test_with_no_memory_the_console_offers_every_systems_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    """The console opened where there is no memory offers each registered system's demo, the
    one asked for first, and each opens that system's demo."""
    from core.stores.registry import STORE_KINDS

    offered: dict[str, Any] = {}
    monkeypatch.setattr("nuggets_tui.app.run_console", lambda memory, **k: offered.update(k) or 0)
    env = {
        "HOME": str(tmp_path / "home"),
        "NUGGETS_DEMO_DIR": str(tmp_path / "demo"),
        "NUGGETS_DATA_DIR": str(tmp_path / "data"),
    }
    assert invoke("--system", system, **env)[0] == 0
    assert offered["demo_offer"] is True
    demos = offered["demos"]
    assert demos[0].name == system and sorted(k.name for k in demos) == sorted(
        k.name for k in STORE_KINDS
    )
    for kind in demos:
        store = offered["open_demo"](kind)
        assert store.profile.system == kind.title and store.read().notes
        assert str(store.home).startswith(str(tmp_path / "demo"))
