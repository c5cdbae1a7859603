"""`nuggets demo`: the demo memory's directory, made on first use."""

from __future__ import annotations

import click

from core.stores.registry import STORE_KINDS

from .group import Context, materialized_demo
from .options import demo_dir_options
from .output import reports_errors, show


@click.command()
@click.option("--reset", is_flag=True, help="Recreate the demo memory from scratch.")
@demo_dir_options
@click.pass_obj
@reports_errors
def demo(obj: Context, reset: bool, **systems: bool) -> None:
    """Print the demo memory's path (creating it on first use): the demo of the system named
    here, else of the one the global options chose (`nuggets --demo-purifier demo --reset`)."""
    kind = next((k for k in STORE_KINDS if systems.get(k.name)), obj.kind)
    show(str(materialized_demo(kind, obj.settings, reset=reset)))
