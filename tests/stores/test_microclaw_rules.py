"""docs/MICROCLAW.md's rules 1-4 on hand-built rows: the exact plan (operations, changes,
after-images)."""

from __future__ import annotations

import random

from core.models import HideOp, LinkOp
from core.stores.microclaw.rows import rfc3339
from core.stores.microclaw.rules import (
    DUPLICATE_JACCARD,
    _Row,
    _similar_pairs,
    plan_maintenance,
)
from tests.support.microclaw_support import NOW, ago, notes, row

AT = rfc3339(NOW)


def bot_jaccard(a: str, b: str) -> float:
    """The bot's similarity read plainly (docs/MICROCLAW.md, rule 3), the reference the duplicate
    search is checked against: word sets split on whitespace, case-sensitive, punctuation kept;
    0 when both are empty."""
    left, right = set(a.split()), set(b.split())
    union = len(left | right)
    return len(left & right) / union if union else 0.0


def plan_of(*rows: dict, nugget: str | None = None):
    return plan_maintenance(notes(*rows), NOW, "base", nugget)


def hidden_ids(plan) -> list[str]:
    return [op.note_id for op in plan.operations if isinstance(op, HideOp)]


# -- the bot's Jaccard -------------------------------------------------------------------------

def test_bot_jaccard_is_case_sensitive_whitespace_words_with_punctuation() -> None:
    assert bot_jaccard("User likes tea", "User likes tea") == 1.0
    assert bot_jaccard("User likes tea", "user likes tea") == 0.5  # 2 shared of 4
    assert bot_jaccard("likes tea.", "likes tea") == 1 / 3
    assert bot_jaccard("a  b\tc\nd", "a b c d") == 1.0
    assert bot_jaccard("", "") == 0.0


# -- rule 1: stale -----------------------------------------------------------------------------

def test_stale_rows_are_low_confidence_and_unseen_for_more_than_30_days() -> None:
    plan = plan_of(
        row(1, confidence=0.2, seen=31),  # stale
        row(2, confidence=0.2, seen=29),  # seen recently
        row(3, confidence=0.35, seen=60),  # not below 0.35
        row(4, confidence=0.1, seen=90, is_archived=1, archived_at=ago(50)),  # archived already
        row(5, confidence=None, seen=90),  # NULL confidence reads as the default 0.70
        row(6, confidence=0.3, seen=None, updated_at=ago(40)),  # falls back to updated_at
        row(7, confidence=0.3, seen=None, updated_at="", created_at=ago(40)),  # to created_at
    )
    assert plan.operations == [HideOp(id=1, note_id="mc-1"), HideOp(id=2, note_id="mc-6"),
                               HideOp(id=3, note_id="mc-7")]
    change = plan.result.changes[0]
    assert (change.type, change.note_id, change.nugget_name) == ("hide", "mc-1", "telegram:555")
    assert change.detail.startswith("stale: confidence 0.20 below 0.35 and last seen 31 days ago")
    assert plan.result.hidden == 3 and plan.result.linked == 0
    assert plan.result.inspected == 6  # the active rows


def test_the_after_image_is_the_archived_row_in_the_bots_time_format() -> None:
    plan = plan_of(row(1, confidence=0.2, seen=40))
    [diff] = plan.notes
    assert diff.before["hidden"] is False and diff.before["microclaw"]["row"]["is_archived"] == 0
    assert diff.after["hidden"] is True
    assert diff.after["archivedAt"] == diff.after["updatedAt"] == AT
    assert diff.after["microclaw"]["row"] == {**diff.before["microclaw"]["row"],
                                              "is_archived": 1, "archived_at": AT,
                                              "updated_at": AT}
    assert AT.endswith("+00:00")


# -- rule 2: expired ---------------------------------------------------------------------------

def test_expired_rows_are_archived_never_deleted() -> None:
    plan = plan_of(
        row(1, expires_at=ago(1)),  # expired yesterday
        row(2, expires_at=ago(-1)),  # expires tomorrow
        row(3, expires_at=rfc3339(NOW)),  # expires this instant
        row(4, expires_at="someday"),  # unreadable: kept
        row(5, expires_at=ago(3), is_archived=1),
    )
    assert hidden_ids(plan) == ["mc-1", "mc-3"]
    assert plan.result.changes[0].detail.startswith("expired: expires_at ")
    assert "archived instead" in plan.result.changes[0].detail


def test_a_row_both_stale_and_expired_is_archived_once_as_stale() -> None:
    plan = plan_of(row(1, confidence=0.1, seen=50, expires_at=ago(2)))
    assert hidden_ids(plan) == ["mc-1"] and len(plan.operations) == 1
    assert plan.result.changes[0].detail.startswith("stale:")


# -- rule 3: duplicates ------------------------------------------------------------------------

TEN = "alpha beta gamma delta epsilon zeta eta theta iota kappa"


def test_duplicates_archive_the_weaker_with_a_supersede_edge_to_the_kept_one() -> None:
    plan = plan_of(row(1, TEN, confidence=0.6), row(2, TEN + " lambda", confidence=0.9))
    assert plan.operations == [
        HideOp(id=1, note_id="mc-1"),
        LinkOp(id=2, note_id="mc-1", other_id="mc-2", reason="duplicate"),
    ]
    hide, link = plan.result.changes
    assert hide.detail == ("duplicate of mc-2 (word Jaccard 0.91 >= 0.82, same KNOWLEDGE in "
                           "telegram:555): the weaker one is archived (confidence 0.60 < 0.90)")
    assert link.type == "link" and "supersede edge 'duplicate'" in link.detail
    [diff] = plan.notes
    assert diff.after["links"][-1]["to"] == "mc-2" and diff.after["hidden"] is True
    assert plan.result.hidden == 1 and plan.result.linked == 1


def test_duplicate_threshold_is_0_82_on_case_sensitive_words() -> None:
    nine_of_eleven = TEN.replace("kappa", "lambda")  # 9 shared of 11: 0.818
    assert hidden_ids(plan_of(row(1, TEN), row(2, nine_of_eleven))) == []
    assert hidden_ids(plan_of(row(1, TEN), row(2, TEN.upper()))) == []
    assert hidden_ids(plan_of(row(1, TEN), row(2, TEN.replace(" ", "  ")))) == ["mc-2"]


def test_weaker_is_lower_confidence_then_older_last_seen_then_larger_id() -> None:
    assert hidden_ids(plan_of(row(1, TEN, confidence=0.9), row(2, TEN, confidence=0.5))) == [
        "mc-2"]
    assert hidden_ids(plan_of(row(1, TEN, seen=3), row(2, TEN, seen=9))) == ["mc-2"]
    assert hidden_ids(plan_of(row(1, TEN, seen=9), row(2, TEN, seen=3))) == ["mc-1"]
    tied = plan_of(row(5, TEN), row(3, TEN))
    assert hidden_ids(tied) == ["mc-5"]
    assert "larger id 5 > 3" in tied.result.changes[0].detail


def test_profile_rows_other_categories_and_other_chats_are_never_duplicates() -> None:
    assert hidden_ids(plan_of(row(1, TEN, category="PROFILE"),
                              row(2, TEN, category="PROFILE", confidence=0.1))) == []
    assert hidden_ids(plan_of(row(1, TEN, category="EVENT"), row(2, TEN))) == []
    assert hidden_ids(plan_of(row(1, TEN, chat_id=None), row(2, TEN))) == []


def test_a_row_archived_as_a_duplicate_is_out_of_later_pairs() -> None:
    plan = plan_of(row(1, TEN, confidence=0.9), row(2, TEN, confidence=0.5),
                   row(3, TEN, confidence=0.4))
    assert plan.operations == [
        HideOp(id=1, note_id="mc-2"), LinkOp(id=2, note_id="mc-2", other_id="mc-1",
                                             reason="duplicate"),
        HideOp(id=3, note_id="mc-3"), LinkOp(id=4, note_id="mc-3", other_id="mc-1",
                                             reason="duplicate"),
    ]


def test_stale_rows_are_not_duplicates_afterwards() -> None:
    plan = plan_of(row(1, TEN, confidence=0.2, seen=40), row(2, TEN, confidence=0.9))
    assert plan.operations == [HideOp(id=1, note_id="mc-1")]


# -- rule 4: caps ------------------------------------------------------------------------------

def test_a_chat_over_200_active_rows_archives_the_lowest_confidence_then_oldest() -> None:
    rows = [row(i, confidence=0.9) for i in range(1, 201)]
    rows += [row(201, confidence=0.5, seen=2), row(202, confidence=0.5, seen=5),
             row(203, confidence=0.4, seen=1)]
    rows += [row(204, is_archived=1, confidence=0.1)]  # archived rows don't count
    plan = plan_of(*rows)
    assert plan.operations == [HideOp(id=1, note_id="mc-203"), HideOp(id=2, note_id="mc-202"),
                               HideOp(id=3, note_id="mc-201")]
    assert plan.result.changes[0].detail.startswith(
        "over the cap: 203 active rows in chat telegram:555, more than 200")


def test_global_rows_are_capped_at_500_and_stale_ones_count_out_first() -> None:
    rows = [row(i, chat_id=None, confidence=0.9) for i in range(1, 502)]
    assert hidden_ids(plan_of(*rows)) == ["mc-1"]  # all tied: the oldest id goes
    rows[5] = row(6, chat_id=None, confidence=0.2, seen=60)
    plan = plan_of(*rows)
    assert hidden_ids(plan) == ["mc-6"]  # stale; then 500 remain, none over the cap
    assert plan.result.changes[0].detail.startswith("stale:")


def test_a_plan_of_one_nugget_looks_only_at_its_rows() -> None:
    rows = [row(1, confidence=0.2, seen=40), row(2, chat_id=None, confidence=0.2, seen=40)]
    assert hidden_ids(plan_of(*rows, nugget="global")) == ["mc-2"]
    assert hidden_ids(plan_of(*rows, nugget="telegram:555")) == ["mc-1"]


def test_a_plan_writes_nothing_into_the_notes_it_was_given() -> None:
    given = notes(row(1, TEN, confidence=0.5), row(2, TEN))
    snapshot = repr(given)
    plan_maintenance(given, NOW, "base")
    assert repr(given) == snapshot


def test_the_duplicate_search_finds_exactly_the_pairs_comparing_every_two_would() -> None:
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(12)] + ["A", "a", "b."]
    for _ in range(300):
        rows = [row(k, " ".join(rng.sample(vocab, rng.randrange(0, 9))) or " ")
                for k in range(1, rng.randrange(3, 30))]
        group = [_Row.of(p, n) for p, n in enumerate(notes(*rows))]
        found = [(a.row_id, b.row_id) for a, b, _ in _similar_pairs(group)]
        every = [(a["id"], b["id"]) for x, a in enumerate(rows) for b in rows[x + 1:]
                 if bot_jaccard(a["content"], b["content"]) >= DUPLICATE_JACCARD]
        assert found == every
