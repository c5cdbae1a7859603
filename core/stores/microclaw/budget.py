"""The bot's budget for structured memories (docs/MICROCLAW_WRITES.md, "The bot's budget"):
pure.

Each turn the bot injects a chat's structured memories into its prompt until their estimated
tokens reach `memory_token_budget` (1,500 unless its config says otherwise): it reads the
chat's rows and the global ones (active, confidence 0.45 or more, not expired, the 100 most
recently updated), estimates each as its UTF-8 bytes over 4 plus 10, puts PROFILE rows first
and stops at the first row that does not fit (its source: src/memory_service.rs,
build_db_memory_context; crates/microclaw-storage/src/db/memory.rs, get_memories_for_context).
Which rows come after the PROFILE ones depends on the message (confidence, recency, relevance):
we count them most recently updated first, as the bot reads them.
"""

from __future__ import annotations

from datetime import datetime

from core.clock import parse_iso
from core.models import PromotionBudget, RawNote
from core.promotion.budget import TokenLimit, token_budget

CONTEXT_ROWS = 100  # get_memories_for_context(chat_id, 100)
LEAST_CONFIDENCE = 0.45
PROFILE = "PROFILE"


def structured_limit(tokens: int) -> TokenLimit:
    return TokenLimit("MicroClaw", tokens, per_item=10, bytes_per_token=4)


def _injectable(note: RawNote, chat_id: object, now: datetime) -> bool:
    mc = note.get("microclaw") or {}
    expires = parse_iso(mc.get("expiresAt"))
    return (
        not note.get("hidden")
        and mc.get("chatId") in (chat_id, None)
        and float(note.get("confidence", 0)) >= LEAST_CONFIDENCE
        and (expires is None or expires > now)
    )


def context_rows(notes: list[RawNote], chat_id: object, now: datetime) -> list[RawNote]:
    """The rows the bot reads for a chat (`chat_id` None: the global rows alone), in the
    order its budget counts them."""
    rows = sorted(
        (n for n in notes if _injectable(n, chat_id, now)),
        key=lambda n: str(n.get("updatedAt") or ""),
        reverse=True,
    )[:CONTEXT_ROWS]
    profiles = sorted(
        (n for n in rows if n.get("type") == PROFILE), key=lambda n: -float(n.get("confidence", 0))
    )
    return profiles + [n for n in rows if n.get("type") != PROFILE]


def structured_budget(
    notes: list[RawNote], chat_id: object, scope: str, now: datetime, tokens: int
) -> PromotionBudget:
    rows = context_rows(notes, chat_id, now)
    return token_budget(
        [(n["id"], str(n.get("content", ""))) for n in rows], structured_limit(tokens), scope
    )
