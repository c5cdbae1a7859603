"""What happened since the console's last visit (core/plans/since_visit.py), on the demo: runs
applied after the visit counted with their undo ids, an undone run and runs before the visit
left out; what each review rule decided in an unattended run kept beside the decisions, and
told only when it came after the visit; the visit itself kept 0600."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.journal.entries import journal_dir
from core.plans.review_rules import add_rule, parse_rule
from core.plans.review_state import RuleCount, read_state
from core.plans.session import ReviewSession
from core.plans.since_visit import read_visit, since_visit, visit_path, write_visit
from core.stores.nuggets.store import NuggetsStore
from tests.support.console_support import NOW, demo_home


def _store(home: Path, hours: float = 0) -> NuggetsStore:
    return NuggetsStore(home, fixed_clock(NOW + timedelta(hours=hours)))


def test_runs_after_the_visit_are_told_an_undone_one_and_those_before_are_not(
    tmp_path: Path,
) -> None:
    home = demo_home(tmp_path)
    first = _store(home).reflect()[1]  # before the visit
    assert first is not None
    assert write_visit(home, NOW + timedelta(minutes=30))
    assert stat.S_IMODE(visit_path(home).stat().st_mode) == 0o600
    seen = read_visit(home)
    assert seen == NOW + timedelta(minutes=30)
    later = _store(home, 1)
    second = later.reflect()[1]
    undone = later.reflect()[1]
    assert second is not None and undone is not None
    later.journal.undo(undone.run_id)
    told = since_visit(_store(home, 2), seen)
    assert told.applied.undo == (second.run_id,)
    assert told.applied.changes == len(second.operations)
    assert since_visit(_store(home, 2), None).applied.undo == (second.run_id, first.run_id)
    mine = frozenset({second.run_id})  # applied in the open console: no news to its person
    assert since_visit(_store(home, 2), None, mine).applied.undo == (first.run_id,)


def test_what_each_rule_decided_unattended_is_kept_and_told_after_the_visit(
    tmp_path: Path,
) -> None:
    home = demo_home(tmp_path)
    store = _store(home)
    add_rule(store, parse_rule("tags", "keep", kind="tag"))
    session = ReviewSession(store)
    choose = session.unattended(hold=True)
    store.reflect(choose=choose)
    session.leave_waiting(choose)
    tags = sum(d.rule == "tags" for d in choose.by_rule.values())
    assert tags and read_state(home).ruled == [RuleCount("tags", "keep", tags)]
    assert since_visit(store, None).rules == (RuleCount("tags", "keep", tags),)
    assert since_visit(store, NOW).rules == ()  # ran at the visit's moment: not after it


def test_what_runs_wrote_is_counted_from_their_headers_not_their_whole_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the console reads only the journal's headers: an uncapped run journals every
    note image it wrote, and the journal keeps 30 runs."""
    home = demo_home(tmp_path)
    applied = _store(home).reflect()[1]
    assert applied is not None
    store = _store(home, 1)

    def whole(run_id: str) -> None:
        raise AssertionError(f"{run_id} read whole")

    monkeypatch.setattr(store.journal, "run", whole)
    told = since_visit(store, None)
    assert told.applied.changes == len(applied.operations) and told.applied.undo


def test_a_header_written_before_changes_were_counted_is_still_read_and_counted(
    tmp_path: Path,
) -> None:
    home = demo_home(tmp_path)
    applied = _store(home).reflect()[1]
    assert applied is not None
    (path,) = journal_dir(home).glob("*.json")
    head, newline, body = path.read_bytes().partition(b"\n")
    older = {k: v for k, v in json.loads(head).items() if k != "changes"}
    path.write_bytes(json.dumps(older, separators=(",", ":")).encode() + newline + body)
    store = _store(home, 1)
    assert store.journal.run(applied.run_id).operations  # its header still matches its body
    assert since_visit(store, None).applied.changes == len(applied.operations)
