"""What becomes of rows we bring back, told before the unhide writes (docs/MICROCLAW_WRITES.md).

The bot puts a row in its prompt only when `is_archived = 0 AND confidence >= 0.45`, so a row
below that comes back to no effect: the unhide offers to raise its confidence to 0.45 in the
same run. And its next ticks may archive the row again (a cap) or delete it (expiry): the bot's
own rules (rules.py) are run over the rows as the unhide would leave them, and each step that
would touch an unhidden row is told.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from core.contract.parts import UnhideOutlook
from core.models import RawNote
from core.stores.microclaw.config import BotConfig
from core.stores.microclaw.rows import DEFAULT_CONFIDENCE, rfc3339, row_id
from core.stores.microclaw.rules import Activity, plan_maintenance
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


def outlook(notes: list[RawNote], note_ids: Iterable[str], now: datetime, config: BotConfig,
            activity: Activity, lift: bool) -> UnhideOutlook:
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
    rows = {number: note["microclaw"]["row"] for i, note in after.items()
            if (number := row_id(i)) is not None}
    offer = ""
    if low:
        shown = ", ".join(f"{i} ({confidence_of(by_id[i]):.2f})" for i in low[:10])
        offer = (f"also raise the confidence of {shown} to {PROMPT_CONFIDENCE}, so the bot "
                 "puts it in its prompt")
    return UnhideOutlook(tuple([*unhide_warnings(rows), *warnings]), offer)
