"""`nuggets rules` and review rules deciding `reflect` and `daily` without a person
(docs/REVIEW.md): on the Nuggets demo and the MicroClaw demo alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from core.clock import fixed_clock
from core.models import JournalEntry, RetagOp
from core.plans.review_state import ReviewState, change_key, read_state, write_state
from core.stores.registry import open_store
from nuggets_tui.cli import main
from tests.support.console_support import NOW, demo_home

ROOT = Path(__file__).resolve().parents[2]
ENV = {
    "NUGGETS_NOW": "2026-11-23T10:00:00Z",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
    "TZ": "UTC",
    "NUGGETS_JOURNAL_KEEP": "100",
}


def nuggets(home: Path, *args: str, option: str = "--home") -> Result:
    return CliRunner().invoke(main, [option, str(home), *args], env=ENV)


def test_rules_are_added_listed_removed_and_undone(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    added = nuggets(home, "rules", "add", "no tags", "reject", "--kind", "tag")
    assert added.exit_code == 0, added.output
    assert "Saved rule no tags: reject when kind=tag" in added.stdout
    nuggets(home, "rules", "add", "old notes wait", "review", "--min-age", "30")
    listed = json.loads(nuggets(home, "rules", "--json").stdout)
    assert listed == [
        {"name": "no tags", "action": "reject", "kind": "tag"},
        {"name": "old notes wait", "action": "review", "min_age_days": 30},
    ]
    removed = nuggets(home, "rules", "remove", "no tags")
    assert removed.exit_code == 0, removed.output
    assert [r["name"] for r in json.loads(nuggets(home, "rules", "--json").stdout)] == [
        "old notes wait"
    ]
    run_id = removed.stdout.split("(run ")[1].split(";")[0]
    assert nuggets(home, "undo", run_id).exit_code == 0
    assert "no tags: reject when kind=tag" in nuggets(home, "rules").stdout


def test_bad_rules_are_one_line_usage_errors(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    for args in (
        ["add", "x", "maybe"],
        ["add", "x", "keep", "--min-hits", "-1"],
        ["add", "x", "keep", "--kind", "shred"],
        ["add", "x", "keep", "--min-age", "10", "--max-age", "3"],
        ["add", "x", "keep", "--nugget", "nope"],
        ["remove", "nope"],
    ):
        result = nuggets(home, "rules", *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1, (args, result.output)
    assert nuggets(home, "rules", "--json").stdout.strip() == "[]"


def test_kind_archive_is_accepted_and_shown_as_archive(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    added = nuggets(home, "rules", "add", "keep archiving", "keep", "--kind", "archive")
    assert added.exit_code == 0, added.output
    assert "keep when kind=archive" in added.stdout
    assert "[archive]" in nuggets(home, "reflect").stdout


def test_reflect_names_the_rule_on_each_decision_and_apply_honours_it(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "no tags", "reject", "--kind", "tag")
    dry = nuggets(home, "reflect")
    assert "[tag] (rejected by rule “no tags”)" in dry.stdout
    as_json = json.loads(nuggets(home, "reflect", "--json").stdout)
    assert as_json["rules"] and {r["rule"] for r in as_json["rules"]} == {"no tags"}
    applied = nuggets(home, "reflect", "--apply")
    assert applied.exit_code == 0, applied.output
    assert {op.type for op in _last_run(home).operations} - {"tag"} == {
        op.type for op in _last_run(home).operations
    }
    assert _last_run(home).operations  # the rest was applied


def _last_run(home: Path) -> JournalEntry:
    """The newest run of the pass (daily writes a promotion after it)."""
    store = open_store(home, "nuggets", fixed_clock(NOW))
    return store.journal.run(next(h.run_id for h in store.journal.log() if h.kind == "reflect"))


def test_a_change_the_operator_rejected_stays_rejected_in_reflect_apply(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    store = open_store(home, "nuggets", fixed_clock(NOW))
    plan = store.plan()
    retag = next(op for op in plan.operations if isinstance(op, RetagOp))
    write_state(store.journal.home, ReviewState({change_key(retag): False}))
    assert nuggets(home, "reflect", "--apply").exit_code == 0
    applied = [change_key(op) for op in _last_run(home).operations]
    assert change_key(retag) not in applied and applied
    write_state(
        store.journal.home,
        ReviewState({change_key(op): False for op in store.plan().operations[:1]}),
    )
    assert "(rejected by you)" in nuggets(home, "reflect").stdout


def test_daily_hold_applies_only_what_rules_keep_and_leaves_the_rest_waiting(
    tmp_path: Path,
) -> None:
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "tags are fine", "keep", "--kind", "tag")
    store = open_store(home, "nuggets", fixed_clock(NOW))
    plan = store.plan()
    tagged = {op.note_id for op in plan.operations if isinstance(op, RetagOp)}
    others = len(plan.operations) - len(tagged)
    assert tagged and others
    result = nuggets(home, "daily", "--hold")
    assert result.exit_code == 0, result.output
    assert f"{others:,} changes waiting for review since 2026-11-23 10:00 UTC" in result.stderr
    waiting = read_state(store.journal.home)
    assert waiting.waiting_count() == others
    after = open_store(home, "nuggets", fixed_clock(NOW)).plan()
    assert not any(isinstance(op, RetagOp) and op.note_id in tagged for op in after.operations)
    assert len(after.operations) >= others  # the rest still planned, waiting


def _run_log_counts(home: Path, command: str) -> dict[str, int]:
    logs = sorted((home / "telemetry").glob("memory-log-*.jsonl"))
    lines = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    return next(
        line["counts"]
        for line in reversed(lines)
        if line["component"] == f"nuggets-review.{command}"
    )


def test_daily_hold_reports_and_logs_what_it_applied_not_the_whole_plan(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "tags are fine", "keep", "--kind", "tag")
    plan = open_store(home, "nuggets", fixed_clock(NOW)).plan()
    tags = sum(op.type == "tag" for op in plan.operations)
    assert tags and plan.result.rewritten + plan.result.linked  # more planned than kept
    result = nuggets(home, "-v", "daily", "--hold")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("Reflection:"))
    assert f"0 rewritten, 0 merged, 0 archived, {tags:,} tagged, 0 linked" in line
    counts = _run_log_counts(home, "daily")
    assert (counts["tagged"], counts["rewritten"], counts["linked"]) == (tags, 0, 0)
    assert counts["waiting_for_review"] == len(plan.operations) - tags


def test_daily_says_what_waits_on_stderr_even_without_v_and_nothing_else(tmp_path: Path) -> None:
    """Cron mails what a command writes: the waiting review is the operator's to learn, like
    the notices daily gives on stderr; everything else is said only with -v."""
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "links wait", "review", "--kind", "link")
    result = nuggets(home, "daily")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    waiting = [x for x in result.stderr.splitlines() if "waiting for review" in x]
    assert len(waiting) == 1 and waiting[0].startswith("nuggets: ")


def test_microclaw_rules_decide_reflect_too(data_dir: Path) -> None:
    added = nuggets(
        data_dir, "rules", "add", "stale waits", "review", "--step", "stale", option="--microclaw"
    )
    assert added.exit_code == 0, added.output
    dry = nuggets(data_dir, "reflect", option="--microclaw")
    assert "(waits for review by rule “stale waits”)" in dry.stdout


def test_daily_honours_rules_and_says_what_waits(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "no tags", "reject", "--kind", "tag")
    nuggets(home, "rules", "add", "links wait", "review", "--kind", "link")
    plan = open_store(home, "nuggets", fixed_clock(NOW)).plan()
    links = sum(op.type == "link" for op in plan.operations)
    assert links and any(op.type == "tag" for op in plan.operations)
    result = nuggets(home, "daily")
    assert result.exit_code == 0, result.output
    applied = {op.type for op in _last_run(home).operations}
    assert applied and applied.isdisjoint({"tag", "link"})
    assert f"{links:,} change{'s' if links > 1 else ''} waiting for review" in result.stderr


def test_python_dash_m_knows_every_command(tmp_path: Path) -> None:
    """`python -m nuggets_tui.cli` has the commands registered by the other modules too."""
    home = demo_home(tmp_path)
    for command in ("rules", "conflicts"):
        done = subprocess.run(
            [sys.executable, "-m", "nuggets_tui.cli", "--home", str(home), command, "--json"],
            capture_output=True,
            text=True,
            env={**os.environ, **ENV},
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        json.loads(done.stdout)


def test_changes_still_waiting_the_next_day_keep_their_first_time(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    nuggets(home, "rules", "add", "links wait", "review", "--kind", "link")
    first = nuggets(home, "daily")
    assert "waiting for review since 2026-11-23 10:00 UTC" in first.stderr
    state = read_state(home)
    kept_waiting = state.waiting[:]
    next_day = CliRunner().invoke(
        main, ["--home", str(home), "daily"], env={**ENV, "NUGGETS_NOW": "2026-11-24T10:00:00Z"}
    )
    assert next_day.exit_code == 0, next_day.output
    again = read_state(home)
    assert set(again.waiting) & set(kept_waiting)  # the same links are still planned
    assert again.waiting_since == state.waiting_since
    assert "since 2026-11-23 10:00 UTC" in next_day.stderr
