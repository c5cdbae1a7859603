"""Tampered and broken journal entries: an entry is checked in full before an undo acts on it
(one-line error, nothing written), and one that cannot be read is skipped and named while `log`,
`undo` of other runs and `daily` go on working."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from nuggets_tui.cli import main
from tests.support.figures import record
from tests.support.reliability_support import memory_of

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "TZ": "UTC",
    "NUGGETS_HOME": "",
    "MEMORY_REFLECTION_HOUR": "0",
}


def run(home: Path, *args: str) -> Result:
    env = {**ENV, "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def _one_line_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 1, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nuggets: "), result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture
def home(reflected_home: Path) -> Path:
    """Two runs: a reflection (0001) and an unhide (0002)."""
    memory_of(reflected_home).unhide(["n6"])
    return reflected_home


def _entry_file(home: Path, seq: int) -> Path:
    return next((home / "reflections").glob(f"*-{seq:04d}.json"))


def _tamper(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the entry (the last line: the whole entry, after its header when it has one)."""
    lines = path.read_bytes().splitlines()
    entry = json.loads(lines[-1])
    change(entry)
    lines[-1] = json.dumps(entry, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")


def _first_key(images: dict[str, Any]) -> str:
    return next(iter(images))


def _other_id(entry: dict[str, Any]) -> None:
    key = _first_key(entry["before"])
    entry["before"][key]["id"] = next(k for k in ("n1", "n3", "n4") if k != key)


def _unknown_id(entry: dict[str, Any]) -> None:
    image = dict(entry["before"][_first_key(entry["before"])], id="zz")
    entry["before"]["zz"] = image


def _not_a_note(entry: dict[str, Any]) -> None:
    entry["before"][_first_key(entry["before"])] = ["not", "a", "note"]


def _no_nugget(entry: dict[str, Any]) -> None:
    del entry["after"][_first_key(entry["after"])]["nuggetName"]


def _run_id(entry: dict[str, Any]) -> None:
    entry["runId"] = "20261101T090000Z-0009"


def _fingerprint(entry: dict[str, Any]) -> None:
    entry["resultFingerprint"] = "../../etc/passwd"


TAMPERED: dict[str, Callable[[dict[str, Any]], None]] = {
    "a before-image with another note's id": _other_id,
    "a before-image of an unknown id": _unknown_id,
    "a before-image that is not a note": _not_a_note,
    "an after-image without nuggetName": _no_nugget,
    "a run id that is not the file's": _run_id,
    "a fingerprint that is not one": _fingerprint,
}


@pytest.mark.parametrize("case", list(TAMPERED))
def test_undo_of_a_tampered_entry_is_refused_and_writes_nothing(home: Path, case: str) -> None:
    path = _entry_file(home, 1)
    run_id = path.name[: -len(".json")]
    _tamper(path, TAMPERED[case])
    graph = home / "graph" / "graph.json"
    before = graph.read_bytes()
    _one_line_error(run(home, "undo", run_id), str(path), "not a readable journal entry")
    assert graph.read_bytes() == before
    assert run(home, "notes").exit_code == 0  # the graph is still readable
    record("tampered journals tried")


def _cut_in_images(data: bytes) -> bytes:
    return data[: len(data) - len(data.splitlines()[-1]) // 2]


CUTS: dict[str, Callable[[bytes], bytes]] = {
    "an old one-line entry, truncated": lambda data: data.splitlines()[-1][:200],
    "cut in its header": lambda data: data[:40],
    "empty": lambda data: b"",
    "not JSON": lambda data: b"\x00garbage",
}


@pytest.mark.parametrize("cut", list(CUTS))
def test_an_unreadable_old_entry_is_skipped_and_named(home: Path, cut: str) -> None:
    broken = _entry_file(home, 1)
    broken.write_bytes(CUTS[cut](broken.read_bytes()))
    logged = run(home, "log")
    assert logged.exit_code == 0, logged.output
    assert "unhide" in logged.stdout and "reflect" not in logged.stdout
    assert broken.name in logged.stderr and "not a readable journal entry" in logged.stderr
    assert json.loads(run(home, "log", "--json").stdout)[0]["kind"] == "unhide"
    newest = _entry_file(home, 2).name[: -len(".json")]
    undone = run(home, "undo", newest)
    assert undone.exit_code == 0, undone.output
    assert run(home, "daily").exit_code == 0
    record("tampered journals tried")


def test_an_entry_cut_in_its_images_is_listed_but_never_undone(home: Path) -> None:
    broken = _entry_file(home, 1)
    broken.write_bytes(_cut_in_images(broken.read_bytes()))
    assert "reflect" in run(home, "log").stdout  # its header is whole
    graph = home / "graph" / "graph.json"
    before = graph.read_bytes()
    _one_line_error(run(home, "undo", broken.name[: -len(".json")]), str(broken))
    assert graph.read_bytes() == before
    assert run(home, "undo", _entry_file(home, 2).name[: -len(".json")]).exit_code == 0
    record("tampered journals tried")
