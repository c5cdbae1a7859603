"""The plan is what the bot will do at its next runs (docs/MICROCLAW.md, "The bot's maintenance
as a plan"), one test per bot step, on hand-built rows: the exact operations, which are left
out by default, and each operation's label."""

from __future__ import annotations

import random

from core.models import HideOp, KeepOp, LinkOp, Plan
from core.stores.microclaw.config import BotConfig, config_of, parse_settings
from core.stores.microclaw.rows import rfc3339
from core.stores.microclaw.rules import (
    OUR_SUGGESTION,
    STEP_CHAT_CAP,
    STEP_CONSOLIDATION,
    STEP_EXPIRED,
    STEP_GLOBAL_CAP,
    STEP_STALE,
    _Row,
    consolidation_picks,
    plan_maintenance,
)
from core.stores.microclaw.topics import bot_jaccard
from tests.support.microclaw_support import NOW, ago, notes, row

AT = rfc3339(NOW)
ON = BotConfig(consolidation=True)
IDLE = {7: (ago(1), ago(1))}  # chat 7's last message a day ago: idle 6 h or more
ACTIVE = {7: (ago(0.001), ago(0.001))}  # a user message a minute and a half ago


def plan_of(
    *rows: dict,
    nugget: str | None = None,
    config: BotConfig | None = None,
    activity: dict | None = None,
) -> Plan:
    return plan_maintenance(notes(*rows), NOW, "base", nugget, config, activity)


def hidden_ids(plan: Plan) -> list[str]:
    return [op.note_id for op in plan.operations if isinstance(op, HideOp)]


def applied_by_default(plan: Plan) -> list[str]:
    kept = plan.default_kept()
    return [op.note_id for op in plan.operations if op.id in kept]


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# -- the bot's Jaccard -------------------------------------------------------------------------


def test_bot_jaccard_is_case_sensitive_whitespace_words_and_two_empty_texts_are_equal() -> None:
    assert bot_jaccard(words("User likes tea"), words("User likes tea")) == 1.0
    assert bot_jaccard(words("User likes tea"), words("user likes tea")) == 0.5
    assert bot_jaccard(words("likes tea."), words("likes tea")) == 1 / 3
    assert bot_jaccard(words(""), words("")) == 1.0


# -- step: expired (the bot deletes) -----------------------------------------------------------


def test_expired_rows_archived_or_not_are_shown_as_deletions_with_a_rescue_left_out() -> None:
    plan = plan_of(
        row(1, expires_at=ago(1)),  # expired yesterday
        row(2, expires_at=ago(-1)),  # expires tomorrow
        row(3, expires_at=rfc3339(NOW)),  # expires this instant (the bot: <= now)
        row(4, expires_at="someday"),  # unreadable: kept
        row(5, expires_at=ago(3), is_archived=1),  # archived: the bot deletes it too
    )
    assert plan.operations == [
        KeepOp(id=1, note_id="mc-1"),
        KeepOp(id=2, note_id="mc-3"),
        KeepOp(id=3, note_id="mc-5"),
    ]
    assert hidden_ids(plan) == [] and applied_by_default(plan) == []
    assert plan.unkept_by_default == [1, 2, 3]
    detail = plan.result.changes[0].detail
    assert detail.startswith(STEP_EXPIRED) and "the bot will DELETE this row" in detail
    assert "archived row" in plan.result.changes[2].detail
    after = {d.note_id: d.after for d in plan.notes}
    assert after["mc-1"]["microclaw"]["row"]["expires_at"] is None
    assert after["mc-1"]["hidden"] is False  # never archived


def test_a_row_both_stale_and_expired_is_not_archived_the_bot_deletes_it() -> None:
    plan = plan_of(row(1, confidence=0.1, seen=50, expires_at=ago(2)))
    assert plan.operations == [KeepOp(id=1, note_id="mc-1")]


# -- step: stale -------------------------------------------------------------------------------


def test_stale_rows_are_low_confidence_and_unseen_for_more_than_30_days() -> None:
    plan = plan_of(
        row(1, confidence=0.2, seen=31),  # stale
        row(2, confidence=0.2, seen=29),  # seen recently
        row(3, confidence=0.35, seen=60),  # not below 0.35
        row(4, confidence=0.1, seen=90, is_archived=1, archived_at=ago(50)),  # archived already
        row(6, confidence=0.3, seen=None, updated_at=ago(40)),  # falls back to updated_at
    )
    assert plan.operations == [HideOp(id=1, note_id="mc-1"), HideOp(id=2, note_id="mc-6")]
    assert applied_by_default(plan) == ["mc-1", "mc-6"]
    assert plan.result.changes[0].detail.startswith(
        f"{STEP_STALE}: confidence 0.20 below 0.35 and last seen 31 days ago"
    )
    [diff, _] = plan.notes
    assert diff.after["microclaw"]["row"] == {
        **diff.before["microclaw"]["row"],
        "is_archived": 1,
        "archived_at": AT,
        "updated_at": AT,
    }


# -- step: global cap --------------------------------------------------------------------------


def test_global_rows_are_capped_every_tick_after_stale_and_expired() -> None:
    rows = [row(i, chat_id=None, confidence=0.9) for i in range(1, 502)]
    plan = plan_of(*rows)
    assert hidden_ids(plan) == ["mc-1"] and applied_by_default(plan) == ["mc-1"]
    assert plan.result.changes[0].detail.startswith(STEP_GLOBAL_CAP)
    rows[5] = row(6, chat_id=None, confidence=0.2, seen=60)
    assert hidden_ids(plan_of(*rows)) == ["mc-6"]  # stale; then 500 remain
    rows[5] = row(6, chat_id=None, expires_at=ago(1))
    assert hidden_ids(plan_of(*rows)) == []  # deleted by the bot first; 500 remain
    assert hidden_ids(plan_of(*rows[:3], config=BotConfig(global_cap=2))) == ["mc-1"]
    assert hidden_ids(plan_of(*rows, config=BotConfig(global_cap=0))) == []  # 0: no cap


# -- step: per-chat cap ------------------------------------------------------------------------


def test_a_chats_cap_is_shown_for_when_it_is_next_active_and_left_out_by_default() -> None:
    rows = [row(i, confidence=0.9) for i in range(1, 201)]
    rows += [
        row(201, confidence=0.5, seen=2),
        row(202, confidence=0.5, seen=5),
        row(203, confidence=0.4, seen=1),
    ]
    plan = plan_of(*rows)
    assert hidden_ids(plan) == ["mc-203", "mc-202", "mc-201"]
    assert applied_by_default(plan) == []
    detail = plan.result.changes[0].detail
    assert detail.startswith(f"{STEP_CHAT_CAP}: 203 active rows in chat telegram:555")
    assert "not before the chat is active" in detail
    active = plan_of(*rows, activity=ACTIVE)
    assert "in the last 30 minutes" in active.result.changes[0].detail
    assert hidden_ids(plan_of(*rows, config=BotConfig(chat_cap=202))) == ["mc-203"]


# -- step: sleep-time consolidation ------------------------------------------------------------

TEN = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
ELEVEN = TEN + " lambda"
TWELVE = ELEVEN + " mu"


def test_consolidation_on_archives_greedily_against_kept_rows_with_no_edge() -> None:
    # A~B (0.91) and B~C (0.92) but A!~C (0.83 < 0.9): greedy keeps A, archives B, keeps C.
    chain = plan_of(
        row(1, TEN, confidence=0.9),
        row(2, ELEVEN, confidence=0.8),
        row(3, TWELVE, confidence=0.7),
        config=BotConfig(consolidation=True, threshold=0.9),
        activity=IDLE,
    )
    assert chain.operations == [HideOp(id=1, note_id="mc-2")]
    assert not any(isinstance(op, LinkOp) for op in chain.operations)
    detail = chain.result.changes[0].detail
    assert detail.startswith(STEP_CONSOLIDATION) and "near-duplicate of mc-1" in detail
    assert applied_by_default(chain) == ["mc-2"]


def test_consolidation_keeps_the_higher_confidence_then_the_later_seen_row() -> None:
    assert hidden_ids(
        plan_of(row(1, TEN, confidence=0.6), row(2, TEN, confidence=0.9), config=ON, activity=IDLE)
    ) == ["mc-1"]
    assert hidden_ids(
        plan_of(row(1, TEN, seen=3), row(2, TEN, seen=9), config=ON, activity=IDLE)
    ) == ["mc-2"]
    assert hidden_ids(plan_of(row(5, TEN), row(3, TEN), config=ON, activity=IDLE)) == ["mc-5"]


def test_consolidation_skips_profile_global_busy_chats_and_stops_at_its_limit() -> None:
    assert (
        hidden_ids(
            plan_of(
                row(1, TEN, category="PROFILE"),
                row(2, TEN, category="PROFILE"),
                config=ON,
                activity=IDLE,
            )
        )
        == []
    )
    assert (
        hidden_ids(plan_of(row(1, TEN, category="EVENT"), row(2, TEN), config=ON, activity=IDLE))
        == []
    )
    assert (
        hidden_ids(
            plan_of(row(1, TEN, chat_id=None), row(2, TEN, chat_id=None), config=ON, activity=IDLE)
        )
        == []
    )
    assert hidden_ids(plan_of(row(1, TEN), row(2, TEN), config=ON, activity=ACTIVE)) == []
    assert hidden_ids(plan_of(row(1, TEN), row(2, TEN), config=ON)) == []  # no messages
    many = [row(i, TEN) for i in range(1, 6)]
    limited = BotConfig(consolidation=True, max_per_pass=2)
    assert hidden_ids(plan_of(*many, config=limited, activity=IDLE)) == ["mc-2", "mc-3"]


def test_consolidation_off_offers_the_same_finding_as_our_own_suggestion_left_out() -> None:
    plan = plan_of(row(1, TEN, confidence=0.9), row(2, TEN, confidence=0.5))
    assert plan.operations == [HideOp(id=1, note_id="mc-2")]
    assert plan.unkept_by_default == [1] and applied_by_default(plan) == []
    assert plan.result.changes[0].detail.startswith(OUR_SUGGESTION)


def test_the_consolidation_index_finds_what_the_bots_plain_greedy_scan_finds() -> None:
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(12)] + ["A", "a", "b."]
    for _ in range(600):
        rows = [
            row(
                k,
                " ".join(rng.sample(vocab, rng.randrange(0, 15))) or " ",
                confidence=rng.choice((0.5, 0.7, 0.9)),
                seen=rng.choice((1, 2, 3)),
            )
            for k in range(1, rng.randrange(3, 30))
        ]
        threshold = rng.choice((0.25, 1 / 3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.82, 0.9, 1.0))
        group = [_Row.of(n) for n in notes(*rows)]
        found = [loser.row_id for loser, _, _ in consolidation_picks(group, threshold, 20)]
        ordered = sorted(rows, key=lambda r: r["id"])
        ordered.sort(key=lambda r: r["last_seen_at"], reverse=True)
        ordered.sort(key=lambda r: r["confidence"], reverse=True)
        kept: list[dict] = []
        plain = []
        for r in ordered:
            if any(
                bot_jaccard(words(k["content"]), words(r["content"])) >= threshold
                for k in kept
                if k["category"] == r["category"]
            ):
                plain.append(r["id"])
            else:
                kept.append(r)
        assert found == plain[:20]


# -- the bot's config --------------------------------------------------------------------------


def test_the_bots_config_sets_the_caps_and_consolidation_with_its_defaults_and_clamps() -> None:
    text = (
        "memory_max_global_entries: 50  # fewer\nmemory_max_entries_per_chat: 0\n"
        "sleep_time:\n  enabled: true\n  similarity_threshold: 0.3\n"
        "  max_archived_per_pass: 0\nother:\n  - x\n"
    )
    config = config_of(parse_settings(text), "here")
    assert (config.global_cap, config.chat_cap, config.consolidation) == (50, 0, True)
    assert (config.threshold, config.max_per_pass, config.idle_hours) == (0.5, 1, 6)
    assert config_of({}, "none") == BotConfig(source="none")


def test_a_plan_writes_nothing_into_the_notes_it_was_given() -> None:
    given = notes(row(1, TEN, confidence=0.5), row(2, TEN), row(3, expires_at=ago(1)))
    snapshot = repr(given)
    plan_maintenance(given, NOW, "base")
    assert repr(given) == snapshot
