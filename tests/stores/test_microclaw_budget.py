"""The bot's budget for structured memories (docs/MICROCLAW_WRITES.md, "The bot's budget"): the
rows it reads for a chat (its own and the global ones, active, confident enough, not expired),
PROFILE rows first, each costing its UTF-8 bytes over 4 plus 10 tokens against 1,500 (or the
config's `memory_token_budget`), shown on every scope's promotion plan."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.stores.microclaw.budget import context_rows, structured_budget
from core.stores.microclaw.config import config_of, parse_settings
from core.stores.microclaw.store import MicroClawStore
from tests.support.microclaw_rows import insert, make_db
from tests.support.microclaw_support import NOW, ago, notes, row


def test_the_rows_a_chat_reads_profile_first_then_the_most_recent() -> None:
    given = notes(
        row(1, seen=5),
        row(2, chat_id=None, seen=1),
        row(3, seen=2),
        row(4, category="PROFILE", confidence=0.7, seen=9),
        row(5, category="PROFILE", confidence=0.9, seen=8),
        row(6, confidence=0.4),  # under 0.45
        row(7, is_archived=1),
        row(8, expires_at=ago(1)),
        row(9, chat_id=8, chat_channel="telegram", external_chat_id="556"),
    )
    order = [n["id"] for n in context_rows(given, 7, NOW)]
    assert order == ["mc-5", "mc-4", "mc-2", "mc-3", "mc-1"]
    assert [n["id"] for n in context_rows(given, None, NOW)] == ["mc-2"]


def test_the_budget_counts_bytes_over_four_plus_ten_and_stops_at_the_first_misfit() -> None:
    given = notes(row(1, "a" * 400, seen=1), row(2, "b" * 4000, seen=2), row(3, "c", seen=3))
    budget = structured_budget(given, 7, "chat 7", NOW, 1500)
    assert budget.used == {"tokens": 110 + 1010 + 10}
    assert budget.past == [] and budget.room == {"tokens": 1500 - 1130}
    tight = structured_budget(given, 7, "chat 7", NOW, 1000)
    assert tight.past == ["mc-2", "mc-3"] and tight.cut_by == "tokens"
    assert tight.room == {"tokens": 1000 - 110}


def test_the_config_may_set_the_budget_and_zero_is_the_default() -> None:
    assert config_of(parse_settings("memory_token_budget: 2048\n"), "f").memory_tokens == 2048
    assert config_of(parse_settings("memory_token_budget: 0\n"), "f").memory_tokens == 1500
    assert config_of({}, "f").memory_tokens == 1500


def test_every_scopes_plan_carries_its_budget(tmp_path: Path) -> None:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    insert(conn, "The project deploys on Fridays", confidence=0.9)
    insert(conn, "User prefers short answers " * 40, chat_id=7, category="PROFILE", confidence=0.85)
    conn.execute("UPDATE memories SET chat_channel = 'telegram' WHERE chat_id IS NOT NULL")
    conn.commit()
    conn.close()
    (db.parent / "groups" / "telegram" / "7").mkdir(parents=True)
    plans = MicroClawStore(db.parent.parent).plan_promotions()
    shown = {Path(p.path).parent.name: p.budgets for p in plans}
    (global_budget,) = shown["groups"]
    (chat_budget,) = shown["7"]
    fridays = len("The project deploys on Fridays") // 4 + 10
    assert global_budget.used == {"tokens": fridays}
    assert chat_budget.used == {
        "tokens": fridays + len("User prefers short answers " * 40) // 4 + 10
    }
    assert chat_budget.limits == {"tokens": 1500} and chat_budget.reader == "MicroClaw"
    assert "global" in global_budget.scope and "chat-7" in chat_budget.scope
