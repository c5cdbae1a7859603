"""The operator's own marks on a memory-purifier workspace (docs/PURIFIER.md, "Our marks"): a
contradiction's "both stand", claims "reviewed" / "disputed". Journaled and undoable like any run
of ours, kept in our data directory, never a byte in the workspace or its telemetry.

The workspace is a copy of the fixture tests/fixtures/purifier/after-reconciliation (how it was
made: tests/stores/test_purifier.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.errors import NuggetsError
from core.review.marks import mark_notes
from core.stores.purifier.artifacts import read_artifacts
from core.stores.purifier.journal import review_home
from core.stores.purifier.store import PurifierStore, ReadOnlyError
from tests.stores.test_purifier import copied, run
from tests.support.tree import hashes

CLAIM = "cl-3283e88f30c30f8c"
OTHER = "cl-e49a24a24115bbc3"


def notes_by_id(workspace: Path) -> dict[str, dict]:
    code, out, err = run(workspace, "notes", "--hidden", "--json")
    assert code == 0, err
    return {n["id"]: n for n in json.loads(out)}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copied(tmp_path, "after-reconciliation")


def test_marks_show_on_the_notes_and_leave_the_workspace_alone(
    workspace: Path, own_data_dir: Path
) -> None:
    before = hashes(workspace.parent)
    code, out, err = run(workspace, "mark", CLAIM, OTHER, "--as", "disputed")
    assert code == 0 and "dry run" in out
    assert "mark" not in notes_by_id(workspace)[CLAIM]
    code, out, err = run(workspace, "mark", CLAIM, "--as", "reviewed", "--apply")
    assert code == 0, err
    code, out, err = run(workspace, "mark", OTHER, "--as", "disputed", "--apply")
    assert code == 0, err
    notes = notes_by_id(workspace)
    assert (notes[CLAIM]["mark"], notes[OTHER]["mark"]) == ("reviewed", "disputed")
    assert sum("mark" in n for n in notes.values()) == 2
    listed = run(workspace, "notes", "--hidden")[1].splitlines()
    assert [row.split()[0] for row in listed if "mark=" in row] == [CLAIM, OTHER]
    assert hashes(workspace.parent) == before
    kept = review_home(workspace, own_data_dir)
    assert kept.is_relative_to(own_data_dir)
    assert json.loads((kept / "note-marks.json").read_text())["marks"] == {
        CLAIM: "reviewed",
        OTHER: "disputed",
    }


def test_a_mark_is_a_run_of_ours_that_undo_takes_back(workspace: Path) -> None:
    run(workspace, "mark", CLAIM, "--as", "reviewed", "--apply")
    code, out, _ = run(workspace, "log", "--json")
    runs = json.loads(out)
    ours = runs[0]
    assert ours["kind"] == "decide" and CLAIM in ours["summary"]
    assert [r["runId"] for r in runs[1:]] == ["run-0004", "run-0003", "run-0002", "run-0001"]
    before = hashes(workspace.parent)
    code, out, err = run(workspace, "undo", ours["runId"])
    assert code == 0, err
    assert "mark" not in notes_by_id(workspace)[CLAIM]
    assert hashes(workspace.parent) == before


def test_the_purifiers_own_runs_are_never_undone(workspace: Path) -> None:
    run(workspace, "mark", CLAIM, "--as", "reviewed", "--apply")
    code, _, err = run(workspace, "undo", "run-0004")
    assert code == 1 and "read-only" in err.splitlines()[-1]
    assert notes_by_id(workspace)[CLAIM]["mark"] == "reviewed"


def test_both_stand_takes_the_group_out_of_the_queue_until_undone(workspace: Path) -> None:
    before = hashes(workspace.parent)
    _, out, _ = run(workspace, "conflicts", "--json")
    group = json.loads(out)[0]
    code, out, err = run(workspace, "resolve", group["id"], "--both", "--apply")
    assert code == 0, err
    assert json.loads(run(workspace, "conflicts", "--json")[1]) == []
    assert [g["id"] for g in json.loads(run(workspace, "conflicts", "--all", "--json")[1])] == [
        group["id"]
    ]
    assert hashes(workspace.parent) == before
    latest = json.loads(run(workspace, "log", "--json")[1])[0]["runId"]
    assert run(workspace, "undo", latest)[0] == 0
    assert [g["id"] for g in json.loads(run(workspace, "conflicts", "--json")[1])] == [group["id"]]


def test_the_queue_shows_a_claims_mark(workspace: Path) -> None:
    _, out, _ = run(workspace, "conflicts", "--json")
    claim = json.loads(out)[0]["noteIds"][0]
    run(workspace, "mark", claim, "--as", "disputed", "--apply")
    _, out, _ = run(workspace, "conflicts")
    assert f"{claim}  [disputed]" in out


def test_marking_needs_a_known_note_and_one_mark(workspace: Path, own_data_dir: Path) -> None:
    code, _, err = run(workspace, "mark", "cl-nope", "--as", "reviewed", "--apply")
    assert code == 2 and "cl-nope" in err  # an unknown note: a usage error
    assert run(workspace, "mark", CLAIM)[0] == 2
    assert run(workspace, "mark", CLAIM, "--as", "reviewed", "--clear")[0] == 2
    assert not review_home(workspace, own_data_dir).exists()


def test_a_store_without_marks_refuses_them(home: Path) -> None:
    from click.testing import CliRunner

    from nuggets_tui.cli import main

    result = CliRunner().invoke(
        main, ["--home", str(home), "mark", "n-1", "--as", "reviewed", "--apply"]
    )
    assert result.exit_code == 1
    assert "marks are not kept" in result.stderr


def test_our_files_are_the_only_ones_written(workspace: Path) -> None:
    memory = PurifierStore(workspace, lambda: datetime(2026, 11, 25, 9, tzinfo=UTC))
    target = workspace / "runtime" / "note-marks.json"
    with pytest.raises(NuggetsError):
        memory.write_file(target, None, "{}", "decide", "a file in the workspace")
    assert not target.exists()
    assert mark_notes(memory, [CLAIM], "reviewed") is not None
    assert mark_notes(memory, [CLAIM], "reviewed") is None  # already so: nothing written
    with pytest.raises(ReadOnlyError):
        memory.archive([CLAIM])


@pytest.mark.parametrize("landed", [True, False])
def test_an_interrupted_mark_is_settled_from_what_landed(workspace: Path, landed: bool) -> None:
    """A kill between the journal's pending entry and the end of the write: opening again keeps
    the run exactly when its file landed, and never touches the workspace."""
    from core.journal.entries import file_run, journal_dir, read_headers, write_pending
    from core.notes.snapshot import EMPTY_FINGERPRINT

    memory = PurifierStore(workspace, lambda: datetime(2026, 11, 25, 9, tzinfo=UTC))
    home = memory.journal_home
    after = json.dumps({"marks": {CLAIM: "reviewed"}}) + "\n"
    entry = file_run(
        home,
        "note-marks.json",
        None,
        after,
        EMPTY_FINGERPRINT,
        "decide",
        memory.now(),
        summary="marked reviewed",
    )
    write_pending(home, entry)
    if landed:
        (home / "note-marks.json").write_text(after)
    before = hashes(workspace.parent)
    said = memory.recover()
    assert len([line for line in said if entry.run_id in line]) == 1
    assert [h.run_id for h in read_headers(home)[0]] == ([entry.run_id] if landed else [])
    assert not list(journal_dir(home).glob(".*"))
    assert hashes(workspace.parent) == before


def test_a_mark_on_a_claim_whose_text_changed_since_says_it_is_on_an_earlier_text(
    workspace: Path,
) -> None:
    for claim in (CLAIM, OTHER):
        assert run(workspace, "mark", claim, "--as", "reviewed", "--apply")[0] == 0
    claims = workspace / "runtime" / "purified-claims.jsonl"
    rows = [json.loads(row) for row in claims.read_text().splitlines() if row.strip()]
    for row in rows:  # the purifier's Pass 2 rewrites a claim's text under the same id
        if row["id"] == CLAIM:
            row["text"] += " (rewritten)"
    claims.write_text("".join(json.dumps(row) + "\n" for row in rows))  # our copy only
    notes = notes_by_id(workspace)
    assert notes[CLAIM]["mark"] == "reviewed" and notes[CLAIM]["markOnEarlierText"] is True
    assert notes[OTHER]["mark"] == "reviewed" and "markOnEarlierText" not in notes[OTHER]
    listed = run(workspace, "notes", "--hidden")[1].splitlines()
    assert [row.split()[0] for row in listed if "(on an earlier text)" in row] == [CLAIM]
    assert run(workspace, "mark", CLAIM, "--as", "reviewed", "--apply")[0] == 0  # marked again
    assert "markOnEarlierText" not in notes_by_id(workspace)[CLAIM]


def test_a_mark_shows_without_reading_the_workspace_again(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our marks live outside the workspace: marking changes the store's stamp (the console
    reads it again) but is no reason to read the purifier's artifacts again."""
    from core.stores.purifier import store as purifier_store

    reads: list[Path] = []
    real = read_artifacts
    monkeypatch.setattr(
        purifier_store, "read_artifacts", lambda home: reads.append(home) or real(home)
    )
    memory = PurifierStore(workspace, lambda: datetime(2026, 11, 25, 9, tzinfo=UTC))
    stamp = memory.stamp()
    assert "mark" not in (memory.shelf().graph.get(CLAIM) or {})
    assert mark_notes(memory, [CLAIM], "reviewed") is not None
    assert memory.stamp() != stamp
    assert memory.shelf().graph.get(CLAIM)["mark"] == "reviewed"
    assert reads == [workspace]
