"""`nuggets demo --reset` gives a fresh demo: nothing decided on the old one (a rejection, a
rule, a contradiction settled, a mark) applies to the new one, on every demo."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from nuggets_tui.cli import main

ENV = {"NUGGETS_NOW": "2026-11-25T09:00:00Z", "NUGGETS_HOME": "", "TZ": "UTC"}


def nuggets(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), env=ENV)
    assert result.exit_code == 0, (args, result.output)
    return result


def test_a_reset_nuggets_demo_keeps_no_rule_and_no_decision() -> None:
    nuggets("--demo", "rules", "add", "no tags", "reject", "--kind", "tag")
    group = json.loads(nuggets("--demo", "conflicts", "--json").stdout)[0]["id"]
    nuggets("--demo", "resolve", group, "--both", "--apply")
    assert json.loads(nuggets("--demo", "rules", "--json").stdout) != []
    nuggets("--demo", "demo", "--reset")
    assert json.loads(nuggets("--demo", "rules", "--json").stdout) == []
    assert group in {g["id"] for g in json.loads(nuggets("--demo", "conflicts", "--json").stdout)}
    assert json.loads(nuggets("--demo", "log", "--json").stdout) == []


def test_a_reset_purifier_demo_keeps_no_settled_group() -> None:
    groups = json.loads(nuggets("--demo-purifier", "conflicts", "--json").stdout)
    nuggets("--demo-purifier", "resolve", groups[0]["id"], "--both", "--apply")
    left = {g["id"] for g in json.loads(nuggets("--demo-purifier", "conflicts", "--json").stdout)}
    assert groups[0]["id"] not in left
    nuggets("--demo-purifier", "demo", "--reset")
    again = json.loads(nuggets("--demo-purifier", "conflicts", "--json").stdout)
    assert groups[0]["id"] in {g["id"] for g in again}
