"""A preview of the purifier's run shares nothing writable with the real workspace or config
(docs/PURIFIER.md, "Preview"): real files only, its config copied with the trigger off and its
paths in the copy, bounded copying, and the code that runs said first. The purifier is our fake
(tests/support/fake_purifier/), which does to its config, trigger and runtime what the real
orchestrator does; the workspaces are the fixtures the real purifier wrote. The last test runs
the real purifier when a copy of it is at /tmp/purifier-runs/src (test_purifier_acting.py)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from core.data_dirs import data_home
from core.stores.purifier import sandbox
from core.stores.purifier.journal import review_home
from core.stores.purifier.store import PurifierStore
from tests.stores.test_purifier_acting import (
    FAKE,
    NEW_LINE,
    REAL,
    cli,
    real,
    with_new_source_line,
)
from tests.support.tree import hashes

TRIGGER = """import sys
from pathlib import Path
with (Path(sys.argv[1]) / "trigger.log").open("a") as log:
    log.write(" ".join(sys.argv[2:]) + "\\n")
"""


def with_config_and_trigger(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with a new source line and the purifier's config beside it, whose
    downstream trigger appends to `trigger.log`; the workspace and the config."""
    workspace = with_new_source_line(tmp_path)
    script = tmp_path / "trigger.py"
    script.write_text(TRIGGER)
    config = workspace.parent / "memory-purifier" / "memory-purifier.json"
    config.parent.mkdir()
    config.write_text(
        json.dumps(
            {
                "version": "1.7.0",
                "profile": "business",
                "paths": {"workspace": str(workspace)},
                "downstream": {"wiki_trigger_command": f"{sys.executable} {script} {tmp_path}"},
            },
            indent=2,
        )
    )
    return workspace, config


def outside_our_data(tmp_path: Path, workspace: Path) -> dict[str, str]:
    """Every file and folder under tmp_path, our own data dir aside."""
    ours = review_home(workspace, data_home()).parent.parent
    return {
        name: digest
        for name, digest in hashes(tmp_path).items()
        if not (tmp_path / name).is_relative_to(ours)
    }


def refused(workspace: Path) -> str:
    code, out, err = cli(workspace, "reflect")
    assert code == 1 and out == ""
    last = err.splitlines()[-1]
    assert "nothing was run" in last and "Traceback" not in err
    return last


def test_a_preview_changes_no_byte_outside_our_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, config = with_config_and_trigger(tmp_path)
    modes = []
    make = sandbox.make

    def recorded(workspace: Path, config: Path | None, temp: Path) -> sandbox.Sandbox:
        modes.append(temp.stat().st_mode & 0o777)
        return make(workspace, config, temp)

    monkeypatch.setattr(sandbox, "make", recorded)
    before = outside_our_data(tmp_path, workspace)
    code, out, err = cli(workspace, "reflect")
    assert code == 0 and f"+{NEW_LINE}" in out and ": ok" in err
    assert modes == [0o700]  # a folder only we can enter
    assert outside_our_data(tmp_path, workspace) == before  # config, trigger, telemetry too
    # the same run for real writes the config and fires the trigger: the preview ran it too
    assert cli(workspace, "reflect", "--apply")[0] == 0
    assert "lastRun" in json.loads(config.read_text())
    assert "purified-manifest.json" in (tmp_path / "trigger.log").read_text()


def test_the_config_handed_to_a_preview_is_a_copy_with_its_side_effects_off(tmp_path: Path) -> None:
    workspace, config = with_config_and_trigger(tmp_path)
    box = sandbox.Sandbox(
        tmp_path / "box" / "ws",
        tmp_path / "box" / "c" / "config.json",
        tmp_path / "box" / "telemetry",
    )
    settings = sandbox.copied_config(config, box)
    assert settings["downstream"]["wiki_trigger_command"] is None
    assert settings["paths"] and all(
        Path(p).is_relative_to(tmp_path / "box") for p in settings["paths"].values()
    )
    assert settings["profile"] == "business" and settings["version"] == "1.7.0"


def test_a_linked_runtime_is_refused_by_name_and_nothing_is_written(tmp_path: Path) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    runtime = workspace / "runtime"
    shutil.move(runtime, tmp_path / "runtime-real")
    runtime.symlink_to(tmp_path / "runtime-real")
    before = outside_our_data(tmp_path, workspace)
    assert refused(workspace).startswith(f"nuggets: {runtime}: a symbolic link")
    assert outside_our_data(tmp_path, workspace) == before
    assert not (tmp_path / "trigger.log").exists()


def test_a_linked_source_file_is_refused_by_name(tmp_path: Path) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    episode = workspace / "episodes" / "elsewhere.md"
    episode.symlink_to(tmp_path / "trigger.py")
    assert refused(workspace).startswith(f"nuggets: {episode}: a symbolic link")


def test_a_fifo_is_refused_by_name_without_waiting_on_it(tmp_path: Path) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    fifo = workspace / "runtime" / "spare.fifo"
    os.mkfifo(fifo)
    assert refused(workspace).startswith(f"nuggets: {fifo}: a FIFO")


def test_a_sparse_file_counts_whole_and_nothing_is_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    big = workspace / "runtime" / "sparse.bin"
    with big.open("wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # 200 MB, hardly a block on disk
    temp = tmp_path / "tmpdir"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert refused(workspace).startswith(f"nuggets: {big}: 200.0 MB, more than the preview")
    assert list(temp.iterdir()) == []  # refused before a byte was copied


def test_a_tree_above_the_bound_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    monkeypatch.setattr(sandbox, "TREE_BYTES", 10_000)
    assert refused(workspace).startswith(f"nuggets: {workspace}: ")
    assert "more than its 10000 bytes bound" in refused(workspace)


def test_a_full_disk_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    assert "no space left for the preview's copy" in refused(workspace)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    assert refused(workspace).startswith(f"nuggets: {tmp_path / 'no-such-folder'}: no temporary")


def test_the_code_that_runs_is_named_first(tmp_path: Path) -> None:
    workspace, _ = with_config_and_trigger(tmp_path)
    first = cli(workspace, "reflect")[2].splitlines()[0]
    assert f"{FAKE / 'run_purifier.py'}" in first and "may spend tokens" in first
    assert "inside the workspace under review" not in first
    installed = workspace / "skills" / "memory-purifier" / "scripts"
    installed.mkdir(parents=True)
    shutil.copy(FAKE / "run_purifier.py", installed)
    first = cli(workspace, "reflect", scripts=None)[2].splitlines()[0]
    assert f"{installed / 'run_purifier.py'}" in first
    assert "inside the workspace under review" in first


@real
def test_the_real_purifier_previews_without_a_byte_outside_our_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its Pass-1 and Pass-2 fixtures from its own test helper, as in test_purifier_acting.py."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.syspath_prepend(str(REAL / "tests"))
    helpers = pytest.importorskip("_helpers")
    workspace, config = with_config_and_trigger(tmp_path)
    fixtures = {
        "root": tmp_path / "sandbox",
        "workspace": workspace,
        "config_file": tmp_path / "no-config.json",
        "fixtures_dir": tmp_path / "fixtures",
    }
    for folder in ("root", "fixtures_dir"):
        fixtures[folder].mkdir()
    helpers.build_fixtures(fixtures, "business", "run-real")
    store = PurifierStore(workspace)
    store.purifier_scripts = REAL
    store.run_mode = "reconciliation"
    store.purifier_args = (
        "--backend",
        "file",
        "--fixture-dir",
        str(fixtures["fixtures_dir"]),
        "--profile",
        "business",
        "--run-id",
        "run-real",
    )
    before = outside_our_data(tmp_path, workspace)
    plan = store.plan()
    assert any(d.after.get("content") == NEW_LINE for d in plan.notes)
    assert outside_our_data(tmp_path, workspace) == before
    store.apply(plan)  # for real: it records its run in the config handed to it
    assert "lastRun" in json.loads(config.read_text())
