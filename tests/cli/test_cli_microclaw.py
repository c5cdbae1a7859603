"""`nuggets --microclaw DIR <command>`: every command on a MicroClaw data dir, through the same
command line as a Nuggets home."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.stores.microclaw.generate import Row
from core.stores.microclaw.paths import database_path
from nuggets_tui.cli import main
from tests.support.microclaw_support import ago, data_dir_with, simple_rows

OLD_TIME = "2025-01-01T00:00:00.000000+00:00"
ENV = {"NUGGETS_NOW": "2026-11-24T09:00:00Z", "NUGGETS_JOURNAL_KEEP": "100"}


def run(data_dir: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--microclaw", str(data_dir), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


def archived(data_dir: Path) -> set[int]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return {r[0] for r in conn.execute("SELECT id FROM memories WHERE is_archived = 1")}
    finally:
        conn.close()


def digest(data_dir: Path) -> str:
    """Every file's bytes, but SQLite's own companions of a WAL database (any reader makes them
    when the bot is not running: see docs/MICROCLAW.md)."""
    files = [
        p
        for p in sorted(data_dir.rglob("*"))
        if p.is_file() and not p.name.endswith(("-wal", "-shm"))
    ]
    return hashlib.sha256(b"".join(bytes(p) + p.read_bytes() for p in files)).hexdigest()


def test_reflect_dry_run_names_each_rule_and_writes_nothing(data_dir: Path) -> None:
    before = digest(data_dir)
    code, out, _ = run(data_dir, "reflect")
    assert code == 0
    for rule in (
        "bot step 'stale'",
        "bot step 'expired'",
        "the bot will DELETE",
        "our suggestion",
        "(left out unless kept)",
    ):
        assert rule in out
    assert "(dry run)" in out
    assert digest(data_dir) == before


def test_apply_unhide_undo_round_trip(data_dir: Path) -> None:
    was = archived(data_dir)
    code, out, _ = run(data_dir, "reflect", "--apply")
    assert code == 0 and "Applied as run" in out
    run_id = out.rsplit("nuggets undo ", 1)[1].strip(" )\n")
    now = archived(data_dir)
    assert now > was
    back = min(now - was)
    code, out, _ = run(data_dir, "unhide", f"mc-{back}")
    assert code == 0 and "Unhid 1 note" in out
    assert back not in archived(data_dir)
    assert len(now - was) > 1
    code, out, err = run(data_dir, "undo", run_id)
    # that row changed since: named and left as it is; every other row restored
    assert code == 0 and f"mc-{back}" in err and "left as they are" in err
    assert archived(data_dir) == was


def test_notes_show_category_confidence_and_source(data_dir: Path) -> None:
    code, out, _ = run(data_dir, "notes")
    assert code == 0
    first = out.splitlines()[0]
    assert first.split()[0].startswith("mc-") and "confidence=" in first and "source=" in first


LONG_ROW = (
    "The staging cluster is rebuilt from the infra repository every Sunday night and "
    "its database is restored from the Saturday snapshot, so tests must not rely on data "
    "written during the week; ask the platform team before pinning anything there"
)


def test_notes_piped_print_each_rows_text_whole(tmp_path: Path) -> None:
    """Nothing is cut when no terminal takes the lines: the row's last words are there."""
    rows = [Row(LONG_ROW, chat=None, created_at=ago(3)), Row("short", created_at=ago(3))]
    code, out, _ = run(data_dir_with(tmp_path, rows), "notes")
    assert code == 0
    assert f"[global] {LONG_ROW}  KNOWLEDGE" in out and "…" not in out


def test_promote_takes_a_row_longer_than_a_title_may_be(tmp_path: Path) -> None:
    """A row's title is its text; the entry written is that text, screened as an entry (its
    length stays under an entry's bound, not a title's)."""
    text = " ".join([LONG_ROW] * 2)
    assert len(text) > 300
    rows = [Row(text, chat=None, confidence=0.95, created_at=ago(3))]
    code, out, _ = run(data_dir_with(tmp_path, rows), "promote")
    assert code == 0 and "1 to add" in out and "characters long" not in out


def test_promote_goes_by_confidence_in_percent_to_each_scopes_agents_md(data_dir: Path) -> None:
    code, out, _ = run(data_dir, "promote")
    assert code == 0
    assert "with confidence 80% or more" in out and "AGENTS.md" in out
    assert "recalled" not in out
    code, out, _ = run(data_dir, "promote", "--threshold", "100")
    assert code == 0 and "0 to add" in out


def test_promote_shows_the_bots_token_budget_for_each_scope(data_dir: Path) -> None:
    code, out, _ = run(data_dir, "promote")
    assert code == 0
    said = [line for line in out.splitlines() if line.startswith("MicroClaw injects")]
    assert said[0] == (
        "MicroClaw injects at most 1,500 tokens of structured memories of the "
        "global scope: about 60 tokens used; room for 1,440 tokens more."
    )
    assert any(line.endswith("items left out of the prompt.") for line in said)
    code, out, _ = run(data_dir, "promote", "--json")
    budgets = json.loads(out)["budgets"]
    assert len(budgets) == len(said) and budgets[0]["used"] == {"tokens": 60}
    assert all(b["limits"] == {"tokens": 1500} for b in budgets)


def test_a_missing_data_dir_is_one_line_and_nothing_is_created(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "nope", "reflect")  # named by an option: a usage error
    assert code == 2 and err.count("\n") == 1 and "MicroClaw" in err
    assert not (tmp_path / "nope").exists()


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "mc" / "runtime" / "microclaw.db"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database at all" * 100)
    code, _, err = run(tmp_path / "mc", "reflect")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err


def test_demo_microclaw_and_home_cannot_be_mixed() -> None:
    result = CliRunner().invoke(main, ["--demo-microclaw", "--home", "x", "log"], env=ENV)
    assert result.exit_code == 2 and "cannot be used together" in result.stderr


def edges(data_dir: Path) -> list[tuple]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return conn.execute(
            "SELECT from_memory_id, to_memory_id, reason FROM memory_supersede_edges"
        ).fetchall()
    finally:
        conn.close()


def test_a_conflict_resolved_archives_the_other_row_with_an_operator_edge(data_dir: Path) -> None:
    code, out, _ = run(data_dir, "conflicts")
    assert code == 0
    line = next(x for x in out.splitlines() if "db_port" in x)
    group = line.split()[0]
    code, out, _ = run(data_dir, "resolve", group, "--keep", "mc-10", "--apply")
    assert code == 0 and "Applied as run" in out
    assert 11 in archived(data_dir) and 10 not in archived(data_dir)
    assert (11, 10, "operator") in edges(data_dir)
    assert "db_port" not in run(data_dir, "conflicts")[1]  # decided: no longer a conflict
    run_id = out.rsplit("nuggets undo ", 1)[1].strip(" )\n")
    assert run(data_dir, "undo", run_id)[0] == 0
    assert 11 not in archived(data_dir)


def test_rows_cannot_be_merged_and_nothing_is_written(data_dir: Path) -> None:
    group = next(x for x in run(data_dir, "conflicts")[1].splitlines() if "db_port" in x).split()[0]
    before = archived(data_dir), edges(data_dir)
    code, _, err = run(data_dir, "resolve", group, "--keep", "mc-10", "--merge", "--apply")
    assert code == 1 and "cannot be merged" in err
    assert (archived(data_dir), edges(data_dir)) == before
    assert not list(data_dir.rglob("reflections/*.json"))  # no run journaled


def test_the_one_shot_apply_beside_a_writing_bot_loses_none_of_its_rows(
    data_dir: Path, tmp_path: Path
) -> None:
    """The bot (another process, its own connection and busy timeout) inserts and edits rows
    while `reflect --apply`, `unhide` and `undo` run: every row it wrote is there as it wrote
    it, none is deleted, and what we archived is exactly what our runs archived."""
    import json
    import subprocess
    import sys

    from tests.support.microclaw_rows import BOT

    db = database_path(data_dir)
    initial = set(_all_rows(db))
    stop = tmp_path / "stop"
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT, str(db), str(stop)], stdout=subprocess.PIPE, text=True
    )
    try:
        while len(_all_rows(db)) == len(initial):  # the bot has started writing
            pass
        code, out, err = run(data_dir, "reflect", "--apply")
        assert code == 0, err  # planned again while the bot kept the plan stale, then landed
        run_id = out.rsplit("nuggets undo ", 1)[1].strip(" )\n")
        assert run(data_dir, "unhide", "mc-4")[0] == 0
        assert run(data_dir, "reflect", "--apply")[0] == 0
    finally:
        stop.touch()
        report = json.loads(bot.communicate(timeout=60)[0])
    final = _all_rows(db)
    assert initial | set(report["inserted"]) == set(final)  # no row lost, none deleted
    for row_id, content in report["written"].items():
        assert final[int(row_id)][0] == content  # the bot's edits all survive
    assert run_id


def _all_rows(db: Path) -> dict[int, tuple]:
    conn = sqlite3.connect(db, timeout=5)
    try:
        return {r[0]: r[1:] for r in conn.execute("SELECT id, content, is_archived FROM memories")}
    finally:
        conn.close()


def test_daily_logs_its_run_and_names_every_run_to_undo(data_dir: Path) -> None:
    code, _, err = run(data_dir, "daily")
    assert code == 0, err
    telemetry = data_dir / "runtime" / "nuggets-review" / "telemetry"
    report = (telemetry / "last-run.md").read_text()
    runs = [line.split()[0] for line in run(data_dir, "log")[1].splitlines()]
    assert len(runs) >= 2  # the rules' run and at least one AGENTS.md
    assert all(f"nuggets undo {r}" in report for r in runs)
    assert (
        '"component": "nuggets-review.daily"'
        in next(telemetry.glob("memory-log-*.jsonl")).read_text()
    )


def expiries(data_dir: Path) -> dict[int, str | None]:
    conn = sqlite3.connect(database_path(data_dir))
    try:
        return dict(conn.execute("SELECT id, expires_at FROM memories"))
    finally:
        conn.close()


def test_an_expired_row_is_left_to_the_bot_unless_rescued_with_also(data_dir: Path) -> None:
    was = expiries(data_dir)
    code, out, _ = run(data_dir, "reflect", "--apply")
    assert code == 0 and expiries(data_dir) == was  # the bot's deletion: nothing written
    assert "[keep] (left out unless kept) bot step 'expired'" in out
    assert 6 not in archived(data_dir)  # never archived: the bot deletes it
    code, out, _ = run(data_dir, "reflect", "--apply", "--also", "mc-6")
    assert code == 0 and "Applied as run" in out
    now = expiries(data_dir)
    assert was[6] is not None and now[6] is None
    assert {i for i in now if now[i] != was[i]} == {6}
    code, _, err = run(data_dir, "reflect", "--also", "mc-6")
    assert code == 2 and "--also" in err


def test_our_journal_folder_linked_elsewhere_is_refused_and_nothing_is_written(
    data_dir: Path, tmp_path: Path
) -> None:
    """Whoever owns the bot's data dir must not choose where our journal and lock go: with
    `runtime/nuggets-review` a link to another folder, a write is refused in one line and
    neither that folder nor the database changes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "victim").write_text("someone else's file\n")
    ours = data_dir / "runtime" / "nuggets-review"
    if ours.exists():
        import shutil

        shutil.rmtree(ours)
    ours.symlink_to(elsewhere, target_is_directory=True)
    was = archived(data_dir)
    row = next(iter(sorted(set(range(1, 400)) - was)))
    code, _, err = run(data_dir, "archive", f"mc-{row}")
    assert code == 1 and "symbolic link" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in elsewhere.iterdir()) == ["victim"]
    assert archived(data_dir) == was


def test_a_row_with_a_negative_id_is_named_and_skipped_while_every_other_row_works(
    data_dir: Path,
) -> None:
    conn = sqlite3.connect(database_path(data_dir))
    victim = conn.execute("SELECT MAX(id) FROM memories WHERE is_archived = 0").fetchone()[0]
    # a row the bot's stale step would archive, so the plan would touch it
    conn.execute(
        "UPDATE memories SET id = -5, confidence = 0.1, last_seen_at = ?, "
        "updated_at = ? WHERE id = ?",
        (OLD_TIME, OLD_TIME, victim),
    )
    conn.commit()
    conn.close()
    was = archived(data_dir)
    code, out, err = run(data_dir, "reflect", "--apply")
    assert code == 0 and "Applied as run" in out, err
    lines = [line for line in err.splitlines() if "-5" in line]
    assert len(lines) == 1 and "skipped" in lines[0]
    assert archived(data_dir) > was
    run_id = out.rsplit("nuggets undo ", 1)[1].strip(" )\n")
    code, out, err = run(data_dir, "undo", run_id)
    assert code == 0, err
    assert archived(data_dir) == was


def _read_only_mount_works(folder: Path) -> bool:
    """Whether this machine lets a test mount a folder read-only in a namespace of its own."""
    probe = (
        subprocess.run(
            [
                "unshare",
                "-m",
                "sh",
                "-c",
                f"mount --bind '{folder}' '{folder}' && mount -o remount,bind,ro '{folder}'",
            ],
            capture_output=True,
            check=False,
        )
        if shutil.which("unshare")
        else None
    )
    return probe is not None and probe.returncode == 0


def test_a_wal_database_on_a_read_only_filesystem_is_read_in_immutable_mode(tmp_path: Path) -> None:
    """The bot stopped, its database in WAL mode without -wal/-shm, on a filesystem that
    cannot be written (a read-only bind mount, in a mount namespace of the test's own)."""
    data_dir = data_dir_with(tmp_path, simple_rows(3))
    runtime = database_path(data_dir).parent
    assert not list(runtime.glob("*-wal")) and not list(runtime.glob("*-shm"))
    if not _read_only_mount_works(runtime):
        pytest.skip("cannot mount a folder read-only here (needs unshare and mount)")
    command = [sys.executable, "-m", "nuggets_tui.cli", "--microclaw", str(data_dir), "reflect"]
    shell = (
        f"mount --bind '{runtime}' '{runtime}' && mount -o remount,bind,ro '{runtime}' "
        f"&& exec {shlex.join(command)}"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", shell],
        capture_output=True,
        text=True,
        env={**os.environ, **ENV},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if "immutable" in line]
    assert len(notices) == 1 and str(database_path(data_dir)) in notices[0]
    assert "(dry run)" in done.stdout
