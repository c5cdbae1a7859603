"""docs/PASS.md, "Running it again": repeated uncapped runs reach a fixed point - a run that reports
no changes and leaves the file byte-identical - and a later run never reverts an earlier one's work
or reports an existing link again."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings

from core.clock import fixed_clock
from core.models import LinkOp
from core.stores.nuggets.store import NuggetsStore
from tests.support.graph_strategies import graph_notes
from tests.support.note_builders import NOW, file_notes, graph_file, make_home, sample_notes

MAX_RUNS = 8


def linked_pairs(notes: dict[str, dict]) -> set[tuple[str, str]]:
    return {(n["id"], x["to"]) for n in notes.values() for x in n.get("links") or []}


def runs_to_fixed_point(memory: NuggetsStore) -> int:
    """Reflect uncapped until a run changes nothing; checks every run on the way."""
    path = graph_file(memory.home)
    for run in range(1, MAX_RUNS + 1):
        before_bytes, before = path.read_bytes(), file_notes(memory.home)
        plan, entry = memory.reflect(uncapped=True)
        if not plan.result.changes:
            assert entry is None
            assert path.read_bytes() == before_bytes
            return run
        assert entry is not None
        after = file_notes(memory.home)
        # Never un-archive; never report a link that already existed either way.
        assert all(
            after[i].get("hidden") is True for i, n in before.items() if n.get("hidden") is True
        )
        existing = linked_pairs(before)
        for op in plan.operations:
            if isinstance(op, LinkOp):
                assert (op.note_id, op.other_id) not in existing
                assert (op.other_id, op.note_id) not in existing
    raise AssertionError(f"no fixed point within {MAX_RUNS} runs")


def test_the_sample_reaches_a_fixed_point_within_a_few_runs(tmp_path: Path) -> None:
    home = make_home(tmp_path, sample_notes())
    assert runs_to_fixed_point(NuggetsStore(home, fixed_clock(NOW))) <= 5


@settings(max_examples=40, deadline=None)
@given(graph_notes())
def test_generated_graphs_reach_a_fixed_point(notes: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as root:
        memory = NuggetsStore(make_home(Path(root), notes), fixed_clock(NOW))
        runs_to_fixed_point(memory)
        assert sorted(file_notes(memory.home)) == sorted(n["id"] for n in notes)
