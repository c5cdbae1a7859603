"""The run log (README.md, "Run log") around the writing commands: `@logs_run("reflect")` under
`@reports_errors`, and `current_run()` inside the command to fill in what it did."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from core.errors import NuggetsError
from core.journal.run_log import LogPlace, RunRecord, log_place, record_run
from core.safeio.inert_text import one_line
from core.settings import DEFAULTS

_KEY = "nuggets.run"


def current_run() -> RunRecord:
    """The record of the running command (a throwaway one outside a logged command)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return RunRecord("unknown", dry=True)
    record: RunRecord = ctx.meta.setdefault(_KEY, RunRecord(ctx.info_name or "unknown", dry=True))
    return record


def logs_run(command_name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            record = RunRecord(command_name)
            click.get_current_context().meta[_KEY] = record
            try:
                result = command(*args, **kwargs)
            except (NuggetsError, ValueError, OSError) as exc:
                record.failed(one_line(str(exc)))
                _write(record)
                raise
            _write(record)
            return result

        return wrapper

    return decorate


def _write(record: RunRecord) -> None:
    """Log the run, unless it was a dry run or there is no memory to log beside. A file of the
    log that cannot be written (safely) is one line on stderr, never fatal: the run itself has
    landed, and the exit status stays the run's (docs/RUNS.md, "The run log")."""
    if record.dry:
        return
    context = click.get_current_context().find_root().obj
    place = _place(context)
    if place is None:
        return
    logged = record_run(place, record, getattr(context, "settings", DEFAULTS).clock())
    for notice in logged.notices:
        click.echo(f"nuggets: {one_line(notice)}", err=True)
    if record.status == "failed":  # a failed command's error stays the one line it says
        return
    for problem in logged.problems:
        click.echo(f"nuggets: the run log could not be written: {one_line(problem)}", err=True)


def _place(context: object) -> LogPlace | None:
    """--telemetry-dir, else the store's place below its directory (Nuggets: `<home>/telemetry`;
    MicroClaw: `runtime/nuggets-review/telemetry`, beside our journal, outside the bot's files);
    None without a memory to log beside."""
    chosen = getattr(context, "telemetry_dir", None)
    home = getattr(context, "home", None)
    kind = getattr(context, "kind", None)
    if home is None or kind is None:
        return None
    if chosen is None and not kind.holds_memory(home):
        return None
    return log_place(home, chosen, kind.run_log_parts)
