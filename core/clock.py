"""Time: one injectable clock, and timestamps written like JavaScript's toISOString()."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def fixed_clock(moment: datetime) -> Clock:
    return lambda: moment


def parse_iso(text: object) -> datetime | None:
    """Parse an ISO-8601 timestamp; naive ones are taken as UTC. None when unparseable, or
    when UTC or local time would fall outside the years 1-9999 that datetime can hold."""
    if not isinstance(text, str) or not text:
        return None
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment if _convertible(moment) else None


def _convertible(moment: datetime) -> bool:
    """Whether the moment can be told in UTC and in local time (0001-01-01T00:00+01:00 is
    year 0 in UTC: an OverflowError wherever it is converted)."""
    try:
        moment.astimezone(UTC)
        moment.astimezone()
    except (OverflowError, ValueError, OSError):
        return False
    return True


def to_iso(moment: datetime) -> str:
    """Format like JavaScript's Date.toISOString(): 2026-11-01T09:00:00.000Z."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def shown_time(value: object) -> str:
    """A moment as a person reads it, the one way the console and the command line write one:
    2026-11-28 10:15 UTC (machine output, --json and the files, keeps ISO-8601). A text that
    is no moment, or a date alone, is given back as it is."""
    if isinstance(value, datetime):
        moment: datetime | None = value if value.tzinfo else value.replace(tzinfo=UTC)
    else:
        timed = isinstance(value, str) and len(value) > 10 and value[10] in "Tt "
        moment = parse_iso(value) if timed else None
    if moment is None:
        return value if isinstance(value, str) else ""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def epoch_ms(moment: datetime) -> int:
    """Whole milliseconds since the epoch, exactly (float seconds * 1000 can be 1 ms off)."""
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return (moment - _EPOCH) // _MS


def epoch_ms_of(text: object) -> int | None:
    """epoch_ms(parse_iso(text)); the form the engine writes (2026-11-01T09:00:00.000Z) takes
    a shorter path, as the pass reads the time of every note."""
    if type(text) is str and len(text) == 24 and text[23] == "Z" and text[10] == "T":
        with contextlib.suppress(ValueError):
            return (datetime.fromisoformat(text) - _EPOCH) // _MS
    moment = parse_iso(text)
    return None if moment is None else epoch_ms(moment)
