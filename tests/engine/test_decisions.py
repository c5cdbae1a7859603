"""Decisions (docs/VERDICTS.md, "Deciding"): each one's result on disk, its journal entry and its
undo."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from core.clock import fixed_clock
from core.contract.profile import Profile
from core.contract.store import Store
from core.errors import NuggetsError, UnknownNoteError
from core.models import MergeOp, SupersedeOp
from core.review.contradictions import Group, find_contradictions
from core.review.decisions import (
    decision_operations,
    open_groups,
    plan_decision,
    read_settled,
    settle_both,
    settled_path,
)
from core.stores.nuggets.store import NuggetsStore
from tests.support.conflict_builders import answers_memory
from tests.support.note_builders import NOW, NOW_ISO, file_notes, graph_file


@pytest.fixture
def home(answers_home: Path) -> Path:
    return answers_home


def the_group(memory: NuggetsStore) -> Group:
    (group,) = find_contradictions(memory.shelf().notes)
    return group


def test_one_stands_archives_the_others_with_a_link_and_undo_restores(home: Path) -> None:
    memory = NuggetsStore(home, fixed_clock(NOW))
    before = graph_file(home).read_bytes()
    plan = plan_decision(memory, the_group(memory), "a-bullets")
    assert [type(op) for op in plan.operations] == [SupersedeOp] * 3
    assert graph_file(home).read_bytes() == before  # planning writes nothing
    entry = memory.apply(plan)
    assert entry is not None and entry.kind == "decide"
    notes = file_notes(home)
    assert notes["a-bullets"] == answers_memory()[1]  # the note that stands is untouched
    for other in ("a-direct", "a-direct-2", "a-short"):
        assert notes[other]["hidden"] is True
        assert notes[other]["archivedAt"] == NOW_ISO
        assert notes[other]["links"][-1] == {
            "to": "a-bullets",
            "reason": "superseded by a-bullets",
            "createdAt": NOW_ISO,
        }
    assert notes["lone"]["hidden"] is False
    assert find_contradictions(list(notes.values())) == []  # decided: no longer listed
    memory.undo(entry.run_id)
    assert {i: n.get("hidden") for i, n in file_notes(home).items()} == {
        n["id"]: False for n in answers_memory()
    }
    assert all(not n["links"] for n in file_notes(home).values())


def test_merge_folds_the_others_into_the_kept_note_and_undo_restores(home: Path) -> None:
    memory = NuggetsStore(home, fixed_clock(NOW))
    plan = plan_decision(memory, the_group(memory), "a-direct", how="merge")
    assert [type(op) for op in plan.operations] == [MergeOp] * 3
    assert plan.result.merged == 3
    entry = memory.apply(plan)
    notes = file_notes(home)
    kept = notes["a-direct"]["content"]
    assert "bullet-point answers" in kept and "Short answers" in kept
    assert notes["a-short"]["hidden"] is True
    assert notes["a-short"]["links"][-1]["reason"] == "merged into a-direct"
    memory.undo(entry.run_id)
    assert file_notes(home)["a-direct"]["content"] == answers_memory()[0]["content"]
    assert file_notes(home)["a-short"]["hidden"] is False


def test_keeping_a_note_outside_the_group_is_refused(home: Path) -> None:
    memory = NuggetsStore(home, fixed_clock(NOW))
    with pytest.raises(UnknownNoteError, match="note lone is not in group c-"):
        decision_operations(the_group(memory), "lone", "keep", NOW_ISO)


def test_both_stand_is_remembered_until_a_note_changes(home: Path) -> None:
    memory = NuggetsStore(home, fixed_clock(NOW))
    graph_before = graph_file(home).read_bytes()
    group = the_group(memory)
    by_id = {n["id"]: n for n in memory.shelf().notes}
    assert read_settled(home) == set()
    entry = settle_both(memory, group, by_id)
    assert entry is not None and entry.kind == "decide"  # a journaled run
    assert settle_both(memory, group, by_id) is None  # already remembered
    assert settled_path(home).parent == home and graph_file(home).read_bytes() == graph_before
    assert open_groups([group], by_id, read_settled(home)) == []
    changed = by_id | {"a-short": by_id["a-short"] | {"content": "Short answers, two lines"}}
    assert open_groups([group], changed, read_settled(home)) == [group]
    memory.undo(entry.run_id)  # taken back like any run: the group is asked again
    assert read_settled(home) == set() and not settled_path(home).exists()
    assert open_groups([group], by_id, read_settled(home)) == [group]


def test_a_store_that_cannot_plan_decisions_says_so() -> None:
    class Bare:  # a store without a decider, saying why in its profile
        decider = None
        profile = Profile(
            "MicroClaw",
            "",
            "",
            "",
            "",
            "",
            refusal="deciding contradictions "
            "and acting on verdicts is not available for MicroClaw yet",
        )

    (group,) = find_contradictions(answers_memory())
    with pytest.raises(NuggetsError, match="not available for MicroClaw yet"):
        plan_decision(cast(Store, Bare()), group, "a-short")  # what is asked of it only
