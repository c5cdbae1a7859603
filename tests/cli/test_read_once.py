"""Every command reads and checks the graph file once (issue: linear at every shape): the
start-up messages and the command's own work share one snapshot."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

from core.stores.nuggets import graph_file as store
from nuggets_tui.cli import main
from tests.support.note_builders import make_home, note


@pytest.mark.parametrize(
    "command", [["reflect"], ["reflect", "--all"], ["reflect", "--json"], ["notes"], ["promote"]]
)
def test_a_command_reads_the_graph_file_once(tmp_path: Path, command: list[str]) -> None:
    home = make_home(
        tmp_path, [note("a", "deploy redis cache", hits=5), note("b", "deploy redis cache port")]
    )
    reads = mock.Mock(side_effect=store.parse_graph)
    with mock.patch.object(store, "parse_graph", reads):
        done = CliRunner().invoke(
            main,
            ["--home", str(home), *command],
            env={"NUGGETS_MEMORY_MD": str(tmp_path / "MEMORY.md")},
        )
    assert done.exit_code == 0, done.output
    assert reads.call_count == 1


def _applied(tmp_path: Path, name: str, fresh_plan: bool) -> tuple[bytes, dict]:
    """The graph file and the journal entry's images after applying the whole uncapped plan;
    `fresh_plan` False applies a copy of the plan that does not know the snapshot it came from
    (as a plan from another process), so apply replays every operation."""
    from core.clock import fixed_clock
    from core.stores.nuggets.store import NuggetsStore
    from tests.support.moments import at
    from tests.support.note_builders import sample_notes

    home = make_home(tmp_path / name, sample_notes())
    memory = NuggetsStore(home, fixed_clock(at("2026-11-01T09:00:00Z")))
    plan = memory.plan(uncapped=True)
    assert plan.operations
    if not fresh_plan:
        plan = plan.model_copy()
        plan._graph = None
    entry = memory.apply(plan)
    assert entry is not None
    return store.graph_path(home).read_bytes(), {"before": entry.before, "after": entry.after}


def test_applying_a_whole_plan_made_here_reads_no_graph_again_and_replays_nothing(
    tmp_path: Path,
) -> None:
    from core.clock import fixed_clock
    from core.notes.working_set import replay
    from core.stores.nuggets import store as memory_module
    from core.stores.nuggets.store import NuggetsStore
    from tests.support.moments import at
    from tests.support.note_builders import sample_notes

    home = make_home(tmp_path, sample_notes())
    memory = NuggetsStore(home, fixed_clock(at("2026-11-01T09:00:00Z")))
    plan = memory.plan(uncapped=True)
    reads = mock.Mock(side_effect=store.parse_graph)
    replays = mock.Mock(side_effect=replay)
    with (
        mock.patch.object(store, "parse_graph", reads),
        mock.patch.object(memory_module, "replay", replays),
    ):
        assert memory.apply(plan) is not None
    assert reads.call_count == 0
    assert replays.call_count == 0


def test_the_whole_plan_applied_from_its_images_writes_what_replaying_it_writes(
    tmp_path: Path,
) -> None:
    assert _applied(tmp_path, "images", True) == _applied(tmp_path, "replayed", False)
