"""Acting through memory-purifier itself (docs/PURIFIER.md, "Acting through the purifier"):
previewing its next run on a copy, running it under its own lock, restoring a candidate into a
source file. The purifier here is our fake (tests/support/fake_purifier/run_purifier.py: the
same command line, lock, artifacts and memory-log events as its orchestrator with the `file`
backend); the workspaces are the fixtures the real purifier wrote (tests/stores/test_purifier.py
says how). The last tests run the real purifier when a copy of it is at /tmp/purifier-runs/src
(catx0rr/memory-purifier at f6050ad, cloned there outside this repository); CI has none and
skips them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.stores.purifier import runner
from core.stores.purifier.store import PurifierStore
from nuggets_tui.cli import main
from tests.stores.test_purifier import copied, jsonl
from tests.support.tree import hashes

FAKE = Path(__file__).resolve().parents[1] / "support" / "fake_purifier"
REAL = Path("/tmp/purifier-runs/src")
ENV = {"NUGGETS_NOW": "2026-11-25T09:00:00Z"}
NEW_LINE = "The backup job runs nightly at 02:00."


def cli(
    workspace: Path, *args: str, scripts: Path | None = FAKE, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    chosen = ["--purifier-scripts", str(scripts)] if scripts is not None else []
    result = CliRunner().invoke(
        main, ["--purifier", str(workspace), *chosen, *args], env={**ENV, **(env or {})}
    )
    return result.exit_code, result.stdout, result.stderr


def with_new_source_line(tmp_path: Path, snapshot: str = "after-first-run") -> Path:
    workspace = copied(tmp_path, snapshot)
    memory = workspace / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n{NEW_LINE}\n")
    return workspace


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def logged(workspace_parent: Path) -> list[dict]:
    """Every event of the shared memory-log, oldest file first: the fixtures' log is dated
    when they were made, a run's lines go to the file of the day it ran."""
    files = sorted((workspace_parent / "telemetry").glob("memory-log-*"))
    return [event for path in files for event in jsonl(path)]


def claims_text(workspace: Path) -> list[str]:
    return [c["text"] for c in jsonl(workspace / "runtime" / "purified-claims.jsonl")]


# -- finding it -----------------------------------------------------------------------------


def test_the_purifier_is_found_in_the_workspaces_skills_or_where_named(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-first-run")
    with pytest.raises(runner.NotInstalledError, match="--purifier-scripts"):
        runner.find(workspace, None)
    installed = workspace / "skills" / "memory-purifier" / "scripts"
    installed.mkdir(parents=True)
    shutil.copy(FAKE / runner.ORCHESTRATOR, installed)
    assert runner.find(workspace, None).scripts == installed
    package = tmp_path / "package"
    shutil.copytree(FAKE, package / "scripts")
    assert runner.find(workspace, package).scripts == package / "scripts"  # the package
    assert runner.find(workspace, FAKE).scripts == FAKE  # its scripts folder
    config = workspace.parent / "memory-purifier" / "memory-purifier.json"
    config.parent.mkdir()
    config.write_text("{}")
    assert runner.find(workspace, None).config == config  # the config its install seeds


def test_not_installed_the_preview_says_so_exits_1_and_reading_works(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    before = hashes(tmp_path)
    code, out, err = cli(workspace, "reflect", scripts=None)
    # said and exit 1: never "No changes: the memory is already tidy."
    assert code == 1 and "memory-purifier is not installed" in err.splitlines()[-1]
    assert "cannot be previewed" in err.splitlines()[-1]
    assert NEW_LINE not in out and "tidy" not in out
    code, _, err = cli(workspace, "reflect", "--apply", scripts=tmp_path / "nowhere")
    assert code == 1 and err.splitlines()[-1].count("not installed") == 1
    assert cli(workspace, "notes", scripts=None)[0] == 0
    assert hashes(tmp_path) == before


def test_an_upgrade_pending_is_said_instead_of_a_preview(tmp_path: Path) -> None:
    """Its run would stop at upgrade_required: the preview says so and exits 1; the
    acknowledgement itself is what can be previewed."""
    workspace = copied(tmp_path, "upgrade-pending")
    before = hashes(tmp_path)
    code, out, err = cli(workspace, "reflect")
    assert code == 1 and "an upgrade of the purifier is pending" in err.splitlines()[-1]
    assert "tidy" not in out
    code, _, err = cli(workspace, "reflect", "--acknowledge-upgrade")
    assert code == 0, err
    assert hashes(tmp_path) == before


def test_an_option_of_the_purifier_without_it_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--home", str(tmp_path), "reflect", "--reconcile"], env=ENV)
    assert result.exit_code == 2 and "--reconcile goes with --purifier" in result.stderr


# -- the preview ----------------------------------------------------------------------------


def test_the_preview_runs_on_a_copy_and_shows_the_next_runs_diff(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    before = hashes(tmp_path)  # the workspace and its telemetry beside it
    code, out, err = cli(workspace, "reflect")
    assert code == 0
    assert hashes(tmp_path) == before  # not a byte of either, not even the memory-log
    lines = err.splitlines()
    assert "may spend tokens" in lines[0]  # said before it runs
    assert any(
        line.startswith("nuggets: preview: the purifier's run") and ": ok" in line for line in lines
    )
    assert any("LTMEMORY.md: the next run rewrites it" in line for line in lines)
    assert f"+{NEW_LINE}" in out  # the new claim, as a diff
    assert "[rewrite] a new claim" in out


def test_the_preview_is_a_plan_of_the_changed_claims(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    store = PurifierStore(workspace)
    store.purifier_scripts = FAKE
    plan = store.plan()
    new = [d for d in plan.notes if d.after.get("content") == NEW_LINE]
    assert len(new) == 1 and new[0].before["content"] == ""
    assert store.side_file_names(plan, set()) == ["LTMEMORY.md"]
    assert not store.is_stale(plan)
    (workspace / "runtime" / "purified-claims.jsonl").write_text("")  # another run landed
    assert store.is_stale(plan)


# -- running it -----------------------------------------------------------------------------


def test_apply_runs_the_purifier_itself_which_writes_and_logs(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    before = hashes(tmp_path)
    code, out, err = cli(workspace, "reflect", "--apply")
    assert code == 0, err
    assert NEW_LINE in claims_text(workspace)
    assert "Run by the purifier itself" in out
    assert any("the purifier's run" in line and ": ok" in line for line in err.splitlines())
    events = logged(tmp_path / "after-first-run")
    assert [e["event"] for e in events[-2:]] == ["run_started", "run_completed"]
    assert events[-1]["mode"] == "incremental"
    assert not (workspace / "runtime" / "locks" / "purifier-run.lock").exists()
    written = changed(before, hashes(tmp_path))
    assert all(
        name.startswith(("after-first-run/workspace/runtime/", "after-first-run/telemetry/"))
        or name == "after-first-run/workspace/LTMEMORY.md"
        for name in written
    )
    assert "after-first-run/workspace/MEMORY.md" not in written  # its sources: never


def test_a_run_waits_for_nobody_under_the_purifiers_own_lock(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    lock = workspace / "runtime" / "locks" / "purifier-run.lock"
    lock.parent.mkdir(exist_ok=True)
    lock.write_text('{"run_id": "cron"}')
    before = hashes(tmp_path)
    code, _, err = cli(workspace, "reflect", "--apply")
    assert code == 0
    assert "skipped (another run appears active)" in err
    assert hashes(tmp_path) == before


@pytest.mark.parametrize(
    ("flag", "snapshot"),
    [("--reconcile", "after-first-run"), ("--acknowledge-upgrade", "upgrade-pending")],
)
def test_reconciliation_and_acknowledging_an_upgrade(
    tmp_path: Path, flag: str, snapshot: str
) -> None:
    workspace = copied(tmp_path, snapshot)
    code, _, err = cli(workspace, "reflect", "--apply", flag)
    assert code == 0, err
    events = logged(tmp_path / snapshot)
    assert events[-1]["event"] == "run_completed" and events[-1]["mode"] == "reconciliation"
    assert not list((workspace / "runtime" / "locks").glob("purifier-upgrade-pending-*"))


def test_a_failed_run_is_one_line_with_the_purifiers_own_message(tmp_path: Path) -> None:
    workspace = with_new_source_line(tmp_path)
    code, _, err = cli(
        workspace,
        "reflect",
        "--apply",
        env={"FAKE_PURIFIER_FAIL": "pass1 output failed validation"},
    )
    assert code == 1
    assert err.splitlines()[-1].startswith("nuggets: the purifier's run")
    assert "failed (pass1 output failed validation)" in err.splitlines()[-1]
    assert "Traceback" not in err
    assert NEW_LINE not in claims_text(workspace)


def test_the_report_of_a_run_that_printed_nothing_readable_is_one_line() -> None:
    with pytest.raises(runner.RunFailed, match=r"exit 2\): boom"):
        runner.parse_report("", "Traceback...\nboom", 2)
    found = runner.parse_report(
        'upgrade pending, see below\n{"status": "upgrade_required", '
        '"runId": "r1", "reason": "version_mismatch"}',
        "",
        2,
    )
    assert (found.status, found.run_id, found.reason) == (
        "upgrade_required",
        "r1",
        "version_mismatch",
    )


# -- restoring a candidate ------------------------------------------------------------------


def candidate(workspace: Path, ledger: str) -> dict:
    return jsonl(workspace / "runtime" / f"{ledger}-candidates.jsonl")[-1]


@pytest.mark.parametrize(
    ("ledger", "into"), [("deferred", "MEMORY.md"), ("rejected", "RTMEMORY.md")]
)
def test_restore_writes_the_text_into_a_source_file_journaled_and_undoable(
    tmp_path: Path, own_data_dir: Path, ledger: str, into: str
) -> None:
    workspace = copied(tmp_path, "after-first-run")
    row = candidate(workspace, ledger)
    target = workspace / into
    old = target.read_bytes() if target.exists() else None
    before = hashes(tmp_path)
    code, out, err = cli(workspace, "unhide", row["candidate_id"], "--into", into)
    assert code == 0, err
    assert f"+{row['text'].strip()}" in out  # the diff
    assert target.read_text().endswith(row["text"].strip() + "\n")
    assert "reconciliation" in err  # offered
    written = changed(before, hashes(tmp_path))
    # in the workspace only the file chosen; the run is journaled in our data directory
    assert [name for name in written if name.startswith("after-first-run/")] == [
        f"after-first-run/workspace/{into}"
    ]
    ours = own_data_dir.relative_to(tmp_path)
    assert any(name.startswith(f"{ours}/purifier/") and name.endswith(".json") for name in written)
    run_id = out.split("(run ")[1].split(";")[0]
    code, _, err = cli(workspace, "undo", run_id)
    assert code == 0, err
    assert (target.read_bytes() if target.exists() else None) == old


def test_undoing_a_restore_is_refused_when_the_file_changed_since(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-first-run")
    row = candidate(workspace, "deferred")
    code, out, _ = cli(workspace, "unhide", row["candidate_id"], "--into", "MEMORY.md")
    run_id = out.split("(run ")[1].split(";")[0]
    (workspace / "MEMORY.md").write_text("edited by the agent\n")
    code, _, err = cli(workspace, "undo", run_id)
    assert code == 1 and "changed since" in err
    assert (workspace / "MEMORY.md").read_text() == "edited by the agent\n"


@pytest.mark.parametrize(
    "into", ["LTMEMORY.md", "runtime/purified-claims.jsonl", "../outside.md", "notes.txt"]
)
def test_restore_goes_only_into_a_source_file(tmp_path: Path, into: str) -> None:
    workspace = copied(tmp_path, "after-first-run")
    before = hashes(tmp_path)
    code, _, err = cli(
        workspace, "unhide", candidate(workspace, "deferred")["candidate_id"], "--into", into
    )
    assert code == 1 and "not a source file" in err.splitlines()[-1]
    assert hashes(tmp_path) == before


# -- the real purifier, when a copy is at hand ----------------------------------------------

real = pytest.mark.skipif(
    not (REAL / "scripts" / runner.ORCHESTRATOR).is_file(),
    reason="no copy of memory-purifier at /tmp/purifier-runs/src",
)


@real
def test_the_real_purifier_previews_on_a_copy_and_says_its_own_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # its default config: none
    workspace = with_new_source_line(tmp_path)
    fixtures = tmp_path / "no-fixtures"
    fixtures.mkdir()
    before = hashes(tmp_path / "after-first-run")
    store = PurifierStore(workspace)
    store.purifier_scripts = REAL
    store.purifier_args = ("--backend", "file", "--fixture-dir", str(fixtures))
    with pytest.raises(runner.RunFailed, match="no fixture at"):  # its own message
        store.plan()
    assert hashes(tmp_path / "after-first-run") == before


@real
def test_the_real_purifier_skips_a_workspace_with_nothing_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    workspace = copied(tmp_path, "after-first-run")
    before = hashes(tmp_path)
    store = PurifierStore(workspace)
    store.purifier_scripts = REAL
    store.purifier_args = ("--backend", "file", "--fixture-dir", str(tmp_path))
    plan = store.plan()
    assert plan.operations == []
    assert any("skipped (no changed or new inputs" in n for n in store.take_notices())
    store.run_now()  # for real: the purifier logs its skip in the shared memory-log
    events = logged(tmp_path / "after-first-run")
    assert events[-1]["component"] == "memory-purifier.purifier"
    assert events[-1]["event"] == "run_skipped"
    written = changed(before, hashes(tmp_path))
    assert written and all(
        "/telemetry/" in name or "/workspace/runtime/" in name for name in written
    )  # its own files only, never a source


@real
def test_the_real_purifier_previews_a_new_claim_then_publishes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its Pass-1 and Pass-2 fixtures come from its own test helper (its tests/_helpers.py,
    `build_fixtures`: everything promoted), run from the copy at /tmp/purifier-runs/src."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.syspath_prepend(str(REAL / "tests"))
    helpers = pytest.importorskip("_helpers")
    workspace = with_new_source_line(tmp_path)
    sandbox = {
        "root": tmp_path / "sandbox",
        "workspace": workspace,
        "config_file": tmp_path / "no-config.json",
        "fixtures_dir": tmp_path / "fixtures",
    }
    for folder in ("root", "fixtures_dir"):
        sandbox[folder].mkdir()
    helpers.build_fixtures(sandbox, "business", "run-real")
    store = PurifierStore(workspace)
    store.purifier_scripts = REAL
    store.run_mode = "reconciliation"  # every source: the fixtures hold every candidate
    store.purifier_args = (
        "--backend",
        "file",
        "--fixture-dir",
        str(sandbox["fixtures_dir"]),
        "--profile",
        "business",
        "--run-id",
        "run-real",
    )
    before = hashes(tmp_path / "after-first-run")
    plan = store.plan()
    assert hashes(tmp_path / "after-first-run") == before  # the preview ran on a copy
    assert any(
        d.after.get("content") == NEW_LINE and d.before.get("content") == "" for d in plan.notes
    )
    assert "LTMEMORY.md" in store.side_file_names(plan, set())
    assert store.apply(plan) is None  # for real: the purifier publishes
    assert NEW_LINE in claims_text(workspace)
    assert "run-real: ok" in " ".join(store.take_notices())
    events = logged(tmp_path / "after-first-run")
    assert (events[-1]["run_id"], events[-1]["event"]) == ("run-real", "run_completed")


def test_daily_runs_no_purifier_promotes_nothing_says_its_health_and_exits_0(
    tmp_path: Path,
) -> None:
    workspace = with_new_source_line(tmp_path, "after-failed-run")
    before = hashes(tmp_path)
    telemetry = tmp_path / "our-log"
    code, out, err = cli(workspace, "-v", "--telemetry-dir", str(telemetry), "daily")
    assert code == 0
    assert {k for k in changed(before, hashes(tmp_path)) if not k.startswith("our-log")} == set()
    assert NEW_LINE not in claims_text(workspace)  # the purifier was not run
    assert err.count("reflect --apply --reconcile") == 1  # its health, said once
    assert "own cron" in out
    logged = [
        json.loads(row)
        for path in telemetry.rglob("*.jsonl")
        for row in path.read_text().splitlines()
        if row.strip()
    ]
    assert [(r["component"], r["status"]) for r in logged] == [("nuggets-review.daily", "ok")]
    assert "reflect --apply --reconcile" in (telemetry / "last-run.md").read_text()  # recorded
