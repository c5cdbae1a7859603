"""The run log (README.md, "Run log") around the writing commands: `@logs_run("reflect")` under
`@reports_errors`, and `current_run()` inside the command to fill in what it did."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from core import NuggetsError
from core.clock import env_clock
from core.journal.run_log import RunRecord, record_run, telemetry_dir
from core.safeio.inert_text import one_line
from core.stores.nuggets.graph_file import graph_path

_KEY = "nuggets.run"


def current_run() -> RunRecord:
    """The record of the running command (a throwaway one outside a logged command)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return RunRecord("unknown", dry=True)
    return ctx.meta.setdefault(_KEY, RunRecord(ctx.info_name or "unknown", dry=True))


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
    """Log the run, unless it was a dry run or there is no memory to log beside (without
    --telemetry-dir: `<home>/telemetry` of a home holding a graph file, or
    `<data dir>/runtime/nuggets-review/telemetry` of a MicroClaw data dir); a log that cannot
    be written is said, never fatal."""
    if record.dry:
        return
    context = click.get_current_context().find_root().obj
    chosen = getattr(context, "telemetry_dir", None)
    home = getattr(context, "home", None)
    if home is None:
        return
    if chosen is None:
        # A MicroClaw data dir keeps what we write beside our journal, outside the bot's files.
        microclaw = getattr(context, "system", "nuggets") == "microclaw"
        base = home / "runtime" / "nuggets-review" if microclaw else home
        if not (home / "runtime" if microclaw else graph_path(home)).exists():
            return
        chosen = telemetry_dir(base)
    try:
        record_run(chosen, record, env_clock()())
    except OSError as exc:
        if record.status != "failed":  # a failed command's error stays the one line it says
            click.echo(f"nuggets: the run log could not be written: {one_line(str(exc))}",
                       err=True)
