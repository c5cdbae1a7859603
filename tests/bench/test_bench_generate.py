"""`python -m bench.generate`: a generated memory is a home the engine and the console read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.generate import main
from core.clock import fixed_clock
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main as nuggets
from tests.support.note_builders import NOW


def test_the_command_writes_a_home_the_engine_reads(tmp_path: Path) -> None:
    home = tmp_path / "big"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.generate",
            "--notes",
            "300",
            "--out",
            str(home),
            "--shape",
            "clusters",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"nuggets --home {home}" in done.stdout and done.stderr == ""
    graph = read_graph(home / "graph" / "graph.json")
    assert len(graph.notes) == 300 and graph.warnings == []
    plan = NuggetsStore(home, fixed_clock(NOW)).plan(uncapped=True)
    assert {c.type for c in plan.result.changes} >= {"merge", "link"}
    listed = CliRunner().invoke(
        nuggets,
        ["--home", str(home), "notes", "--hidden"],
        env={"NUGGETS_NOW": "2026-11-01T09:00:00Z", "NUGGETS_HOME": ""},
    )
    assert listed.exit_code == 0 and graph.notes[0]["id"] in listed.output


def test_the_same_arguments_give_the_same_file(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert main(["--notes", "40", "--out", str(tmp_path / name)]) == 0
    assert (tmp_path / "a" / "graph" / "graph.json").read_bytes() == (
        tmp_path / "b" / "graph" / "graph.json"
    ).read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--notes", "many"], "not a whole number: 'many'"),
        (["--notes", "0"], "between 1 and"),
        (["--notes", "5", "--shape", "round"], "no shape 'round'; known: today"),
        (["--notes", "5", "--seed", "x"], "--seed"),
    ],
)
def test_bad_input_is_a_usage_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--out", str(tmp_path / "home")])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "home").exists()


def test_an_existing_memory_is_never_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = tmp_path / "home" / "graph" / "graph.json"
    graph.parent.mkdir(parents=True)
    graph.write_text('{"version": 3, "notes": []}\n')
    with pytest.raises(SystemExit) as exited:
        main(["--notes", "5", "--out", str(tmp_path / "home")])
    assert exited.value.code == 2 and "already exists" in capsys.readouterr().err
    assert graph.read_text() == '{"version": 3, "notes": []}\n'


def test_an_unwritable_place_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    assert main(["--notes", "5", "--out", str(tmp_path / "file")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write") and err.count("\n") == 1


def test_large_sizes_report_progress_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bench.generate.PROGRESS_EVERY", 20)
    assert main(["--notes", "50", "--out", str(tmp_path / "home")]) == 0
    out = capsys.readouterr()
    assert "generating 50 notes" in out.err and "  20 notes" in out.err and "  40 notes" in out.err
    assert "wrote" in out.err and out.out.startswith("50 notes in")
