"""The memory-purifier store (docs/PURIFIER.md) on workspaces the real purifier produced.

How the fixtures under tests/fixtures/purifier/ were made: memory-purifier (catx0rr/memory-purifier)
at commit f6050ad378e7586cec33ae107797d5e52b4e8749 (v1.7.0), cloned outside this repository to
/tmp/purifier-runs/src, standard library only, offline, driven by our script
tests/fixtures/purifier/make_runs.txt (run as `python3 make_runs.py /tmp/purifier-runs/out`),
which uses the purifier's own test helpers (tests/_helpers.py: make_sandbox, run_installer with
`install.sh --local --agent-profile business --skip-cron --non-interactive`, build_fixtures) and
runs, each as
`python3 scripts/run_purifier.py --mode MODE --workspace WS --profile business --config CFG
--telemetry-root TEL/memory-purifier --global-log-root TEL --backend file --fixture-dir FX
--run-id RUN --force`:
run-0001 incremental (promote, reject, defer, compress, merge, a stale claim) -> ok;
run-0002 incremental after adding RTMEMORY.md, its Pass-1 fixture's strengths drifted +0.5 ->
partial_failure with runtime/locks/purifier-failed-promotion-run-0002.json;
run-0003 incremental -> skipped ("no changed or new inputs": the failed run recorded the hashes);
run-0004 reconciliation after deleting episodes/2026-10-12-migration.md (supersession, a contested
contradiction, a probable duplicate, a retire candidate) -> ok;
then the manifest's logicVersion was set to 1.5.0 by the script and run-0005 incremental ->
upgrade_required with runtime/locks/purifier-upgrade-pending-1.5.0-1.6.0.json.
After each step the workspace and the telemetry root were copied (without .staging-purifier/) to
after-first-run/, after-failed-run/, after-skipped-run/, after-reconciliation/, upgrade-pending/.
Only data the purifier wrote (and the sources the script wrote) is here; none of its code.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.errors import NuggetsError
from core.review.verdicts import judge
from core.settings import DEFAULTS
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.notes import title_of
from core.stores.purifier.store import PurifierStore, ReadOnlyError
from core.stores.registry import kind_named, open_store
from nuggets_tui.cli import main
from tests.support.tree import hashes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "purifier"
SNAPSHOTS = (
    "after-first-run",
    "after-failed-run",
    "after-skipped-run",
    "after-reconciliation",
    "upgrade-pending",
)
ENV = {"NUGGETS_NOW": "2026-11-25T09:00:00Z"}


def copied(tmp_path: Path, snapshot: str) -> Path:
    """A copy of a fixture's workspace (its telemetry beside it); the workspace's path."""
    shutil.copytree(FIXTURES / snapshot, tmp_path / snapshot)
    return tmp_path / snapshot / "workspace"


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def store(workspace: Path) -> PurifierStore:
    return PurifierStore(workspace, lambda: datetime(2026, 11, 25, 9, tzinfo=UTC))


def run(workspace: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--purifier", str(workspace), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("snapshot", SNAPSHOTS)
def test_every_claim_and_every_distinct_candidate_is_a_note(snapshot: str) -> None:
    workspace = FIXTURES / snapshot / "workspace"
    runtime = workspace / "runtime"
    claims = {c["id"] for c in jsonl(runtime / "purified-claims.jsonl")}
    candidates = {
        r["candidate_id"]
        for name in ("rejected", "deferred")
        if (runtime / f"{name}-candidates.jsonl").exists()
        for r in jsonl(runtime / f"{name}-candidates.jsonl")
    }
    notes = store(workspace).read().notes
    assert {n["id"] for n in notes} == claims | candidates
    assert len(notes) == len(claims | candidates)


def test_statuses_homes_archive_and_links_follow_the_purifier() -> None:
    workspace = FIXTURES / "after-reconciliation" / "workspace"
    by_id = {n["id"]: n for n in store(workspace).read().notes}
    claims = {c["id"]: c for c in jsonl(workspace / "runtime" / "purified-claims.jsonl")}
    for cid, claim in claims.items():
        note = by_id[cid]
        assert note["nuggetName"] == claim["primaryHome"]
        assert note["hidden"] == (
            claim["status"] in {"superseded", "stale", "retire_candidate", "probable_duplicate"}
        )
    loser = next(c for c in claims.values() if c["status"] == "superseded")
    winner = loser["supersededBy"][0]
    link = by_id[loser["id"]]["links"][0]
    assert (link["to"], link["reason"]) == (winner, "superseded by")
    assert any(
        link["to"] == loser["id"] and link["reason"] == "supersedes"
        for link in by_id[winner]["links"]
    )
    dup = next(c for c in claims.values() if c["status"] == "probable_duplicate")
    assert [link["to"] for link in by_id[dup["id"]]["links"]] == [dup["duplicateTargetClaimId"]]
    contested = next(c for c in claims.values() if c["status"] == "contested")
    competing = contested["contradictions"][0]["competingClaimId"]
    assert by_id[contested["id"]]["links"][0]["to"] == competing
    nuggets = {n["nuggetName"] for n in by_id.values() if n["id"].startswith("cand-")}
    assert nuggets == {"rejected", "deferred"}


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("8080 is the api's port", "8080 is the api's port"),
        ("2026 budget: 1,000 EUR\nsecond line", "2026 budget: 1,000 EUR"),
        ("## Deploys\n- ship on Fridays", "Deploys"),
        ("\n  3. the   bot   runs on a Pi", "the bot runs on a Pi"),
        ("- " + "long " * 60, ("long " * 60).strip()),
        ("  \n", "(empty)"),
    ],
)
def test_a_claims_title_is_its_first_line_whole_without_its_marker(text: str, title: str) -> None:
    assert title_of(text) == title


def test_a_long_claim_keeps_its_whole_first_line_as_its_title(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-first-run")
    path = workspace / "runtime" / "purified-claims.jsonl"
    claims = jsonl(path)
    first = " ".join(f"word{i}" for i in range(40))  # 279 characters, one line
    claims[0]["text"] = first + "\nand a second line"
    path.write_text("".join(json.dumps(c) + "\n" for c in claims))
    by_id = {n["id"]: n for n in store(workspace).read().notes}
    assert by_id[claims[0]["id"]]["title"] == first


def test_the_purifiers_own_verdicts_and_scores_are_the_verdicts() -> None:
    workspace = FIXTURES / "after-reconciliation" / "workspace"
    graph = store(workspace).read()
    judged = judge(graph.notes, datetime(2026, 11, 25, tzinfo=UTC))
    verdicts = {v.note_id: v for v in judged.verdicts}
    for name in ("rejected", "deferred"):
        for row in jsonl(workspace / "runtime" / f"{name}-candidates.jsonl"):
            found = verdicts[row["candidate_id"]]
            assert (found.verdict, found.strength, found.scores, found.scorer) == (
                row["verdict"],
                row["strength"],
                row["scores"],
                "stored",
            )


def test_a_drifting_stored_strength_is_flagged(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-reconciliation")
    ledger = workspace / "runtime" / "rejected-candidates.jsonl"
    rows = jsonl(ledger)
    for row in rows:
        row["strength"] = row["strength"] + 0.5
    ledger.write_text("".join(json.dumps(r) + "\n" for r in rows))
    note = next(n for n in store(workspace).read().notes if n["nuggetName"] == "rejected")
    assert "drifts from the formula" in note["storedVerdict"]["why"]
    assert (
        store(workspace)
        .profile.summary(note)
        .split("strength=")[1]
        .startswith(f"{rows[-1]['strength']:.2f}!")
    )


def test_the_contradiction_stands_in_the_queue_with_its_claims() -> None:
    workspace = FIXTURES / "after-reconciliation" / "workspace"
    code, out, _ = run(workspace, "conflicts", "--json")
    record = jsonl(workspace / "runtime" / "purified-contradictions.jsonl")[0]
    groups = json.loads(out)
    assert code == 0
    assert [sorted(g["noteIds"]) for g in groups] == [
        sorted([record["claimId"], record["competingClaimId"]])
    ]


def test_runs_come_from_the_shared_memory_log() -> None:
    code, out, _ = run(FIXTURES / "after-reconciliation" / "workspace", "log", "--json")
    runs = json.loads(out)
    assert code == 0
    assert [r["runId"] for r in runs] == ["run-0004", "run-0003", "run-0002", "run-0001"]
    assert "partial_failure" in runs[2]["summary"]


@pytest.mark.parametrize(
    ("snapshot", "expected"),
    [
        ("after-failed-run", "failed but the manifest already records its sources' new hashes"),
        ("after-skipped-run", "failed but the manifest already records its sources' new hashes"),
        ("after-skipped-run", "the manifest describes run run-0003 (skipped)"),
        ("after-reconciliation", "claimStats counts 11 claims"),
        ("after-reconciliation", "ledgers hold 4 rows for 2 candidates"),
        ("after-reconciliation", "the model's raw output is in purifier-failed-promotion-run-0002"),
        ("upgrade-pending", "upgrade pending (1.5.0 -> 1.6.0)"),
    ],
)
def test_each_silent_failure_is_one_line_saying_what_to_do(snapshot: str, expected: str) -> None:
    code, _, err = run(FIXTURES / snapshot / "workspace", "notes")
    lines = [line for line in err.splitlines() if expected in line]
    assert code == 0
    assert len(lines) == 1


def test_no_failure_warning_once_a_reconciliation_recovered() -> None:
    _, _, err = run(FIXTURES / "after-reconciliation" / "workspace", "notes")
    assert "new hashes" not in err


def test_a_stale_lock_and_a_dead_owners_lock_are_named(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-first-run")
    lock = workspace / "runtime" / "locks" / "purifier-run.lock"
    lock.parent.mkdir(exist_ok=True)  # an empty folder in the purifier's workspace: git keeps none
    lock.write_text(json.dumps({"run_id": "x", "pid": os.getpid()}))
    os.utime(lock, (0, 0))
    assert any("stale after 2h" in line for line in store(workspace).health())
    dead = 2**22 + 12345  # above any pid_max: no such process
    lock.write_text(json.dumps({"run_id": "x", "pid": dead}))
    assert any(f"process {dead}, which is gone" in line for line in store(workspace).health())


def test_bad_input_is_one_line_each_and_the_rest_is_shown(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-reconciliation")
    runtime = workspace / "runtime"
    claims = runtime / "purified-claims.jsonl"
    whole = claims.read_bytes()
    claims.write_bytes(whole + b'{"id": "cl-trunc')  # a line cut short
    manifest = json.loads((runtime / "purified-manifest.json").read_text())
    manifest["manifestSchemaVersion"] = "2"
    (runtime / "purified-manifest.json").write_text(json.dumps(manifest))
    (workspace / "RTMEMORY.md").unlink()
    before = hashes(tmp_path)
    code, out, err = run(workspace, "notes", "--hidden")
    assert code == 0
    assert (
        len(out.splitlines())
        == len(
            jsonl(
                FIXTURES
                / "after-reconciliation"
                / "workspace"
                / "runtime"
                / "purified-claims.jsonl"
            )
        )
        + 2
    )
    assert sum("is not a JSON object (truncated?)" in line for line in err.splitlines()) == 1
    assert sum("manifest schema 2 is newer" in line for line in err.splitlines()) == 1
    assert "names RTMEMORY.md, which is not in the workspace" in err
    assert hashes(tmp_path) == before


def test_a_missing_or_empty_workspace_is_one_line(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "nowhere", "notes")  # named by an option: a usage error
    assert (code, err.count("\n")) == (2, 1)
    assert "no memory-purifier workspace" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run(tmp_path / "empty", "notes")
    assert (code, err.count("\n")) == (1, 1)
    assert "no purified claims" in err
    assert list((tmp_path / "empty").iterdir()) == []


COMMANDS = [
    ("notes",),
    ("notes", "--hidden", "--json"),
    ("log",),
    ("log", "--json"),
    ("verdicts",),
    ("verdicts", "--json"),
    ("conflicts",),
]
# Each refused with its one line: the purifier not installed (no run of it), a claim is
# no candidate to restore, a purifier run is not ours to undo, the rest read-only.
WRITES = {
    ("reflect",): "not installed",
    ("reflect", "--apply"): "not installed",
    ("archive", "cl-f13d89fda36f74a7"): "read-only",
    ("unhide", "cl-b2cd630fbc7cf817"): "--into FILE",
    ("undo", "run-0004"): "a run of the purifier's own",
    ("promote",): "read-only",
    ("promote", "--apply"): "read-only",
    ("act", "reject", "--apply"): "read-only",
    ("unhide", "cl-b2cd630fbc7cf817", "--into", "MEMORY.md"): "not a rejected or deferred",
}


@pytest.mark.parametrize("args", COMMANDS + list(WRITES))
def test_no_command_writes_a_byte_of_the_workspace(tmp_path: Path, args: tuple[str, ...]) -> None:
    workspace = copied(tmp_path, "after-reconciliation")
    before = hashes(tmp_path)
    code, _, err = run(workspace, *args)
    assert hashes(tmp_path) == before
    if args in WRITES:
        assert code == 1
        assert WRITES[args] in err.splitlines()[-1]
    else:
        assert code == 0


def test_resolving_a_contradiction_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    """Keeping one claim would write the purifier's files: refused. Letting both stand is our
    own mark, outside the workspace (tests/stores/test_purifier_marks.py)."""
    workspace = copied(tmp_path, "after-reconciliation")
    _, out, _ = run(workspace, "conflicts", "--json")
    group = json.loads(out)[0]
    before = hashes(workspace.parent)
    code, _, err = run(workspace, "resolve", group["id"], "--keep", group["noteIds"][0], "--apply")
    assert code == 1
    assert "read-only" in err
    code, _, err = run(workspace, "resolve", group["id"], "--both", "--apply")
    assert code == 0, err
    assert hashes(workspace.parent) == before


def test_writing_methods_refuse_in_one_line() -> None:
    memory = store(FIXTURES / "after-reconciliation" / "workspace")
    with pytest.raises(ReadOnlyError) as refused:
        memory.archive(["cl-f13d89fda36f74a7"])
    assert "\n" not in str(refused.value)
    with pytest.raises(NuggetsError, match="cannot be previewed") as unavailable:
        memory.plan()  # not installed: said, never an empty plan
    assert "\n" not in str(unavailable.value)


def test_the_demo_has_every_status_and_the_shape_of_real_claims(tmp_path: Path) -> None:
    workspace = materialize_purifier_demo(
        tmp_path / "demo" / "workspace", datetime(2026, 11, 25, tzinfo=UTC)
    )
    demo = jsonl(workspace / "runtime" / "purified-claims.jsonl")
    real = jsonl(
        FIXTURES / "after-reconciliation" / "workspace" / "runtime" / "purified-claims.jsonl"
    )
    assert {c["status"] for c in demo} == {
        "resolved",
        "contested",
        "unresolved",
        "superseded",
        "stale",
        "retire_candidate",
        "probable_duplicate",
    }
    core_keys = set.intersection(*(set(c) for c in real)) - {
        "normalizationSignature",
        "routeValidationState",
        "routeAffinityScore",
        "routeSuggestedHome",
        "duplicateReason",
    }
    assert all(core_keys <= set(c) for c in demo)
    real_scores = set(real[0]["scores"])
    assert all(set(c["scores"]) == real_scores for c in demo)
    memory = open_store(workspace, "purifier")
    assert isinstance(memory, PurifierStore)
    health = memory.health()
    assert any("upgrade pending" in line for line in health)
    assert any("raw output" in line for line in health)
    assert len(memory.read().notes) == len(demo) + 2


def test_the_purifier_is_a_registered_kind_with_its_options() -> None:
    kind = kind_named("purifier")
    assert (kind.home_option, kind.demo_option) == ("--purifier", "--demo-purifier")
    assert kind.resolve(None, DEFAULTS) == Path("~/.openclaw/workspace").expanduser()


def test_a_ledger_past_the_size_we_read_is_one_line_and_the_rest_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A huge ledger (past the bound every file of ours is read within; here made small) is
    left out with one line naming it; the claims and the other ledger are shown, nothing is
    written."""
    workspace = copied(tmp_path, "after-reconciliation")
    ledger = workspace / "runtime" / "rejected-candidates.jsonl"
    claims = workspace / "runtime" / "purified-claims.jsonl"
    bound = (
        max(
            claims.stat().st_size,
            (workspace / "runtime" / "deferred-candidates.jsonl").stat().st_size,
        )
        + 1
    )
    row = ledger.read_text().splitlines()[0] + "\n"
    ledger.write_text(row * (bound // len(row) + 2))
    monkeypatch.setattr("core.stores.purifier.artifacts.GRAPH_BYTES", bound)
    before = hashes(tmp_path)
    code, out, err = run(workspace, "notes", "--hidden", "--json")
    assert code == 0, err
    told = [line for line in err.splitlines() if "rejected-candidates.jsonl" in line]
    assert len(told) == 1 and "left out" in told[0]
    shown = {note["id"] for note in json.loads(out)}
    assert {row["id"] for row in jsonl(claims)} <= shown
    assert hashes(tmp_path) == before


@pytest.mark.parametrize(
    ("snapshot", "expected", "theirs"),
    [
        (
            "after-failed-run",
            "reflect --apply --reconcile",
            "run_purifier.py --mode reconciliation",
        ),
        (
            "upgrade-pending",
            "reflect --apply --acknowledge-upgrade",
            "run_purifier.py --acknowledge-upgrade",
        ),
    ],
)
def test_a_health_line_names_our_command_first_then_the_purifiers(
    snapshot: str, expected: str, theirs: str
) -> None:
    workspace = FIXTURES / snapshot / "workspace"
    line = next(line for line in store(workspace).health() if theirs in line)
    ours = f"nuggets --purifier {workspace} {expected}"
    assert ours in line
    assert line.index(ours) < line.index(theirs)
