"""Every store keeps the contract's promises (docs/STORES.md, "What a store must guarantee"),
proven on each registered kind's demo: a dry run writes nothing anywhere; a plan made stale by
another program is refused whole, and makes nothing; an apply is taken back byte for byte by
its undo; a kill at any step of an apply is settled the next time the memory is opened, with no
file left half-made anywhere. What a store does not offer is skipped by the capability's or the
part's name."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from core.contract.store import Store
from core.errors import PlanUnavailable, StalePlanError
from core.journal.history import last_undoable
from core.models import Plan
from core.notes import fields
from core.plans.review_rules import add_rule, parse_rule, store_rules
from core.review.contradictions import find_by_rules
from core.review.decisions import plan_decision
from core.review.marks import mark_notes
from tests.contract.conftest import (
    Opened,
    another_writer,
    every_file,
    everything,
    everything_but_databases,
    materialize,
    memory_files,
    needs,
    needs_not,
    needs_part,
    open_demo,
)
from tests.support.reliability_support import run_in_child, traced_steps


def _subset(plan: Plan) -> set[int]:
    """Every other change kept, the rest left out: an apply that writes both kinds."""
    return {op.id for op in plan.operations[::2]}


def _undo_all(store: Store) -> None:
    """Take back every run of ours still in effect, newest first."""
    while (entry := last_undoable(store.journal.log())) is not None:
        store.journal.undo(entry.run_id)


def planned(store: Store) -> Plan:
    """The store's plan; a store whose own program cannot plan here (the purifier's demo: no
    purifier installed) says so in one line, and the test has no plan to go on with."""
    try:
        return store.plan(uncapped=True)
    except PlanUnavailable as exc:
        assert "\n" not in str(exc)
        pytest.skip(f"its plan is unavailable here: {exc}")


def test_its_kind_names_the_system_as_its_profile_does(opened: Opened) -> None:
    """Where no store is open yet (the console's offer of each demo), the kind's title."""
    assert opened.kind.title == opened.store.profile.system
    assert opened.kind.demo_about and "\n" not in opened.kind.demo_about


def test_a_dry_run_writes_nothing_anywhere(opened: Opened) -> None:
    store = opened.store
    store.read()  # a store that records what it reads (Claude Code) has done so now
    before = everything(opened.root)
    with contextlib.suppress(PlanUnavailable):  # refused, in one line: still writes nothing
        store.is_stale(store.plan(uncapped=True))
    store.take_notices()
    assert everything(opened.root) == before


def test_a_stale_plan_is_refused_whole(opened: Opened) -> None:
    store = opened.store
    plan = planned(store)
    another_writer(opened.kind)(store)
    files, journal = memory_files(opened), every_file(store.journal.folder)
    assert store.is_stale(plan)
    with pytest.raises(StalePlanError):
        store.apply(plan, _subset(plan))
    assert memory_files(opened) == files
    assert every_file(store.journal.folder) == journal


def test_a_stale_plan_refused_makes_no_file_or_folder(opened: Opened) -> None:
    """Refused under the store's lock: neither the lock nor anything else leaves a folder or a
    file behind (lock files aside), in the memory or in our data directory."""
    store = opened.store
    plan = planned(store)
    another_writer(opened.kind)(store)
    store.read()  # a store that records what it reads (Claude Code) has recorded the change
    before = everything_but_databases(opened.root)
    with pytest.raises(StalePlanError):
        store.apply(plan, _subset(plan))
    assert everything_but_databases(opened.root) == before


def test_apply_then_undo_gives_back_the_memory_byte_for_byte(opened: Opened) -> None:
    store = opened.store
    needs_not(store, "runs_itself")
    files, before = memory_files(opened), store.read()
    plan = store.plan(uncapped=True)
    assert plan.operations, "the demo gives the pass something to do"
    entry = store.apply(plan, _subset(plan))
    assert entry is not None
    assert opened.reopen().read().fingerprint != before.fingerprint
    opened.reopen().journal.undo(entry.run_id)
    after = opened.reopen().read()
    assert after.fingerprint == before.fingerprint
    assert memory_files(opened) == files


def test_archive_and_unhide_by_hand_are_taken_back(opened: Opened) -> None:
    store = opened.store
    needs(store, "manual_archive")
    before = store.read()
    visible = next(n["id"] for n in before.notes if not fields.hidden(n))
    archived = store.by_hand.archive([visible])
    assert archived is not None
    assert fields.hidden(opened.reopen().read().get(visible) or {})
    unhid = opened.reopen().by_hand.unhide([visible])
    assert unhid is not None
    _undo_all(opened.reopen())
    assert opened.reopen().read().fingerprint == before.fingerprint


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_kill_at_every_step_of_an_apply_is_settled(opened: Opened, tmp_path: Path) -> None:
    """Killed (SIGKILL) after each step an apply takes, on a fresh copy of the demo each time:
    opening the memory again leaves no write under way nor any file half-made anywhere (the
    memory, our journal, our record of what was seen), and every run it kept is whole (taking
    back every run gives the memory it started from)."""
    needs_not(opened.store, "runs_itself")
    kind, original = opened.kind, opened.store.read().fingerprint

    def apply_fresh(demo: Opened) -> None:
        store = open_demo(kind, demo.home, demo.settings)
        plan = store.plan(uncapped=True)
        store.apply(plan, _subset(plan))

    traced = materialize(kind, tmp_path / "traced")
    steps = traced_steps(lambda: apply_fresh(traced))
    assert steps, "an apply passes through the crash points"
    for number in range(1, len(steps) + 1):
        trial = materialize(kind, tmp_path / f"kill-{number}")
        child = run_in_child(lambda demo=trial: apply_fresh(demo), crash_at=number)
        assert child.killed, (number, steps[number - 1], child)
        reopened = trial.reopen()  # settles what the kill left
        assert _writes_under_way(trial.root) == [], steps[number - 1]
        reopened.read()
        _undo_all(reopened)
        assert trial.reopen().read().fingerprint == original, steps[number - 1]


def _writes_under_way(root: Path) -> list[str]:
    """What a write under way leaves anywhere under `root` (the memory and our data directory:
    our journal, our small files, our record of what was seen): pending journal entries,
    temporary, part and swap files."""
    return sorted(
        str(p) for p in root.rglob("*") if p.name.endswith(".pending") or ".nuggets-" in p.name
    )


# -- what only some stores offer: skipped by the capability's or the part's name -------------


def test_a_merge_decision_is_a_plan_of_the_store(opened: Opened) -> None:
    store = opened.store
    needs(store, "merge")
    needs_part(store, "decider")
    graph = store.read()
    group = next(
        g
        for g in find_by_rules(graph.notes, store.topic_rules())
        if not g.outdated and not g.duplicate
    )
    plan = plan_decision(store, group, group.note_ids[0], "merge", graph=graph)
    entry = store.apply(plan)
    assert entry is not None and entry.kind == "decide"
    opened.reopen().journal.undo(entry.run_id)
    assert opened.reopen().read().fingerprint == graph.fingerprint


def test_a_review_rule_is_a_run_that_undo_takes_back(opened: Opened) -> None:
    store = opened.store
    needs(store, "rules")
    entry = add_rule(store, parse_rule("no tags", "reject", kind="tag"))
    assert [r.name for r in store_rules(opened.reopen())] == ["no tags"]
    opened.reopen().journal.undo(entry.run_id)
    assert store_rules(opened.reopen()) == []


def test_a_mark_is_a_run_that_undo_takes_back(opened: Opened) -> None:
    store = opened.store
    needs(store, "marks")
    files = memory_files(opened)
    note = store.read().notes[0]
    entry = mark_notes(store, [note["id"]], "reviewed")
    assert entry is not None
    assert opened.reopen().read().get(note["id"])["mark"] == "reviewed"
    opened.reopen().journal.undo(entry.run_id)
    assert "mark" not in (opened.reopen().read().get(note["id"]) or {})
    assert memory_files(opened) == files  # kept beside our journal, never in the memory


def test_promotion_is_a_run_that_undo_takes_back(opened: Opened) -> None:
    store = opened.store
    needs_part(store, "promoter")
    assert store.promoter is not None
    files = memory_files(opened)
    plan, added = store.promoter.promote_now(threshold=1)
    runs = store.promoter.promotion_runs
    assert runs or not plan.changes_file, plan.refused
    for run in reversed(runs):
        opened.reopen().journal.undo(run.run_id)
    assert memory_files(opened) == files


def test_kept_versions_are_listed_and_read(opened: Opened) -> None:
    store = opened.store
    needs_part(store, "versions")
    assert store.versions is not None
    store.read()
    kept = store.versions.kept_versions()
    assert kept
    assert all(store.versions.version_text(v) is not None for v in kept if v.size is not None)


def test_a_set_aside_note_is_restored_into_a_file_and_taken_back(opened: Opened) -> None:
    store = opened.store
    needs_part(store, "restorer")
    restorer = store.restorer
    assert restorer is not None
    note = next(n for n in store.read().notes if restorer.restorable(n))
    into = opened.home / "MEMORY.md"
    before = into.read_bytes() if into.exists() else None
    assert restorer.restore_diff([note["id"]], into)
    entry = restorer.restore([note["id"]], into)
    assert (into.read_bytes() if into.exists() else None) != before
    opened.reopen().journal.undo(entry.run_id)
    assert (into.read_bytes() if into.exists() else None) == before
