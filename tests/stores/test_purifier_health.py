"""The purifier's health lines and run history as the purifier really ran (docs/PURIFIER.md,
"Runs and health"): a dropped input that only a reconciliation brings back, a workspace over
its cluster cap, each run's own status and reason, its run lock, a workspace laid out outside
~/.openclaw, and files that are not what they should be.

How the fixtures under tests/fixtures/purifier/health/ were made: memory-purifier
(catx0rr/memory-purifier) at f6050ad (v1.7.0), installed into a fresh fake HOME by its own
installer, `env -i PATH=/usr/bin:/bin HOME=<home> [WORKSPACE=<ws>] bash install.sh --local
--skip-cron --non-interactive --agent-profile business`, then run as installed, its config and
telemetry found through HOME:
`HOME=<home> python3 <home>/.openclaw/workspace/skills/memory-purifier/scripts/run_purifier.py
--mode MODE --run-id RUN --force --backend file --fixture-dir FX --workspace WS`, the Pass-1 and
Pass-2 answers (FX) built the way its own tests build them (its tests/_helpers.py).
Each folder is the fake HOME's `.openclaw/` (or, for `elsewhere/`, the HOME and the workspace)
after the step named, without the installed package; of the staging it keeps for a run that
did not publish only `scope.json` and `pass2.json` are here. The folder the runs were made in is
written `/tmp/purifier-runs/…` in their text. Every other byte is the purifier's.

- skipped-after-failure: run-0001 ok; run-0002 skipped (nothing changed); a line about Tokyo
  added to MEMORY.md and the Pass-1 answers' strengths drifted, run-0003 partial_failure (Pass 1,
  a failure record); run-0004 skipped ("no changed or new inputs": Tokyo dropped).
- incremental-after-failure: then a new episode, run-0005 incremental ok (only the episode in
  scope; the Tokyo line still unprocessed).
- reconciliation-after-failure: then another episode with no Pass-2 answer, run-0006
  partial_failure (Pass 2); run-0007 reconciliation ok (Tokyo processed).
- oversized: a MEMORY.md of 252 distinct paragraphs, run-big1 incremental partial_failure
  (Pass 2 scores 10 batches of limits.max_clusters_per_batch 20).
- elsewhere: installed with WORKSPACE=<box>/agent-ws, run-e1 incremental ok as its cron prompt
  runs it (`--workspace` given, config and telemetry under HOME/.openclaw).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.stores.purifier import runner
from core.stores.purifier.artifacts import first_rows
from core.stores.purifier.store import PurifierStore
from nuggets_tui.cli import main
from nuggets_tui.screens.history import Runs
from tests.support.tree import hashes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "purifier" / "health"
FAKE = Path(__file__).resolve().parents[1] / "support" / "fake_purifier"
NOW = datetime(2026, 11, 29, 9, tzinfo=UTC)
ENV = {"NUGGETS_NOW": "2026-11-29T09:00:00Z"}
RECONCILE = "reflect --apply --reconcile"


def workspace_of(name: str) -> Path:
    return FIXTURES / name / "workspace"


def copied(tmp_path: Path, name: str) -> Path:
    shutil.copytree(FIXTURES / name, tmp_path / name)
    return tmp_path / name / "workspace"


def health(workspace: Path) -> list[str]:
    return PurifierStore(workspace, lambda: NOW).health()


def run(workspace: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main, ["--purifier", str(workspace), *args], env={**ENV, **(env or {})}
    )
    return result.exit_code, result.stdout, result.stderr


# -- a dropped input stays said until a reconciliation processed it ----------------------------


def test_a_later_incremental_run_does_not_hide_the_dropped_input() -> None:
    lines = [
        line for line in health(workspace_of("incremental-after-failure")) if RECONCILE in line
    ]
    assert len(lines) == 1
    assert "run run-0003 failed" in lines[0]
    assert "MEMORY.md" in lines[0]  # the file its scope held, from its kept scope.json


def test_the_reconciliation_that_processed_it_clears_it() -> None:
    lines = health(workspace_of("reconciliation-after-failure"))
    assert not [line for line in lines if RECONCILE in line or "new hashes" in line]


def test_an_incremental_run_that_processed_every_dropped_file_clears_it(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "incremental-after-failure")
    manifest_path = workspace / "runtime" / "purified-manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["processedSegments"] = [*manifest["processedSegments"], "MEMORY.md"]
    manifest_path.write_text(json.dumps(manifest))  # as when MEMORY.md changed again
    assert not [line for line in health(workspace) if RECONCILE in line]


# -- more clusters than a run scores --------------------------------------------------------


def test_a_run_over_its_cluster_cap_is_named_with_its_count() -> None:
    lines = health(workspace_of("oversized"))
    over = [line for line in lines if "252 clusters" in line]
    assert len(over) == 1
    assert "more than the 200" in over[0] and "a reconciliation too" in over[0]
    assert "(to at least 26)" in over[0]
    # a reconciliation fails the same way: it is never what the console advises here
    assert not [line for line in lines if RECONCILE in line]


def test_without_its_staging_the_manifest_still_tells_the_cap(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "oversized")
    shutil.rmtree(workspace / "runtime" / ".staging-purifier")
    lines = health(workspace)
    assert [line for line in lines if "more clusters than one run scores" in line]
    assert not [line for line in lines if RECONCILE in line]


# -- each run's own status, and its reason -------------------------------------------------


def test_log_gives_each_runs_status_and_its_reason() -> None:
    code, out, _ = run(workspace_of("skipped-after-failure"), "log", "--json")
    runs = {r["runId"]: r for r in json.loads(out)}
    assert code == 0
    assert {r: runs[r]["outcome"] for r in runs} == {
        "run-0001": "ok",
        "run-0002": "skipped",
        "run-0003": "partial_failure",
        "run-0004": "skipped",
    }
    # last-run.md holds the last run's reason, the failure record the failed pass's
    assert "no changed or new inputs since last successful cursor" in runs["run-0004"]["summary"]
    assert (
        "its promotion pass failed: batch 0: verdicts[0] strength=2.9"
        in (runs["run-0003"]["summary"])
    )
    assert "(" not in runs["run-0001"]["summary"]


def test_log_gives_an_oversized_runs_cluster_count() -> None:
    code, out, _ = run(workspace_of("oversized"), "log")
    assert code == 0
    assert "partial_failure (252 clusters, more than the 200 one run scores" in out


def test_the_run_history_shows_the_purifiers_own_status() -> None:
    store = PurifierStore(workspace_of("skipped-after-failure"), lambda: NOW)
    states = {h.run_id: Runs().state(h) for h in store.log()}
    assert states == {
        "run-0001": "ok",
        "run-0002": "skipped",
        "run-0003": "partial_failure",
        "run-0004": "skipped",
    }


# -- the run lock: judged by its age alone --------------------------------------------------


def dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


@pytest.mark.parametrize(
    ("hours", "expected"),
    [
        (2.1, "the purifier's next run takes it over (stale after 2h) and runs"),
        (1.5, "the purifier's next run skips ('another run appears active') until the lock"),
    ],
)
def test_a_dead_processs_lock_is_judged_by_its_age(
    tmp_path: Path, hours: float, expected: str
) -> None:
    workspace = copied(tmp_path, "reconciliation-after-failure")
    lock = workspace / "runtime" / "locks" / "purifier-run.lock"
    pid = dead_pid()
    lock.write_text(json.dumps({"run_id": "run-x", "pid": pid}))
    stamp = NOW.timestamp() - hours * 3600
    os.utime(lock, (stamp, stamp))
    lines = [line for line in health(workspace) if "purifier-run.lock" in line]
    assert len(lines) == 1
    assert f"process {pid}, which is gone" in lines[0]
    assert expected in lines[0]


# -- a workspace outside ~/.openclaw, as its installer lays it out ----------------------------


def test_a_workspace_elsewhere_finds_its_runs_in_the_homes_telemetry(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "elsewhere", tmp_path / "box")
    home = tmp_path / "box" / "home"
    code, out, err = run(tmp_path / "box" / "agent-ws", "log", env={"HOME": str(home)})
    assert code == 0
    assert "run-e1" in out and "incremental ok" in out
    assert "No runs applied yet." not in err


def test_a_workspace_elsewhere_finds_the_scripts_and_config_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(FIXTURES / "elsewhere", tmp_path / "box")
    home = tmp_path / "box" / "home"
    scripts = home / ".openclaw" / "workspace" / "skills" / "memory-purifier" / "scripts"
    shutil.copytree(FAKE, scripts)
    monkeypatch.setenv("HOME", str(home))
    found = runner.find(tmp_path / "box" / "agent-ws", None)
    assert found.scripts == scripts
    assert found.config == home / ".openclaw" / "memory-purifier" / "memory-purifier.json"


# -- files that are not what they should be --------------------------------------------------


def test_a_fifo_as_the_claims_file_is_refused_in_one_line(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "reconciliation-after-failure")
    claims = workspace / "runtime" / "purified-claims.jsonl"
    claims.unlink()
    os.mkfifo(claims)
    assert first_rows(claims, 30) == []  # a plain open would wait for a writer forever
    code, _, err = run(workspace, "notes")
    assert code == 0
    said = [line for line in err.splitlines() if str(claims) in line]
    assert said == [
        f"nuggets: {claims}: is a named pipe (FIFO), not a regular file; nuggets opens only "
        "regular files; left out"
    ]


def test_dev_zero_as_the_claims_file_is_refused(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "reconciliation-after-failure")
    claims = workspace / "runtime" / "purified-claims.jsonl"
    claims.unlink()
    claims.symlink_to("/dev/zero")
    assert first_rows(claims, 30) == []
    code, _, err = run(workspace, "notes")
    assert code == 0
    assert "is a character device, not a regular file" in err


def test_unhide_into_a_linked_source_file_writes_nothing(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "reconciliation-after-failure")
    memory = workspace / "MEMORY.md"
    memory.unlink()
    memory.symlink_to(workspace / "runtime" / "purified-claims.jsonl")
    deferred = json.loads(
        (workspace / "runtime" / "deferred-candidates.jsonl").read_text().splitlines()[0]
    )
    before = hashes(tmp_path)
    code, _, err = run(workspace, "unhide", deferred["candidate_id"], "--into", "MEMORY.md")
    assert code == 1
    assert f"{memory}: is a symbolic link" in err and "nothing was written" in err
    assert hashes(tmp_path) == before
