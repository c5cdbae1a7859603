"""Whether the agent's own daily pass is on, read from its checkout (README, "Using it beside
your agent").

The agent has no switch for its pass. Its gateway runs it through a hidden cron job per chat
(`.gateway/cron/jobs.json`, `"system": "memory_reflection"`, made at `MEMORY_REFLECTION_HOUR`
from its `.env` the first time a chat is seen), and through a heartbeat fallback that opens
after that hour each day; and its model may call the pass tool whenever it likes, as long as
the extension that offers it (`.pi/extensions/proactive.ts`) is there. The pass knows nothing
of what the operator decided, so while any of that can fire it redoes rejected changes,
re-merges unhidden notes and undone merges, and merges "both stand" pairs.

The gateway reads its numbers as JavaScript's `Number` does (an hour of `24` or `off` never
comes; an empty one is midnight), and its cron fields as its own small matcher does; both are
followed here, so that the check says "off" exactly when the agent would never fire.

`pass_findings(checkout)` decides (pure); `read_checkout(path)` reads the three things it needs;
`AgentGate` is the store's doctor (core/contract/parts.py) over both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.clock import shown_time
from core.contract.parts import HealthLine
from core.errors import NuggetsError
from core.models import RawNote
from core.notes import fields
from core.notes.snapshot import Graph
from core.safeio.json_read import loads
from core.safeio.open_regular import read_regular
from core.stores.nuggets.home import left_home_refusal, live_home

ENV_FILE = ".env"
JOBS_FILE = Path(".gateway") / "cron" / "jobs.json"
TOOL_FILE = Path(".pi") / "extensions" / "proactive.ts"
PASS_JOB = "memory_reflection"
DEFAULT_HOUR, DEFAULT_MINUTE = "9", "0"  # the gateway's defaults when its .env sets neither
SMALL_FILE = 4 * 1024 * 1024
JOBS_DEPTH = 4  # [{...: [...]}] and a little room
HOW_TO_GATE = "README, “Using it beside your agent”"
_RADIX = {"0x": 16, "0o": 8, "0b": 2}
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?Infinity")


@dataclass(frozen=True)
class AgentCheckout:
    """What the agent's checkout holds that decides its pass (None: the file is absent)."""

    path: Path
    env: str | None
    jobs: str | None
    has_tool: bool


def read_checkout(path: Path) -> AgentCheckout:
    return AgentCheckout(path, _text(path / ENV_FILE), _text(path / JOBS_FILE), _exists(path))


def _text(path: Path) -> str | None:
    try:
        return read_regular(path, SMALL_FILE).decode("utf-8", "replace")
    except OSError:
        return None


def _exists(path: Path) -> bool:
    return (path / TOOL_FILE).is_file()


class AgentGate:
    """The Nuggets store's doctor: the agent's checkout read when it is known (the setting
    `agent_dir`), else the traces its pass leaves in the notes."""

    def __init__(self, home: Path, checkout: Path | None, read: Callable[[], Graph]) -> None:
        self.home = home
        self.checkout = checkout
        self.read = read

    def check(self, graph: Graph | None = None) -> list[HealthLine]:
        left = left_behind(self.home)
        if self.checkout is None:
            return [*left, *self._traces(graph), UNKNOWN]
        found = pass_findings(read_checkout(self.checkout.expanduser()))
        summary = pass_summary(found)
        if summary is None:
            return [*left, GATED, *found]
        return [*left, summary, *found]

    def headline(self, found: list[HealthLine]) -> HealthLine | None:
        return next((line for line in found if line.warning), None)

    def _traces(self, graph: Graph | None) -> list[HealthLine]:
        try:
            notes = (graph if graph is not None else self.read()).notes
        except NuggetsError:
            return []  # an unreadable graph is said by whatever reads it
        trace = traces(notes)
        return [] if trace is None else [trace]


def left_behind(home: Path) -> list[HealthLine]:
    """A home the agent left: said first, since nothing here reaches the agent any more."""
    live = live_home(home)
    if live is None:
        return []
    return [
        HealthLine(
            left_home_refusal(home, live),
            brief=f"the agent's old copy: it lives in {live}",
            warning=True,
        )
    ]


UNKNOWN = HealthLine(
    "the agent's checkout is not known: set $NUGGETS_AGENT_DIR (or `agent_dir` in the config "
    "file) to it, and this says whether the agent's own daily pass is still on"
)
GATED = HealthLine(
    "the agent's own daily pass is off on its schedule (no enabled cron job can fire; its "
    "heartbeat window never opens)"
)


# -- deciding ---------------------------------------------------------------------------------


def pass_findings(checkout: AgentCheckout) -> list[HealthLine]:
    """What the checkout says of the agent's own pass: one warning per way it will still run
    on its schedule, then what stays open even when both are gated (its model's own call)."""
    where = checkout.path
    if not where.is_dir():
        return [
            HealthLine(f"{where}: no such directory (the agent's checkout, $NUGGETS_AGENT_DIR)")
        ]
    values = env_values(checkout.env or "")
    hour = values.get("MEMORY_REFLECTION_HOUR", DEFAULT_HOUR)
    hour_said = repr(hour) if "MEMORY_REFLECTION_HOUR" in values else f"unset ({DEFAULT_HOUR})"
    minute = values.get("MEMORY_REFLECTION_MINUTE", DEFAULT_MINUTE)
    found: list[HealthLine] = []
    jobs, unreadable = pass_jobs(checkout.jobs)
    if unreadable:
        found.append(HealthLine(f"{where / JOBS_FILE}: {unreadable}"))
    firing = [job for job in jobs if job_fires(job)]
    if firing:
        times = sorted({str(job.get("cron")) for job in firing})
        found.append(
            HealthLine(
                f"{where / JOBS_FILE}: {len(firing)} enabled daily-pass "
                f"job{'s' if len(firing) != 1 else ''} ({', '.join(times)}): the agent's own "
                "pass runs on its schedule",
                brief=f"{len(firing)} cron job{'s' if len(firing) != 1 else ''}",
                warning=True,
            )
        )
    if window_opens(hour, minute):
        found.append(
            HealthLine(
                f"{where / ENV_FILE}: MEMORY_REFLECTION_HOUR is {hour_said}: the gateway's "
                f"heartbeat runs the pass once a day after it, and a new chat's cron job "
                "fires at it (24 never comes)",
                brief=f"heartbeat after hour {hour}",
                warning=True,
            )
        )
    if checkout.has_tool:
        found.append(
            HealthLine(
                f"{where / TOOL_FILE}: the agent's model can still run its pass whenever it "
                "likes; only taking this extension away closes that (it has no switch)"
            )
        )
    return found


def pass_summary(found: list[HealthLine]) -> HealthLine | None:
    """The one line that says the pass is on (for the console's header), or None."""
    on = [line.brief for line in found if line.warning]
    if not on:
        return None
    return HealthLine(
        "the agent's own daily pass is on and will redo what you decided (rejected changes, "
        "unhidden notes, undone merges, “both stand”): gate it as "
        f"{HOW_TO_GATE} says, and let `nuggets daily --hold` run the reviewed pass",
        brief=f"agent's own pass ON ({', '.join(on)}): it redoes your decisions · nuggets doctor",
        warning=True,
    )


def traces(notes: list[RawNote]) -> HealthLine | None:
    """Without the checkout: whether the agent's pass has run on this memory (notes it merged
    away carry its own link reason), and when last."""
    merged = [note for note in notes if _merged_by_agent(note)]
    if not merged:
        return None
    last = max((fields.text(note, "archivedAt") for note in merged), default="")
    when = f", the last archived {shown_time(last)}" if last else ""
    return HealthLine(
        f"the agent's own pass has run on this memory ({len(merged)} notes merged away by "
        f"it{when}); set $NUGGETS_AGENT_DIR to its checkout for `nuggets doctor` to say "
        "whether it is still on",
        brief="the agent's own pass has run here · nuggets doctor",
        warning=True,
    )


def _merged_by_agent(note: RawNote) -> bool:
    links = note.get("links")
    if not isinstance(links, list):
        return False
    return any(
        isinstance(link, dict) and link.get("reason") == fields.AGENT_MERGE_REASON for link in links
    )


# -- the gateway's reading of its files --------------------------------------------------------


def env_values(text: str) -> dict[str, str]:
    """`KEY=value` lines as the gateway's dotenv reads them: `export ` allowed, quotes taken
    off, an unquoted value ends at ` #`; a later line wins."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        if not sep or not re.fullmatch(r"[\w.-]+", key.strip()):
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].strip()
        values[key.strip()] = value
    return values


def js_number(text: str) -> float:
    """JavaScript's `Number(text)`: blank is 0, a malformed one NaN."""
    text = text.strip()
    if not text:
        return 0.0
    radix = _RADIX.get(text[:2].lower())
    if radix is not None:
        try:
            return float(int(text[2:], radix))
        except ValueError:
            return math.nan
    if not _DECIMAL.fullmatch(text):
        return math.nan
    return float(text.replace("Infinity", "inf"))


def window_opens(hour: str, minute: str) -> bool:
    """Whether the heartbeat's "past the hour" test can hold at some time of day."""
    h, m = js_number(hour), js_number(minute)
    return any(at > h or (at == h and mm >= m) for at in range(24) for mm in range(60))


def pass_jobs(text: str | None) -> tuple[list[dict[str, object]], str]:
    """The daily-pass jobs of the cron file, and what is wrong with the file ("" when fine)."""
    if text is None:
        return [], ""
    try:
        jobs = loads(text, JOBS_DEPTH)
    except ValueError:
        return [], "not JSON: the gateway starts with no jobs and makes them again"
    if not isinstance(jobs, list):
        return [], "not a list of jobs"
    return [j for j in jobs if isinstance(j, dict) and j.get("system") == PASS_JOB], ""


def job_fires(job: dict[str, object]) -> bool:
    """Whether the job is enabled and its cron line matches some minute of some day."""
    if not _truthy(job.get("enabled")):
        return False
    expression = job.get("cron")
    if not isinstance(expression, str):
        return False
    parts = expression.split()
    if len(parts) != 5:
        return False
    bounds = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
    return all(
        any(field_matches(part, value, low, high) for value in range(low, high + 1))
        for part, (low, high) in zip(parts, bounds, strict=True)
    )


def _truthy(value: object) -> bool:
    return value not in (None, False, 0, "", 0.0) and not (
        isinstance(value, float) and math.isnan(value)
    )


def field_matches(part: str, value: int, low: int, high: int) -> bool:
    """One cron field as the gateway's matcher reads it: `*`, `a-b/n` or `*/n`, lists of
    numbers and ranges; numbers outside the field's bounds never match, range ends are not
    checked against them."""
    if part == "*":
        return True
    if "/" in part:
        span, step_text = part.split("/")[:2]
        step = _js_int(step_text)
        if step is None or step <= 0:
            return False
        if span == "*":
            return (value - low) % step == 0
        start, end = _range(span)
        return start <= value <= end and (value - start) % step == 0
    for piece in part.split(","):
        if "-" in piece:
            start, end = _range(piece)
            if start <= value <= end:
                return True
            continue
        number = _js_int(piece)
        if number is not None and low <= number <= high and number == value:
            return True
    return False


def _range(span: str) -> tuple[float, float]:
    ends = [js_number(end) for end in span.split("-")]
    return ends[0], ends[1] if len(ends) > 1 else math.nan


def _js_int(text: str) -> int | None:
    """JavaScript's `parseInt(text, 10)`: the leading digits, None when there are none."""
    found = re.match(r"\s*([+-]?\d+)", text)
    return int(found.group(1)) if found else None
