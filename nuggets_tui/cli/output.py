"""What every command prints and how it fails: lines for a person made inert, JSON for a
program, what the store said told once on stderr, and errors a user can act on as one line."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import weakref
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

import click

from core.browse.shelf import Shelf
from core.contract.store import Store
from core.errors import ArgumentError, NuggetsError
from core.notes.json_writer import dumps_indented
from core.safeio.inert_text import inert, inert_json, one_line

# What each open store has said: a file read twice by one command (the purifier's memory-log,
# read to open the store and again to list its runs) is said once.
_SAID: weakref.WeakKeyDictionary[Store, set[str]] = weakref.WeakKeyDictionary()


def tell(memory: Store, messages: Iterable[str] = ()) -> None:
    """What opening or reading the memory settled, tolerated or skipped, on standard error,
    each line once."""
    said = _SAID.setdefault(memory, set())
    for message in dict.fromkeys([*messages, *memory.take_notices()]):
        if message not in said:
            said.add(message)
            click.echo(f"nuggets: {one_line(message)}", err=True)


def show(text: str, err: bool = False) -> None:
    """Every line for a person goes out inert, whatever built it (render.py already did)."""
    click.echo(inert(text), err=err)


def echo_lines(lines: Iterable[str]) -> None:
    for line in lines:
        show(line)


def print_json(value: Any) -> None:
    """JSON with every character `inert` would replace written as its \\u escape: the same
    data for a program, nothing a terminal would act on for a person. Numbers are written as
    the graph file spells them."""
    click.echo(inert_json(dumps_indented(value)))


def known_nugget(shelf: Shelf, nugget: str | None) -> None:
    """--nugget names one of the memory's nuggets: a usage error, listing them, otherwise."""
    names = [summary.name for summary in shelf.nuggets()]
    if nugget is not None and nugget not in names:
        known = ", ".join(one_line(name) for name in names) or "none"
        raise click.BadParameter(
            f"no nugget {one_line(nugget)!r} in this memory (known: {known})",
            param_hint="'--nugget'",
        )


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Errors a user can act on: one line on stderr, exit 1, no traceback."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            _quiet_stdout()  # `nuggets notes | head`: the reader had enough; not an error
            sys.exit(0)
        except (NuggetsError, ValueError) as exc:
            click.echo(f"nuggets: {one_line(str(exc))}", err=True)
            sys.exit(2 if isinstance(exc, ArgumentError) else 1)
        except OSError as exc:  # a last resort: the engine turns the ones it expects into errors
            where = f": {exc.filename}" if exc.filename else ""
            show(one_line(f"nuggets: {exc.strerror or exc}{where}"), err=True)
            sys.exit(1)

    return wrapper


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit does not fail once more."""
    # No real file behind stdout (a test runner's): nothing will be flushed to a pipe.
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
