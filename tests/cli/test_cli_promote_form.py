"""`nuggets promote --form topic-files`: Claude Code's own form, picked on the command line (the
default stays the Nuggets agent's entries); a dry run writes nothing, `--apply` writes one batch
that `nuggets undo <id>` takes back byte for byte, and a form the memory does not write is a
usage error.

The memory folder is written by hand the way Claude Code 2.1.332 writes one: `MEMORY.md` lines
as its prompt asks for them (`- [Title](file.md) — hook`) and a topic file in the frontmatter its
Write tool re-emits (`name`, `description`, `metadata:` with `node_type`, `type`,
`originSessionId`, `modified`), 0600."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.claude_support import project_folder
from tests.support.cli_support import run
from tests.support.reliability_support import note


@pytest.fixture
def home(tmp_path: Path) -> Path:
    graph = tmp_path / "home" / "graph"
    graph.mkdir(parents=True)
    notes = [
        note("n1", "deploy steps", "run make deploy", hits=4),
        note("n2", "release day", "we release on thursdays", hits=5),
    ]
    (graph / "graph.json").write_text(json.dumps({"version": 3, "notes": notes}, indent=2))
    return tmp_path / "home"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return project_folder(tmp_path)


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def _env(tmp_path: Path) -> dict[str, str]:
    return {"NUGGETS_DATA_DIR": str(tmp_path / "data")}


def _promote(home: Path, folder: Path, tmp_path: Path, *args: str):  # type: ignore[no-untyped-def]
    memory_md = str(folder / "MEMORY.md")
    return run(home, "promote", "--memory-md", memory_md, *args, env=_env(tmp_path))


def test_a_dry_run_in_topic_files_form_shows_the_files_and_writes_nothing(
    home: Path, folder: Path, tmp_path: Path
) -> None:
    before = _files(folder)
    shown = _promote(home, folder, tmp_path, "--form", "topic-files")
    assert shown.exit_code == 0, shown.output
    assert "Form: topic-files (2 files to write beside MEMORY.md" in shown.output
    assert "+  type: project" in shown.output and "+- [release day](" in shown.output
    listed = json.loads(_promote(home, folder, tmp_path, "--form", "topic-files", "--json").stdout)
    assert listed["form"] == "topic-files" and len(listed["files"]) == 2
    assert all(Path(f).parent == folder for f in listed["files"])
    assert _files(folder) == before and not (tmp_path / "data" / "promotion").exists()


def test_apply_writes_one_batch_that_undo_takes_back_byte_for_byte(
    home: Path, folder: Path, tmp_path: Path
) -> None:
    before = _files(folder)
    applied = _promote(home, folder, tmp_path, "--form", "topic-files", "--apply")
    assert applied.exit_code == 0, applied.output
    (said,) = [line for line in applied.output.splitlines() if line.startswith("Written as run")]
    run_id = said.split()[3]
    written = _files(folder)
    assert len(written) == 4 and "- **" not in written["MEMORY.md"].decode()
    undone = run(home, "undo", run_id, "--memory-md", str(folder / "MEMORY.md"), env=_env(tmp_path))
    assert undone.exit_code == 0, undone.output
    assert _files(folder) == before
    said = " ".join(undone.output.split())  # the files it put back, named, not "4 notes"
    ours = [name for name in written if name not in before]
    assert f"restored {len(ours) + 1} files as they were before it (" in said
    assert all(name in said for name in [*ours, "MEMORY.md"]) and "notes" not in said


def test_the_default_form_stays_the_agents_entries(
    home: Path, folder: Path, tmp_path: Path
) -> None:
    applied = json.loads(_promote(home, folder, tmp_path, "--apply", "--json").stdout)
    assert (applied["form"], applied["files"]) == ("entries", [])
    assert "- **deploy steps**: run make deploy" in (folder / "MEMORY.md").read_text()
    assert len(_files(folder)) == 2


def test_a_form_the_memory_does_not_write_is_a_usage_error(
    home: Path, folder: Path, tmp_path: Path
) -> None:
    result = _promote(home, folder, tmp_path, "--form", "yaml", "--apply")
    assert result.exit_code == 2
    assert "yaml: not a form this memory writes (entries, topic-files)" in result.output
    assert len(_files(folder)) == 2
