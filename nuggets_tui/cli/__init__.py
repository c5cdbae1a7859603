"""The `nuggets` command line. Without a command it opens the review console.

`group.py` holds the group (its options choose the memory and read the settings once) and the
context every command gets; `options.py` the options several commands share; `output.py` how
they print and fail; one module per family of commands, each added to the group here, by name:
nothing registers itself on import."""

from __future__ import annotations

import sys

from . import (
    config,
    conflicts,
    daily,
    demo,
    doctor,
    marks,
    notes,
    promote,
    reflect,
    rules,
    runs,
)
from .group import bare_home_options, main

COMMANDS = (
    notes.notes,
    reflect.reflect,
    promote.promote,
    notes.unhide,
    notes.archive,
    runs.undo,
    runs.log,
    daily.daily,
    demo.demo,
    config.config,
    doctor.doctor,
    conflicts.conflicts,
    conflicts.resolve,
    conflicts.verdicts,
    conflicts.act,
    marks.mark,
    rules.rules,
)
for _command in COMMANDS:
    main.add_command(_command)


def console_main() -> None:
    """`nuggets-tui`: the console, with the same options as `nuggets`."""
    main.main(args=[a for a in sys.argv[1:] if a != "console"], prog_name="nuggets-tui")


__all__ = ["COMMANDS", "bare_home_options", "console_main", "main"]
