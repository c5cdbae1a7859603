"""`nuggets config`: the settings in force and where each came from (the environment, the
config file, the default), and the console's keymap (core/settings.py)."""

from __future__ import annotations

from typing import Any

import click

from core.settings import NAMES, Configuration, shown_value, variable

from ..keys import checked_keymap
from .group import Context
from .options import json_option
from .output import print_json, reports_errors, show

PRECEDENCE = "An environment variable beats the config file, which beats the default."


def settings_rows(configuration: Configuration) -> list[dict[str, Any]]:
    """One row a setting: its name, value as shown, where it came from, and its variable."""
    settings = configuration.settings
    return [
        {
            "name": name,
            "value": shown_value(settings, name),
            "from": configuration.origins[name],
            "variable": f"${variable(name)}",
        }
        for name in NAMES
    ]


def _text(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@click.command("config")
@json_option('Print {"file", "found", "settings", "keymap"} as JSON.')
@click.pass_obj
@reports_errors
def config(obj: Context, as_json: bool) -> None:
    """Show every setting in force and where it came from, and the console's keymap.

    Settings come from environment variables, then the config file (config.toml in your
    config directory, or $NUGGETS_CONFIG), then the defaults."""
    configuration = obj.configuration
    assert configuration is not None  # main reads it before any command
    file = configuration.file
    keymap = checked_keymap(file)
    rows = settings_rows(configuration)
    if as_json:
        print_json(
            {
                "file": str(file.path),
                "found": file.found,
                "settings": {row.pop("name"): row for row in rows},
                "keymap": keymap,
            }
        )
        return
    show(f"Config file: {file.path}" + ("" if file.found else " (there is none)"))
    width = max(len(name) for name in NAMES)
    for row in rows:
        show(f"  {row['name']:<{width}}  {_text(row['value'])}  ({row['from']}; {row['variable']})")
    for binding, keys in keymap.items():
        show(f"  keymap.{binding} = {keys}  (file)")
    show(PRECEDENCE)
