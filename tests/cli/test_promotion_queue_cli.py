"""Open contradictions stay out of the files the agent loads (README, "Contradictions and
verdicts"; docs/PROMOTION.md, "Open contradictions stay out"), and `daily --hold` writes
nothing no rule kept, promotion included (docs/REVIEW.md, "The daily pass and `--hold`"): on
the Nuggets demo and a MicroClaw database made the bot's way."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from core.clock import fixed_clock
from core.stores.microclaw.store import MicroClawStore
from core.stores.registry import open_store
from nuggets_tui.cli import main
from tests.support.console_support import NOW, demo_home
from tests.support.microclaw_rows import insert, make_db

TIMEZONE = "c-663048de"  # the demo's "user: timezone": Lisbon, or Berlin since October
LISBON = "fact-user-cca558b7"  # recalled 9 times: the entry promotion would write
BERLIN = "note-user-a414dc40"


def _env(home: Path) -> dict[str, str]:
    return {
        "NUGGETS_NOW": "2026-11-23T10:00:00Z",
        "NUGGETS_HOME": "",
        "TZ": "UTC",
        "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md"),
        "NUGGETS_JOURNAL_KEEP": "100",
    }


def nuggets(home: Path, *args: str, option: str = "--home") -> Result:
    return CliRunner().invoke(main, [option, str(home), *args], env=_env(home))


def _memory_md(home: Path) -> bytes:
    return (home / "memory" / "MEMORY.md").read_bytes()


def test_demo_promote_holds_back_lisbon_while_berlin_is_undecided(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    groups = json.loads(nuggets(home, "conflicts", "--json").stdout)
    [timezone] = [g for g in groups if g["id"] == TIMEZONE]
    assert {LISBON, BERLIN} <= set(timezone["noteIds"]) and not timezone["duplicate"]
    dry = nuggets(home, "promote")
    assert dry.exit_code == 0, dry.output
    assert f"user: timezone ({LISBON}): it is in the contradiction queue ({TIMEZONE})" in dry.stdout
    assert f"decide it first: nuggets resolve {TIMEZONE} (see nuggets conflicts)" in dry.stdout
    [held] = [
        b
        for b in json.loads(nuggets(home, "promote", "--json").stdout)["blocked"]
        if b["noteId"] == LISBON
    ]
    assert held["queued"] == TIMEZONE
    applied = nuggets(home, "promote", "--apply")
    assert applied.exit_code == 0, applied.output
    assert b"Works from Lisbon" not in _memory_md(home)
    assert b"session: ci cache day 1" in _memory_md(home)  # what nothing holds back is written


def test_deciding_the_group_then_promoting_writes_the_winner(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    decided = nuggets(home, "resolve", TIMEZONE, "--keep", LISBON, "--apply")
    assert decided.exit_code == 0, decided.output
    applied = nuggets(home, "promote", "--apply")
    assert applied.exit_code == 0, applied.output
    assert b"- **user: timezone**: Works from Lisbon" in _memory_md(home)
    assert b"Berlin" not in _memory_md(home)


def test_an_allowance_writes_a_queued_entry_as_shown(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    [held] = [
        b
        for b in json.loads(nuggets(home, "promote", "--json").stdout)["blocked"]
        if b["noteId"] == LISBON
    ]
    applied = nuggets(home, "promote", "--apply", "--allow", f"{LISBON}@{held['hash']}")
    assert applied.exit_code == 0, applied.output
    assert b"Works from Lisbon" in _memory_md(home)
    assert "(allowed although it is in the contradiction queue" in applied.stdout


def _run_log_counts(home: Path) -> dict[str, int]:
    logs = sorted((home / "telemetry").glob("memory-log-*.jsonl"))
    lines = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
    return next(
        line["counts"] for line in reversed(lines) if line["component"] == "nuggets-review.daily"
    )


def test_daily_hold_without_rules_writes_nothing_and_says_what_waits(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    before = _memory_md(home)
    store = open_store(home, "nuggets", fixed_clock(NOW))
    planned = store.plan()
    assert store.promoter is not None
    [promotion] = store.promoter.plan_promotions()
    waiting = sum(e.action in ("add", "update") for e in promotion.entries)
    assert planned.operations and waiting  # there is something to write, and it waits
    result = nuggets(home, "-v", "daily", "--hold")
    assert result.exit_code == 0, result.output
    assert _memory_md(home) == before  # not a byte promoted
    assert store.journal.log() == []  # no run at all: nothing written to the notes either
    assert (
        f"nuggets: {waiting:,} promotion entries wait: review with "
        f"`nuggets --home {home} promote` (console: p)."
    ) in result.stderr
    changes = f"{len(planned.operations):,} changes"
    assert f"(nothing written; {changes} wait for review)" in result.stdout
    assert f"{waiting:,} entries to " in result.stdout and "wait for review" in result.stdout
    counts = _run_log_counts(home)
    assert counts["promotion_waiting"] == waiting and counts["promoted_added"] == 0
    quiet = nuggets(demo_home(tmp_path / "again"), "daily", "--hold")
    assert quiet.stdout == "" and "promotion entries wait" in quiet.stderr  # said without -v


def test_daily_never_writes_a_side_of_an_open_contradiction(tmp_path: Path) -> None:
    home = demo_home(tmp_path)
    result = nuggets(home, "-v", "daily")
    assert result.exit_code == 0, result.output
    written = _memory_md(home)
    assert b"session: ci cache day 1" in written  # daily did promote
    assert b"Works from Lisbon" not in written and b"Berlin" not in written
    assert "(and `nuggets conflicts`)" in result.stdout


def _ports(tmp_path: Path) -> Path:
    """A database with two global rows that disagree on one port, both sure enough to be
    promoted to groups/AGENTS.md."""
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    conn = sqlite3.connect(db)
    insert(conn, "Production database port is 5432", confidence=0.9)
    insert(conn, "Production database port is 5433", confidence=0.9)
    insert(conn, "The project deploys on Fridays", confidence=0.9)
    conn.commit()
    conn.close()
    (db.parent / "groups").mkdir()
    return db.parent.parent


def test_microclaw_holds_both_port_rows_until_one_stands(tmp_path: Path) -> None:
    data_dir = _ports(tmp_path)
    store = MicroClawStore(data_dir)
    [plan] = store.plan_promotions()
    assert [e.text for e in plan.entries] == ["- The project deploys on Fridays"]
    assert [b.note_id for b in plan.blocked] == ["mc-1", "mc-2"]
    group = plan.blocked[0].queued
    assert group and plan.blocked[1].queued == group
    assert "5432" not in plan.after_text and "5433" not in plan.after_text
    decided = nuggets(data_dir, "resolve", group, "--keep", "mc-2", "--apply", option="--microclaw")
    assert decided.exit_code == 0, decided.output
    _, added = MicroClawStore(data_dir).promote_now()
    text = store.promotion_target().read_text()
    assert added == 2 and "- Production database port is 5433" in text and "5432" not in text


def test_microclaw_daily_hold_leaves_every_agents_md_as_it_was(data_dir: Path) -> None:
    def files() -> dict[Path, bytes]:
        return {p: p.read_bytes() for p in sorted(data_dir.rglob("AGENTS.md"))}

    before = files()
    waiting = sum(
        e.action == "add"
        for p in MicroClawStore(data_dir).plan_promotions()
        for e in p.entries
        if p.directory_exists and not p.refused
    )
    assert waiting
    result = nuggets(data_dir, "daily", "--hold", option="--microclaw")
    assert result.exit_code == 0, result.output
    assert files() == before
    assert f"nuggets: {waiting:,} promotion entries wait" in result.stderr
