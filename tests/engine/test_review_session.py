"""The review session (core/plans/session.py) without a console: a plan decided by the operator,
another writer's decisions taken in, only the kept changes applied; the unattended choice of
`reflect`/`daily` with review rules, the operator's decisions and --hold, and what it leaves
waiting."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.clock import fixed_clock, to_iso
from core.plans.review_rules import add_rule, parse_rule
from core.plans.review_state import ReviewState, change_key, read_state, state_path
from core.plans.session import ReviewSession, Trouble
from core.stores.nuggets.store import NuggetsStore
from tests.support.console_support import NOW, demo_home


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return demo_home(tmp_path)


def _state(home: Path) -> ReviewState:
    return read_state(NuggetsStore(home, fixed_clock(NOW)).journal.home)


def _session(home: Path) -> ReviewSession:
    """A session of its own store, as a second console or process would open."""
    session = ReviewSession(NuggetsStore(home, fixed_clock(NOW)), uncapped=True)
    session.planned(session.make_plan())
    return session


def _of_kind(session: ReviewSession, kind: str) -> list[int]:
    assert session.plan is not None
    return [i for i, c in enumerate(session.plan.result.changes, start=1) if c.type == kind]


def test_decisions_are_merged_another_writers_are_taken_in_and_only_kept_changes_apply(
    home: Path,
) -> None:
    mine, theirs = _session(home), _session(home)
    assert mine.plan is not None and mine.kept == mine.plan.default_kept()
    first, second = sorted(mine.kept)[:2]
    mine.decide([first], False)
    assert first not in mine.kept and not mine.reload()  # its own write is no news
    theirs.decide([second], False)  # another console: merged, not written over
    assert _state(home).decisions == {mine.keys[first - 1]: False, mine.keys[second - 1]: False}
    assert second in mine.kept
    assert mine.reload() and second not in mine.kept and first not in mine.kept
    assert not mine.reload()  # nothing new since
    assert mine.undecided() == (2, len(mine.keys) - 2)
    kept = set(mine.kept)
    entry = mine.apply()
    assert entry is not None
    assert {change_key(op) for op in entry.operations} == {mine.keys[i - 1] for i in kept}


def test_a_later_plan_keeps_the_decisions_and_marks_what_is_new(home: Path) -> None:
    first = _session(home)
    rejected = sorted(first.kept)[0]
    first.decide([rejected], False)
    again = _session(home)
    assert again.keys == first.keys and again.new == set()  # the same plan: nothing new
    assert rejected not in again.kept and again.undecided()[0] == 1


def test_an_unreadable_decisions_file_is_said_and_never_written_over(home: Path) -> None:
    told: list[tuple[Trouble, str]] = []
    store = NuggetsStore(home, fixed_clock(NOW))
    path = state_path(store.journal.home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("not json")
    session = ReviewSession(store, uncapped=True, on_trouble=lambda *said: told.append(said))
    assert session.error is not None and str(path) in session.error
    session.planned(session.make_plan())
    session.decide([sorted(session.kept)[0]], False)  # kept in memory for this review
    assert session.undecided()[0] == 1 and path.read_text() == "not json"


def test_the_unattended_choice_follows_rules_and_decisions_and_hold_leaves_the_rest_waiting(
    home: Path,
) -> None:
    store = NuggetsStore(home, fixed_clock(NOW))
    add_rule(store, parse_rule("keep tags", "keep", kind="tag"))
    add_rule(store, parse_rule("look at links", "review", kind="link"))
    review = _session(home)
    tags, links = _of_kind(review, "tag"), _of_kind(review, "link")
    assert len(tags) >= 2 and links
    review.decide([tags[0]], False)  # the operator's decision comes before the rule
    assert review.plan is not None
    session = ReviewSession(store)
    choose = session.unattended(hold=True)
    kept = choose(review.plan)
    assert kept == set(tags[1:])  # with --hold: only what a rule or the operator kept
    undecided = {review.keys[i - 1] for i in review.plan.default_kept() if i not in tags}
    assert set(choose.waiting) == undecided | {review.keys[i - 1] for i in links}
    assert choose.said[tags[0]] == "rejected by you"
    assert choose.said[tags[1]] == "kept by rule “keep tags”"
    since = session.leave_waiting(choose)
    assert since == to_iso(NOW)
    state = _state(home)
    assert state.waiting == choose.waiting and state.waiting_count() == len(choose.waiting)
    assert state.decisions == {review.keys[tags[0] - 1]: False}  # the decision stays
    without = ReviewSession(store).unattended()  # no --hold: the plan's default for the rest
    assert without(review.plan) == review.plan.default_kept() - {tags[0]} - set(links)


def test_nothing_waiting_writes_nothing_and_a_review_applied_clears_the_waiting(home: Path) -> None:
    store = NuggetsStore(home, fixed_clock(NOW))
    session = ReviewSession(store)
    nothing = session.unattended()
    assert session.leave_waiting(nothing) is None  # nothing waits, nothing waited
    assert not state_path(store.journal.home).exists()
    choose = session.unattended(hold=True)
    plan = store.plan(uncapped=True)
    choose(plan)
    assert choose.waiting and session.leave_waiting(choose) == to_iso(NOW)
    review = _session(home)  # the console opens on them
    assert review.state.waiting_count() == len(choose.waiting)
    review.applied()
    assert _state(home).waiting == [] and _state(home).waiting_since is None
