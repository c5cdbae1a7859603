"""What the console shows of a purifier workspace is what the purifier wrote (docs/PURIFIER.md):
every contradiction record in the queue, competitors named by text only, candidates a later
run promoted, a claim's eight Pass-2 scores, the manifest's own warnings.

The workspaces are tests/fixtures/purifier/contested-*: written by memory-purifier
(catx0rr/memory-purifier) at commit f6050ad378e7586cec33ae107797d5e52b4e8749, cloned outside
this repository, offline with its `file` backend, driven by our script
tests/fixtures/purifier/make_contested_runs.txt (run as `python3 make_contested_runs.py SRC OUT`,
SRC the purifier's checkout), which uses the purifier's own test helpers (tests/_helpers.py:
make_sandbox, run_installer, build_fixtures) and runs its `scripts/run_purifier.py` with
`--backend file --fixture-dir FX --run-id RUN --force`: run-0001 incremental (a contested pair
flagged from both sides, a third claim contesting one of them, a competitor named by text only;
a candidate rejected, one deferred) -> contested-first-run/; run-0002 reconciliation (every
contradiction flagged again under new cluster ids; a supersession) -> contested-reconciled/;
run-0003 reconciliation (a second claim superseding the superseded one: its
supersession_chain_warning; the deferred candidate promoted in Pass 2's own words; one claim of
the pair resolved) -> contested-chain-warning/; then the manifest's logicVersion set to 1.5.0
and the config's prompts.backend to claude-code by the script (as a v1.5.0 install leaves
them), run-0004 -> upgrade_required, run-0005 with --acknowledge-upgrade ->
contested-upgrade-acknowledged/. Each is the workspace and the telemetry root, copied without
.staging-purifier/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.review.contradictions import find_by_rules
from core.review.verdicts import stored_verdict
from tests.stores.test_purifier import FIXTURES, jsonl, run, store

CONTESTED = ("contested-first-run", "contested-reconciled", "contested-chain-warning")
VENDOR = "The vendor status page lists 800 requests/min."


def workspace_of(snapshot: str) -> Path:
    return FIXTURES / snapshot / "workspace"


@pytest.mark.parametrize("snapshot", CONTESTED)
def test_every_contradiction_record_is_in_the_queue(snapshot: str) -> None:
    workspace = workspace_of(snapshot)
    memory = store(workspace)
    notes = memory.read().notes
    groups = find_by_rules(notes, memory.topic_rules())
    texts = {n["content"]: n["id"] for n in notes if n["nuggetName"] == "competing"}
    records = jsonl(workspace / "runtime" / "purified-contradictions.jsonl")
    assert len({r["contradictionClusterId"] for r in records}) > 2  # several per claim
    for record in records:
        rival = record["competingClaimId"] or texts[record["competingText"]]
        assert any({record["claimId"], rival} <= set(g.note_ids) for g in groups), record
    open_groups = [g for g in groups if not g.outdated]
    assert len(open_groups) == 1 and len(open_groups[0].positions) == 4  # 1000, 600, 750, 800


def test_a_competitor_named_by_text_only_is_a_note_beside_its_claim() -> None:
    workspace = workspace_of("contested-reconciled")
    notes = {n["id"]: n for n in store(workspace).read().notes}
    competing = [n for n in notes.values() if n["nuggetName"] == "competing"]
    assert [n["content"] for n in competing] == [VENDOR]  # once, however many runs said it
    claim = notes[competing[0]["links"][0]["to"]]
    assert "1000 requests/min" in claim["content"] and not competing[0]["hidden"]
    code, out, _ = run(workspace, "conflicts")
    assert code == 0 and VENDOR in out and "1000 requests/min" in out and "600" in out
    code, out, _ = run(workspace, "notes", "--nugget", "competing")
    assert code == 0 and VENDOR in out


def test_a_candidate_a_later_run_promoted_shows_as_promoted() -> None:
    workspace = workspace_of("contested-chain-warning")
    deferred = jsonl(workspace / "runtime" / "deferred-candidates.jsonl")
    claims = jsonl(workspace / "runtime" / "purified-claims.jsonl")
    row = deferred[-1]
    claim = next(c for c in claims if "arm64" in c["text"])
    assert claim["text"] != row["text"]  # Pass 2's words: no match by text
    notes = {n["id"]: n for n in store(workspace).read().notes}
    note = notes[row["candidate_id"]]
    assert note["purifier"]["verdict"] == "promoted"
    assert note["purifier"]["heldByClaim"] == claim["id"]
    verdict = stored_verdict(note)
    assert verdict is not None and verdict.verdict == "promote"
    assert claim["id"] in verdict.why and "defer" in verdict.why
    # before the run that promoted it, it is still deferred
    earlier = {n["id"]: n for n in store(workspace_of("contested-reconciled")).read().notes}
    assert earlier[row["candidate_id"]]["purifier"]["verdict"] == "defer"
    code, out, _ = run(workspace, "notes", "--nugget", "deferred")
    assert code == 0 and "promoted" in out


def test_a_rejected_candidate_keeps_its_verdict() -> None:
    workspace = workspace_of("contested-chain-warning")
    rejected = jsonl(workspace / "runtime" / "rejected-candidates.jsonl")[-1]
    note = next(n for n in store(workspace).read().notes if n["id"] == rejected["candidate_id"])
    assert note["purifier"]["verdict"] == "reject" and note["purifier"]["heldByClaim"] is None


def test_the_json_of_a_competing_text_names_its_claim() -> None:
    workspace = workspace_of("contested-first-run")
    code, out, _ = run(workspace, "notes", "--json")
    assert code == 0
    competing = [n for n in json.loads(out) if n.get("nuggetName") == "competing"]
    assert competing and competing[0]["purifier"]["claimId"].startswith("cl-")


@pytest.mark.parametrize(
    ("snapshot", "said"),
    [
        ("contested-chain-warning", ["supersession_chain_warning: cl-"]),
        (
            "contested-upgrade-acknowledged",
            [
                "upgrade_acknowledged (from 1.5.0, to 1.6.0)",
                "backend_deprecated_default (from claude-code, to openclaw): v1.6.0 changed",
            ],
        ),
    ],
)
def test_the_manifests_own_warnings_are_health_lines(snapshot: str, said: list[str]) -> None:
    workspace = workspace_of(snapshot)
    manifest = json.loads((workspace / "runtime" / "purified-manifest.json").read_text())
    lines = [line for line in store(workspace).health() if " warns: " in line]
    assert len(lines) == len(manifest["warnings"]) == len(said)
    for line, words in zip(lines, said, strict=True):
        assert f"run {manifest['runId']} warns: {words}" in line
    code, _, err = run(workspace, "notes")
    assert code == 0 and all(words in err for words in said)


def test_a_manifest_without_warnings_says_none() -> None:
    workspace = workspace_of("contested-reconciled")
    assert (
        json.loads((workspace / "runtime" / "purified-manifest.json").read_text())["warnings"] == []
    )
    assert not [line for line in store(workspace).health() if " warns: " in line]
