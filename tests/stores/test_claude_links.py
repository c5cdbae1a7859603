"""A symbolic link in a Claude Code memory directory is never followed (docs/CLAUDE_CODE.md,
"Links"): what it points at (here a stand-in for `~/.ssh/id_rsa`) is never read, shown, kept
in our record or journaled; the link is listed by its name and where it points."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from nuggets_tui.cli import main
from tests.stores.test_claude import ENV, store, write_directory

SECRET = b"-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-material-4711\n"


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    directory = write_directory(tmp_path)
    outside = tmp_path / "ssh"
    outside.mkdir()
    (outside / "id_rsa").write_bytes(SECRET)
    (outside / "notes.md").write_bytes(SECRET)
    (directory / "keys.md").symlink_to(outside / "id_rsa")
    (directory / "team").symlink_to(outside)
    with (directory / "MEMORY.md").open("a") as index:
        index.write("- [Keys](keys.md) \u2014 where the keys are\n")
    return directory


def _everything_under(root: Path) -> bytes:
    return b"".join(
        p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()
    )


def test_a_link_is_listed_never_read(directory: Path, tmp_path: Path) -> None:
    memory = store(directory, tmp_path)
    notes = {n["id"]: n for n in memory.read().notes}
    link = notes["keys.md"]
    assert link["content"] == ""
    assert link["claude"]["link"] == str(tmp_path / "ssh" / "id_rsa")
    assert link["claude"]["flags"] == [
        f"symbolic link, not read (it points to {tmp_path / 'ssh' / 'id_rsa'})"
    ]
    assert "team" in notes and notes["team"]["content"] == ""
    assert not any("keys.md" in w and "missing" in w for w in memory.hygiene())
    plan = memory.plan(uncapped=True)
    memory.apply(plan)
    assert b"secret-key-material" not in _everything_under(tmp_path / "record")
    assert os.path.islink(directory / "keys.md")


def test_the_command_line_never_shows_or_keeps_what_a_link_points_at(
    directory: Path, tmp_path: Path
) -> None:
    env = {**ENV, "NUGGETS_DATA_DIR": str(tmp_path / "data")}
    outputs = []
    for args in (
        ["notes"],
        ["notes", "--hidden", "--json"],
        ["reflect"],
        ["reflect", "--apply"],
        ["log"],
    ):
        result = CliRunner().invoke(main, ["--claude", str(directory), *args], env=env)
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
        outputs.append(result.stderr)
    shown = "".join(outputs)
    assert "secret-key-material" not in shown
    assert "symbolic link, not read" in shown
    assert b"secret-key-material" not in _everything_under(tmp_path / "data")
    listed = json.loads(outputs[2])
    assert any(
        n.get("id") == "keys.md"
        for n in (listed if isinstance(listed, list) else listed.get("notes", []))
    )
