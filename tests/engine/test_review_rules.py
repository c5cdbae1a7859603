"""Review rules (docs/REVIEW.md): matching a plan's changes (pure, the clock injected), the
precedence of the operator's own decisions, and rules saved as journaled runs that undo takes
back, the same on Nuggets and MicroClaw."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.errors import ArgumentError
from core.models import Plan
from core.plans.review_rules import (
    Rule,
    add_rule,
    age_days,
    decided_kept,
    parse_rule,
    parse_rules,
    read_rules,
    remove_rule,
    rule_decisions,
    rules_text,
)
from core.plans.review_state import ReviewState, change_key
from core.stores.nuggets.store import NuggetsStore
from core.stores.registry import open_store
from tests.support.console_support import NOW, demo_home


@pytest.fixture
def plan(tmp_path: Path) -> Plan:
    return NuggetsStore(demo_home(tmp_path), fixed_clock(NOW)).plan(uncapped=True)


def _of_kind(plan: Plan, kind: str) -> set[int]:
    return {i for i, c in enumerate(plan.result.changes, start=1) if c.type == kind}


def test_a_rule_on_kind_decides_exactly_those_changes(plan: Plan) -> None:
    decided = rule_decisions(plan, [parse_rule("no tags", "reject", kind="tag")], NOW)
    assert set(decided) == _of_kind(plan, "tag") != set()
    assert {d.rule for d in decided.values()} == {"no tags"}
    assert {d.action for d in decided.values()} == {"reject"}


def test_every_condition_must_hold_and_the_first_rule_wins(plan: Plan) -> None:
    change = plan.result.changes[0]
    narrow = parse_rule("narrow", "keep", kind=change.type, nugget=change.nugget_name)
    broad = parse_rule("broad", "review")
    decided = rule_decisions(plan, [narrow, broad], NOW)
    assert decided[1].rule == "narrow"
    same = {
        i
        for i, c in enumerate(plan.result.changes, start=1)
        if (c.type, c.nugget_name) == (change.type, change.nugget_name)
    }
    assert {i for i, d in decided.items() if d.rule == "narrow"} == same
    assert all(d.rule == "broad" for i, d in decided.items() if i not in same)


def test_text_step_hits_and_age_match_the_note_before(plan: Plan) -> None:
    before = {d.note_id: d.before for d in plan.notes}
    change = next(c for c in plan.result.changes if c.type == "merge")
    note = before[change.note_id]
    word = str(note["title"]).split()[0].upper()  # a text match folds case
    step = change.detail.split()[0].lower()
    age = age_days(note, NOW)
    assert age is not None
    rule = parse_rule(
        "this one",
        "keep",
        text=word,
        step=step,
        min_hits=int(note["hits"]),
        max_age_days=age,
        min_age_days=age,
    )
    assert rule_decisions(plan, [rule], NOW)[plan.result.changes.index(change) + 1]
    later = NOW + timedelta(days=1)  # a day on, the note is older than the rule allows
    assert plan.result.changes.index(change) + 1 not in rule_decisions(plan, [rule], later)
    more = parse_rule("more hits", "keep", text=word, min_hits=int(note["hits"]) + 1)
    assert plan.result.changes.index(change) + 1 not in rule_decisions(plan, [more], NOW)


def test_the_operators_decision_comes_before_a_rule_and_hold_keeps_only_what_was_kept(
    plan: Plan,
) -> None:
    keys = [change_key(op) for op in plan.operations]
    tags = sorted(_of_kind(plan, "tag"))
    rules = [
        parse_rule("keep tags", "keep", kind="tag"),
        parse_rule("look at links", "review", kind="link"),
    ]
    state = ReviewState({keys[tags[0] - 1]: False})  # the operator rejected one tag change
    default = plan.default_kept()
    kept, by_rule = decided_kept(plan, default, rules, state.decisions, keys, NOW)
    assert tags[0] not in kept and tags[0] not in by_rule
    assert set(tags[1:]) <= kept
    assert not kept & _of_kind(plan, "link")  # waits for a person
    assert _of_kind(plan, "hide") & default <= kept  # nobody decided: the plan's default
    held, _ = decided_kept(plan, default, rules, state.decisions, keys, NOW, hold=True)
    assert held == set(tags[1:])


@pytest.mark.parametrize(
    "conditions, why",
    [
        ({"action": "maybe"}, "action"),
        ({"kind": "shred"}, "kind"),
        ({"min_hits": -1}, "min-hits"),
        ({"name": " "}, "name"),
        ({"min_age_days": 10, "max_age_days": 3}, "min-age \\(10\\) is above its max-age \\(3\\)"),
        ({"min_hits": 5, "max_hits": 4}, "min-hits \\(5\\) is above its max-hits"),
    ],
)
def test_a_rule_that_cannot_be_is_one_line_argument_error(conditions: dict, why: str) -> None:
    given = {"name": "r", "action": "keep", **conditions}
    with pytest.raises(ArgumentError, match=why):
        parse_rule(**given)


def test_archive_is_the_kind_of_an_archiving_change_and_hide_is_read_as_archive(
    plan: Plan,
) -> None:
    archived = _of_kind(plan, "hide")
    assert archived
    for word in ("archive", "hide"):
        rule = parse_rule("no archiving", "reject", kind=word)
        assert rule.kind == "archive"
        assert set(rule_decisions(plan, [rule], NOW)) == archived
    saved_before = '{"rules": [{"name": "old", "action": "keep", "kind": "hide"}]}'
    assert parse_rules(saved_before)[0].describe() == "keep when kind=archive"


def test_a_rule_is_described_with_the_options_names_not_internal_ones() -> None:
    rule = parse_rule("old", "review", min_age_days=10, max_hits=3, nugget="work")
    assert rule.describe() == "review when nugget=work, min-age=10, max-hits=3"


def test_a_rule_naming_a_nugget_the_memory_lacks_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    store = NuggetsStore(demo_home(tmp_path), fixed_clock(NOW))
    with pytest.raises(ArgumentError, match="no nugget 'nope' in this memory .*project"):
        add_rule(store, parse_rule("r", "keep", nugget="nope"))
    assert read_rules(store.journal.home) == ([], None)
    add_rule(store, parse_rule("r", "keep", nugget="project"))
    assert [r.nugget for r in read_rules(store.journal.home)[0]] == ["project"]


def test_rules_read_back_as_written() -> None:
    rules = [Rule("a", "keep", kind="tag", min_hits=2), Rule("b", "review", text="ports")]
    assert parse_rules(rules_text(rules)) == rules
    with pytest.raises(ValueError):
        parse_rules('{"rules": [{"name": "x", "action": "drop"}]}')


@pytest.mark.parametrize("system", ["nuggets", "microclaw"])
def test_saving_a_rule_is_a_run_that_undo_takes_back(
    tmp_path: Path, data_dir: Path, system: str
) -> None:
    home = demo_home(tmp_path) if system == "nuggets" else data_dir
    store = open_store(home, system, fixed_clock(NOW))
    assert store.profile.capabilities.rules
    first = add_rule(store, parse_rule("no tags", "reject", kind="tag"))
    second = add_rule(store, parse_rule("links wait", "review", kind="link"))
    assert [r.name for r in read_rules(store.journal.home)[0]] == ["no tags", "links wait"]
    removed = remove_rule(store, "no tags")
    assert [r.name for r in read_rules(store.journal.home)[0]] == ["links wait"]
    newest = [h.run_id for h in store.journal.log()][:3]
    assert newest == [removed.run_id, second.run_id, first.run_id]
    store.journal.undo(removed.run_id)
    assert [r.name for r in read_rules(store.journal.home)[0]] == ["no tags", "links wait"]
    with pytest.raises(ArgumentError, match="no rule named"):
        remove_rule(store, "nope")


def test_a_store_that_writes_nothing_offers_no_rules(tmp_path: Path) -> None:
    from core.stores.purifier.store import PurifierStore

    assert not PurifierStore(tmp_path).profile.capabilities.rules
