"""The README's table of the `nuggets` group's options lists every option the command line has,
each written as `nuggets --help` writes it (its metavar too), and no other: it is checked
against click's own options, so neither can drift from the other."""

from __future__ import annotations

import re

import click

from nuggets_tui.cli import main
from tests.support.paths import REPO

TABLE_AFTER = "Options of the `nuggets` group come before the command:"


def readme_options() -> list[str]:
    """The options the README's table names, in its first column (`--home DIR`, `-v`)."""
    lines = (REPO / "README.md").read_text().splitlines()
    start = lines.index(TABLE_AFTER) + 1
    while not lines[start].startswith("|"):
        start += 1
    rows = []
    for row in lines[start + 2 :]:  # past the header and its rule
        if not row.startswith("|"):
            break
        rows.append(row.split("|")[1])
    return [name for cell in rows for name in re.findall(r"`([^`]+)`", cell)]


def help_options() -> list[str]:
    """Every option of the group as its help writes it: `-v, --verbose` is `-v` and
    `--verbose`, a metavar goes with the last."""
    context = click.Context(main, **main.context_settings)
    records = [param.get_help_record(context) for param in main.get_params(context)]
    return [name for record in records if record for name in record[0].split(", ")]


def test_the_readme_lists_every_option_of_the_group_as_the_help_does() -> None:
    listed, offered = readme_options(), help_options()
    assert len(listed) == len(set(listed)), "an option listed twice"
    assert sorted(set(offered) - set(listed)) == [], "options the README does not list"
    assert sorted(set(listed) - set(offered)) == [], "listed, but not options of the group"
