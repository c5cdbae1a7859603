"""What becomes of rows we bring back, told before the unhide writes (docs/MICROCLAW_WRITES.md).

The bot puts a row in its prompt only when `is_archived = 0 AND confidence >= 0.45`, so a row
below that comes back to no effect: the unhide offers to raise its confidence to 0.45 in the
same run. And its next ticks may archive the row again (a cap) or delete it (expiry): the bot's
own rules (rules.py) are run over the rows as the unhide would leave them, and each step that
would touch an unhidden row is told. A row brought back may also take its scope over a cap: the
bot then archives the rows its order puts last (lowest confidence, then oldest last seen, then
id), which is often not the row brought back but one the operator never touched: each such row
is named.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from core.contract.parts import UnhideOutlook
from core.models import RawNote, ReflectionChange
from core.stores.microclaw.config import BotConfig
from core.stores.microclaw.rows import DEFAULT_CONFIDENCE, rfc3339, row_id
from core.stores.microclaw.rules import (
    STEP_CHAT_CAP,
    STEP_GLOBAL_CAP,
    Activity,
    plan_maintenance,
)
from core.stores.microclaw.write import PROMPT_CONFIDENCE, raised, unarchived, unhide_warnings


def confidence_of(note: RawNote) -> float:
    value = note["microclaw"]["row"].get("confidence")
    return float(value) if isinstance(value, int | float) else DEFAULT_CONFIDENCE


def unhidden(note: RawNote, at: str, floor: float | None) -> RawNote:
    """The note as our unhide leaves its row (raised to `floor` when given) (pure)."""
    row = unarchived(dict(note["microclaw"]["row"]), at)
    if floor is not None:
        row = raised(row, floor)
    microclaw = {**note["microclaw"], "row": row}
    if "last_seen_at" in row:
        microclaw["lastSeenAt"] = at
    found = {**note, "hidden": False, "updatedAt": at, "microclaw": microclaw}
    found.pop("archivedAt", None)
    return found


def capped(changes: Iterable[ReflectionChange]) -> dict[str, str]:
    """The rows a cap archives among a plan's changes, with their detail."""
    return {
        c.note_id: c.detail
        for c in changes
        if c.detail.startswith((STEP_GLOBAL_CAP, STEP_CHAT_CAP))
    }


def displaced(was: dict[str, str], will: dict[str, str], brought: list[str]) -> list[str]:
    """One line for each row a cap archives only once rows are back (`will` and not `was`),
    when it is not one of them: the bot's order puts it last among the rows then active."""
    shown = ", ".join(brought[:10])
    return [
        f"{note_id} archived instead: bringing back {shown} takes its scope over the "
        f"bot's cap, and the bot archives this row you did not unhide: {detail}"
        for note_id, detail in will.items()
        if note_id not in was and note_id not in brought
    ]


def outlook(
    notes: list[RawNote],
    note_ids: Iterable[str],
    now: datetime,
    config: BotConfig,
    activity: Activity,
    lift: bool,
) -> UnhideOutlook:
    """What unhiding these rows leads to, with their confidence raised (`lift`) or not (pure)."""
    by_id = {n["id"]: n for n in notes}
    targets = [i for i in dict.fromkeys(note_ids) if i in by_id and by_id[i].get("hidden")]
    low = [i for i in targets if confidence_of(by_id[i]) < PROMPT_CONFIDENCE]
    at = rfc3339(now)
    after = {i: unhidden(by_id[i], at, PROMPT_CONFIDENCE if lift else None) for i in targets}
    nuggets = {by_id[i]["nuggetName"] for i in targets}
    scope = [after.get(n["id"], n) for n in notes if n["nuggetName"] in nuggets]
    plan = plan_maintenance(scope, now, "", None, config, activity)
    changes = plan.result.changes if plan.result else []
    warnings = [f"{c.note_id} once back: {c.detail}" for c in changes if c.note_id in after]
    if targets and capped(changes):
        before = [n for n in notes if n["nuggetName"] in nuggets]
        was = plan_maintenance(before, now, "", None, config, activity).result
        warnings += displaced(capped(was.changes if was else []), capped(changes), targets)
    rows = {
        number: note["microclaw"]["row"]
        for i, note in after.items()
        if (number := row_id(i)) is not None
    }
    offer = ""
    if low:
        shown = ", ".join(f"{i} ({confidence_of(by_id[i]):.2f})" for i in low[:10])
        offer = (
            f"also raise the confidence of {shown} to {PROMPT_CONFIDENCE}, so the bot "
            "puts it in its prompt"
        )
    return UnhideOutlook(tuple([*unhide_warnings(rows), *warnings]), offer)
