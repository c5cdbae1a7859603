"""The preview's diff is the next run's (docs/PURIFIER.md, "Preview"): like compared with like,
run stamps aside; the status changes, new contradiction records, the purifier's warnings, the
views' diff lines and a new claim's own row; "skipped" when the purifier would skip. The
differences are those between two workspaces the real purifier wrote, one run apart
(tests/stores/test_purifier_records.py says how); the skip is our fake purifier's
(tests/support/fake_purifier/), on a copy of one of them."""

from __future__ import annotations

from pathlib import Path

from core.stores.purifier import preview, runner
from core.stores.purifier.artifacts import read_artifacts
from tests.stores.test_purifier import FIXTURES, copied, jsonl
from tests.stores.test_purifier_acting import cli

BEFORE = FIXTURES / "contested-reconciled" / "workspace"
AFTER = FIXTURES / "contested-chain-warning" / "workspace"
OK = runner.RunResult("ok", "run-0003", "")
NOW = "2026-11-29T00:00:00Z"


def claims(workspace: Path) -> dict[str, dict]:
    return {c["id"]: c for c in jsonl(workspace / "runtime" / "purified-claims.jsonl")}


def next_run() -> preview.Preview:
    views = {
        name: preview.view_diff(
            (BEFORE / name).read_text().splitlines(), (AFTER / name).read_text().splitlines()
        )
        for name in ("LTMEMORY.md", "EPISODES.md")
    }
    return preview.compared(OK, read_artifacts(BEFORE), read_artifacts(AFTER), views)


def test_a_claim_the_run_only_stamped_again_is_no_change() -> None:
    old, new = claims(BEFORE), claims(AFTER)
    same = ("status", "text", "supersedes", "supersededBy", "scores", "primaryHome")
    stamped = [i for i in old.keys() & new.keys() if all(old[i][k] == new[i][k] for k in same)]
    assert stamped and all(old[i]["updatedInRunId"] != new[i]["updatedInRunId"] for i in stamped)
    contested = next(i for i in stamped if new[i]["status"] == "contested")
    assert old[contested]["contradictionClusterId"] != new[contested]["contradictionClusterId"]
    changed = {(a or b)["id"] for a, b in next_run().notes if (a or b) is not None}
    assert not changed & set(stamped)


def test_status_changes_new_claims_and_a_promotion_are_said() -> None:
    found = next_run()
    old, new = claims(BEFORE), claims(AFTER)
    resolved = next(
        i
        for i in new
        if old.get(i, {}).get("status") == "contested" and new[i]["status"] == "resolved"
    )
    assert "status contested -> resolved" in found.details[resolved]
    superseded = next(i for i in new if new[i]["status"] == "superseded")
    assert "supersededBy changed" in found.details[superseded]
    fresh = [i for i in new if i not in old]
    assert len(fresh) == 2 and all(found.details[i].startswith("a new claim") for i in fresh)
    promoted = jsonl(AFTER / "runtime" / "deferred-candidates.jsonl")[-1]["candidate_id"]
    assert found.details[promoted] == "changed by the next run: verdict defer -> promoted"
    ops, diffs, result = preview.operations(found, NOW)
    rows = {d.note_id: d for d in diffs}
    for i in fresh:  # a new claim's row is its own: its title, its home, its content after
        assert rows[i].before["title"] == rows[i].after["title"] != "(not yet a claim)"
        assert rows[i].before["content"] == "" and rows[i].after["content"] == new[i]["text"]
    dropped = next(i for i in new if old.get(i, {}).get("supersedes") and not new[i]["supersedes"])
    assert "supersedes changed" in found.details[dropped]
    assert result.rewritten == len(found.notes) == 6  # 600, eu-west-1, eu-central-1, 2 new, arm64


def test_new_contradiction_records_and_the_runs_warnings_are_said() -> None:
    found = next_run()
    records = jsonl(AFTER / "runtime" / "purified-contradictions.jsonl")
    added = [r for r in records if r["flaggedInRunId"] == "run-0003"]
    assert len(found.records) == len(added) == 3
    assert any("against the text “The vendor status page" in line for line in found.records)
    assert len(found.warnings) == 1 and "supersession_chain_warning: cl-" in found.warnings[0]
    said = preview.said(found)
    assert said[0].startswith("preview: the purifier's run run-0003: ok")
    assert any("supersession_chain_warning" in line for line in said)


def test_the_views_diff_lines_are_shown_without_their_stamps() -> None:
    found = next_run()
    lines = preview.view_lines(found)
    assert "LTMEMORY.md: the next run rewrites it" in lines[0]
    assert "  +### ci runner — switches to arm64" in lines
    assert not any("_Regenerated" in line for line in lines)
    assert "EPISODES.md" not in found.views  # only its stamps changed
    assert preview.view_diff(["_Updated: 2026-11-28_"], ["_Updated: 2026-11-29_"]) == []


def test_a_run_the_purifier_would_skip_is_said_and_changes_nothing(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "contested-reconciled")
    assert cli(workspace, "mark", "cl-cd6d3de481154cfc", "--as", "reviewed", "--apply")[0] == 0
    reason = "no changed or new inputs since last successful cursor"
    code, out, err = cli(workspace, "reflect", env={"FAKE_PURIFIER_SKIP": reason})
    assert code == 0, err
    assert f"the purifier would skip its next run ({reason})" in err
    assert "0 rewritten, 0 archived" in out and "[rewrite]" not in out


def test_a_changes_pane_shows_its_own_view_lines_records_and_warnings() -> None:
    found = next_run()
    new = claims(AFTER)
    arm64 = next(i for i in new if "arm64" in new[i]["text"])
    lines = preview.lines_for(found, {arm64})
    assert lines[0].startswith("LTMEMORY.md: the next run rewrites it")
    assert f"  +{new[arm64]['text']}" in lines
    assert not any("ap-south-1" in line for line in lines)  # another claim's lines
    old = next(i for i in new if new[i]["status"] == "superseded")
    assert any("supersession_chain_warning" in line for line in preview.lines_for(found, {old}))
    contested = next(i for i in new if new[i]["status"] == "contested")
    assert any("new contradiction record" in line for line in preview.lines_for(found, {contested}))
