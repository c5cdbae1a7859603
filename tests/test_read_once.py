"""Every command reads and checks the graph file once (issue: linear at every shape): the
start-up messages and the command's own work share one snapshot."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

from core import store
from nuggets_tui.cli import main
from tests.note_builders import make_home, note


@pytest.mark.parametrize("command", [["reflect"], ["reflect", "--all"], ["reflect", "--json"],
                                     ["notes"], ["promote"]])
def test_a_command_reads_the_graph_file_once(tmp_path: Path, command: list[str]) -> None:
    home = make_home(tmp_path, [note("a", "deploy redis cache", hits=5),
                                note("b", "deploy redis cache port")])
    reads = mock.Mock(side_effect=store.parse_graph)
    with mock.patch.object(store, "parse_graph", reads):
        done = CliRunner().invoke(main, ["--home", str(home), *command],
                                  env={"NUGGETS_MEMORY_MD": str(tmp_path / "MEMORY.md")})
    assert done.exit_code == 0, done.output
    assert reads.call_count == 1
