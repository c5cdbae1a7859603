"""The MicroClaw benchmarks run (on a small database): their figures stay reportable."""

from __future__ import annotations

from bench import microclaw_apply, microclaw_plan


def test_the_plan_benchmark_reports_its_ratio_to_a_plain_select() -> None:
    figures = microclaw_plan.main(600)
    assert figures["rows"] == 600 and figures["plan_vs_select"] > 0
    assert figures["archived"] > 0


def test_the_apply_benchmark_applies_and_undoes_the_whole_plan() -> None:
    figures = microclaw_apply.main(600)
    assert figures["operations"] > 0 and figures["apply_vs_select"] > 0
    assert figures["undo_s"] > 0
