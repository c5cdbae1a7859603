"""The console speaks each store's own words (docs/STORES.md, `Profile`): the review's header
says what the plan covered as the store puts it, and the sidebar counts facts and draws the
recall histogram only for a store whose notes have them. Nuggets' wording is unchanged."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import OptionList

from core.contract.profile import Profile
from core.models import Plan, ReflectionResult
from core.stores.claude.presentation import PROFILE as CLAUDE
from core.stores.microclaw.presentation import PROFILE as MICROCLAW
from core.stores.nuggets.presentation import PROFILE as NUGGETS
from core.stores.purifier.presentation import PROFILE as PURIFIER
from nuggets_tui.app import NuggetsApp
from nuggets_tui.screens.review import ReviewScreen, cap_text, counts_text
from tests.support.console_support import demo_home, make_app, settle

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
NUGGETS_WHOLE = "Whole graph, no cap: 3 notes inspected; merges and links unbounded."
NUGGETS_CAPPED = "Capped: 3 notes inspected; merges and links count separately, up to 10 each."


def plan(uncapped: bool, inspected: int = 3) -> Plan:
    result = ReflectionResult(ran_at="2026-11-25T09:00:00Z", inspected=inspected)
    return Plan(
        ran_at=result.ran_at,
        base_fingerprint="x",
        limit=0,
        uncapped=uncapped,
        result=result,
        operations=[],
        notes=[],
    )


def test_nuggets_header_is_unchanged_whole_or_capped() -> None:
    assert cap_text(plan(True), NUGGETS).plain == NUGGETS_WHOLE
    assert cap_text(plan(False), NUGGETS).plain == NUGGETS_CAPPED


@pytest.mark.parametrize("words", [CLAUDE, MICROCLAW, PURIFIER], ids=lambda w: w.system)
@pytest.mark.parametrize("uncapped", [True, False])
def test_other_stores_say_what_their_plan_covered(words: Profile, uncapped: bool) -> None:
    header = cap_text(plan(uncapped, inspected=1), words).plain
    assert "graph" not in header and "merges and links" not in header
    assert not header.startswith("Capped")  # none of them caps its plan
    assert "1 note " in header  # the count, in the singular


def test_a_store_with_no_words_for_its_plan_says_only_the_count() -> None:
    bare = Profile("X", "file", "pass", "nothing", "{threshold}", "nothing")
    assert cap_text(plan(True, inspected=1_200), bare).plain == "1,200 notes inspected."


def sidebar(app: NuggetsApp) -> str:
    shown = [str(w.render()) for w in app.screen.query("#sidebar *")]
    options = app.screen.query_one("#nuggets", OptionList)
    return "\n".join(
        shown + [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    )


async def test_claude_sidebar_counts_no_facts_and_draws_no_recalls(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        text = sidebar(claude_app)
        assert "archived" in text
        assert "fact" not in text and "ecall" not in text
        assert not claude_app.screen.query("#overview-hits")
        assert "all types" in text and "nugget" not in text  # a topic file's type groups it
        assert "all types" in str(claude_app.screen.query_one("#notes").border_title)


async def test_nuggets_sidebar_still_counts_facts_and_recalls(tmp_path: Path) -> None:
    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        text = sidebar(app)
        assert " facts" in text and "Recalls 0 → 9+" in text and "recalled 3+ times" in text
        assert "all nuggets" in text
        assert app.screen.query("#overview-hits")


async def test_claude_review_header_at_80_columns(claude_app: NuggetsApp) -> None:
    async with claude_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, claude_app)
        await pilot.press("r")
        await settle(pilot, claude_app, pause=0.2)
        assert isinstance(claude_app.screen, ReviewScreen)
        header = str(claude_app.screen.query_one("#review-counts").render())
        assert "The directory against its last review" in header
        assert "Whole graph" not in header and "Capped" not in header


def figures(words: Profile) -> str:
    return counts_text(plan(True), set(), None, words=words).plain.splitlines()[2]


def test_the_header_counts_only_the_kinds_of_change_a_store_plans() -> None:
    assert figures(NUGGETS) == "0 rewritten · 0 merged · 0 archived · 0 tagged · 0 linked"
    assert figures(CLAUDE) == "0 rewritten · 0 merged · 0 archived"
    assert "merged" not in figures(PURIFIER) and "linked" not in figures(PURIFIER)


@pytest.mark.parametrize(
    ("words", "every", "one"),
    [
        (NUGGETS, "all nuggets", "nugget deploys"),
        (MICROCLAW, "all scopes", "scope deploys"),
        (PURIFIER, "all homes", "home deploys"),
        (CLAUDE, "all types", "type deploys"),
    ],
    ids=lambda v: v.system if isinstance(v, Profile) else v,
)
def test_the_review_names_what_it_covers_in_the_stores_words(
    words: Profile, every: str, one: str
) -> None:
    first = counts_text(plan(True), set(), None, words=words).plain.splitlines()[0]
    assert first.endswith(f" on {every}")
    assert one in counts_text(plan(True), set(), "deploys", words=words).plain
    grouped = counts_text(plan(True), set(), None, grouping="nugget", words=words).plain
    assert f"· by {one.split()[0]} ·" in grouped
