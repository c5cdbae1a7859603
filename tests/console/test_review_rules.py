"""Review rules in the console (docs/REVIEW.md): a group's decision saved as a named rule, the
rules deciding a new plan and named on each row, listed and edited with R, and the console
opening on the changes `daily --hold` left waiting."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.errors import ArgumentError
from core.models import kind_word
from core.plans.review_rules import add_rule, parse_rule, read_rules, replace_rule
from core.plans.review_state import change_key, read_state, write_state
from core.stores.microclaw.store import MicroClawStore
from core.stores.purifier.store import PurifierStore
from core.stores.registry import open_store
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.review import ChangeRow, Group, ReviewScreen
from nuggets_tui.screens.rules import EditRuleScreen, RulesScreen, SaveRuleScreen
from tests.support.console_support import NOW, make_app, settle
from tests.support.microclaw_support import NOW as MICROCLAW_NOW

SIZE = (120, 40)


async def _review(pilot, app) -> ReviewScreen:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    if not isinstance(app.screen, ReviewScreen):
        await pilot.press("r")
        await settle(pilot, app)
    screen = app.screen
    assert isinstance(screen, ReviewScreen) and screen.plan is not None
    return screen


def _store(home: Path):  # type: ignore[no-untyped-def]
    return open_store(home, "nuggets", fixed_clock(NOW))


async def test_a_groups_decision_is_saved_as_a_named_rule(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        first = next(row for row in review.table.rows if isinstance(row, Group))
        kind = review.plan.change_for(first.members[0]).type
        await pilot.press("n", "s")
        await settle(pilot, app)
        assert isinstance(app.screen, SaveRuleScreen)
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.screen is review
    (rule,) = read_rules(home)[0]
    assert (rule.action, rule.kind) == ("reject", kind_word(kind))  # a plan's hide: archive
    assert _store(home).log()[0].summary == f"rule added: {rule.name}"


async def test_rules_decide_a_new_plan_and_each_row_names_its_rule(home: Path) -> None:
    add_rule(_store(home), parse_rule("no tags", "reject", kind="tag"))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        assert review.plan is not None
        tags = {i for i, c in enumerate(review.plan.result.changes, start=1) if c.type == "tag"}
        assert tags and not tags & review.kept
        row = next(r for r in review.table.rows if isinstance(r, ChangeRow) and r.op_id in tags)
        assert review.rows.cells(row)[1].plain.startswith("no tags · ")
        assert "decided by review rules" in str(review.query_one("#review-counts").render())


async def test_R_lists_the_rules_and_edits_and_removes_them(home: Path) -> None:
    add_rule(_store(home), parse_rule("no tags", "reject", kind="tag"))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        await pilot.press("R")
        await settle(pilot, app)
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("a")
        await settle(pilot, app)
        assert [r.action for r in read_rules(home)[0]] == ["review"]
        await pilot.press("d", "y")
        await settle(pilot, app)
        assert read_rules(home)[0] == []
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is review and not review.rows.by_rule


async def _fill(pilot, field: str, text: str) -> None:  # type: ignore[no-untyped-def]
    box = pilot.app.screen.query_one(f"#form-{field}")
    box.value = ""
    box.focus()
    await pilot.press(*text)


async def test_e_renames_a_rule_and_edits_its_conditions_in_place_journaled(home: Path) -> None:
    add_rule(_store(home), parse_rule("no tags", "reject", kind="tag"))
    add_rule(_store(home), parse_rule("links wait", "review", kind="link"))
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await _review(pilot, app)
        await pilot.press("R")
        await settle(pilot, app)
        await pilot.press("e")
        await settle(pilot, app)
        assert isinstance(app.screen, EditRuleScreen)
        await _fill(pilot, "min_age_days", "soon")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, EditRuleScreen)  # refused in the form, nothing written
        assert "whole number" in str(app.screen.query_one("#form-error").render())
        assert _store(home).log()[0].summary == "rule added: links wait"
        await _fill(pilot, "min_age_days", "30")
        await _fill(pilot, "name", "tags out")
        await _fill(pilot, "nugget", "agent")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, RulesScreen)
    first, second = read_rules(home)[0]
    assert (first.name, first.action, first.kind, first.nugget, first.min_age_days) == (
        "tags out",
        "reject",
        "tag",
        "agent",
        30,
    )
    assert second.name == "links wait"
    assert _store(home).log()[0].summary == "rule renamed: no tags → tags out"


def test_a_rule_is_not_renamed_onto_another_nor_an_unknown_one_replaced(home: Path) -> None:
    store = _store(home)
    add_rule(store, parse_rule("a", "keep", kind="tag"))
    add_rule(store, parse_rule("b", "reject", kind="link"))
    for name, rule in (("a", parse_rule("b", "keep")), ("zz", parse_rule("c", "keep"))):
        with pytest.raises(ArgumentError):
            replace_rule(store, name, rule)
    assert [(r.name, r.kind) for r in read_rules(home)[0]] == [("a", "tag"), ("b", "link")]
    replace_rule(store, "b", parse_rule("b", "reject", kind="link", min_hits=3))
    assert [(r.name, r.min_hits) for r in read_rules(home)[0]] == [("a", None), ("b", 3)]
    assert store.log()[0].summary == "rule changed: b"


async def test_the_console_opens_on_the_changes_daily_left_waiting(home: Path) -> None:
    store = _store(home)
    keys = [change_key(op) for op in store.plan().operations]
    state = read_state(home)
    state.hold("2026-11-23T09:30:00Z", keys[:3])
    write_state(home, state)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        review = app.screen  # opened by itself, no key pressed
        assert isinstance(review, ReviewScreen)
        assert "3 changes waiting since 2026-11-23 09:30 UTC" in str(
            review.query_one("#review-counts").render()
        )


async def test_rules_work_the_same_on_microclaw(data_dir: Path) -> None:
    store = MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW))
    add_rule(store, parse_rule("stale waits", "review", step="bot step 'stale'"))
    app = NuggetsApp(MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW)))
    async with app.run_test(size=SIZE) as pilot:
        review = await _review(pilot, app)
        assert review.plan is not None
        stale = {
            i
            for i, c in enumerate(review.plan.result.changes, start=1)
            if "bot step 'stale'" in c.detail
        }
        assert stale and not stale & review.kept
        assert {d.rule for i, d in review.rows.by_rule.items() if i in stale} == {"stale waits"}
        await pilot.press("R")
        await settle(pilot, app)
        assert isinstance(app.screen, RulesScreen) and app.screen.rules[0].name == "stale waits"


async def test_a_read_only_store_offers_no_rules(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "after-reconciliation"
    root = tmp_path / "copy"
    shutil.copytree(fixture, root)
    app = NuggetsApp(PurifierStore(root / "workspace", fixed_clock(NOW)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("y")  # the purifier's preview asks first (its model may cost)
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.check_action("rules", ()) is False
        assert review.check_action("save_rule", ()) is False
        await pilot.press("R", "s")
        await settle(pilot, app)
        assert app.screen is review
    assert not (root / "workspace" / "review-rules.json").exists()
