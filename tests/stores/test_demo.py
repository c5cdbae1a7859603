"""The demo memory: deterministic, at least 300 notes, and messy in the ways real memories are."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from core.notes import fields
from core.reflection.reflect import plan_pass
from core.reflection.tidy_phase import is_low_value
from core.stores.nuggets.demo import DEMO_NOW, build_demo_notes, materialize_demo
from core.stores.nuggets.graph_file import graph_path
from core.stores.nuggets.home import demo_memory_md
from nuggets_tui.cli import main


def test_demo_is_deterministic_and_large_enough() -> None:
    notes = build_demo_notes()
    assert notes == build_demo_notes()
    assert len(notes) >= 300
    assert {n["nuggetName"] for n in notes} == {"user", "project", "agent"}
    assert len({n["id"] for n in notes}) == len(notes)


def test_demo_has_the_mess_the_pass_is_for() -> None:
    notes = build_demo_notes()
    assert sum(fields.hidden(n) for n in notes) >= 5
    assert sum(fields.hits(n) >= 3 for n in notes) >= 10
    assert any(not n["tags"] for n in notes) and any(not n["links"] for n in notes)
    assert any(is_low_value(n) for n in notes)
    assert any("\r\n" in n["content"] or "  " in n["content"] for n in notes)
    outcome = plan_pass(notes, DEMO_NOW, uncapped=True)
    result = outcome.result
    assert min(result.rewritten, result.merged, result.hidden, result.tagged, result.linked) > 0


def test_materialize_writes_once_and_reset_recreates(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    materialize_demo(home)
    graph = graph_path(home)
    original = graph.read_bytes()
    assert len(json.loads(original)["notes"]) >= 300
    assert "Hand-written" in demo_memory_md(home).read_text()
    graph.write_text('{"version": 3, "notes": []}')
    materialize_demo(home)
    assert graph.read_text() == '{"version": 3, "notes": []}', "first use only; never overwrite"
    materialize_demo(home, reset=True)
    assert graph.read_bytes() == original


def test_demo_command_prints_the_path_and_reflect_works(tmp_path: Path) -> None:
    env = {"NUGGETS_DEMO_DIR": str(tmp_path / "d"), "NUGGETS_NOW": "2026-11-01T09:00:00Z"}
    shown = CliRunner().invoke(main, ["demo"], env=env)
    assert shown.exit_code == 0 and shown.output.strip() == str(tmp_path / "d")
    planned = CliRunner().invoke(main, ["--demo", "reflect"], env=env)
    assert planned.exit_code == 0, planned.output
    assert "10 inspected" in planned.output


def test_demo_holds_real_contradictions_apart_from_its_duplicate_sets() -> None:
    from core.review.contradictions import find_contradictions

    groups = find_contradictions(build_demo_notes())
    disagree = {g.topic: g for g in groups if not g.duplicate}
    assert set(disagree) == {"user: timezone", "local: ports", "test: command"}
    assert all(len(g.positions) == 2 for g in disagree.values())  # the old and the new
    assert sum(g.duplicate for g in groups) >= 20  # the notes written again, apart
    assert [g.duplicate for g in groups] == sorted(g.duplicate for g in groups)


def test_the_microclaw_demo_can_show_a_chats_own_promotion(data_dir: Path) -> None:
    """Each chat of the demo whose memories qualify has the folder its promotion writes to, so
    the demo shows per-chat promotion, not a preview that can never be written."""
    from core.clock import fixed_clock
    from core.stores.microclaw.store import MicroClawStore
    from tests.support.microclaw_support import NOW as MICROCLAW_NOW

    promoter = MicroClawStore(data_dir, fixed_clock(MICROCLAW_NOW)).promoter
    assert promoter is not None
    plans = promoter.plan_promotions()
    chats = [p for p in plans if Path(p.path).parent.name != "groups"]
    assert chats and all(p.directory_exists for p in plans), [
        (str(p.path), p.directory_exists) for p in plans
    ]
