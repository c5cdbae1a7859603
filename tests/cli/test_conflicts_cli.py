"""`nuggets conflicts`, `resolve`, `verdicts`, `act`: output, dry runs, writes, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from nuggets_tui.cli import main
from tests.support.conflict_builders import answers_memory, pref
from tests.support.note_builders import file_notes, graph_file, make_home

NOW = "2026-11-01T10:00:00+00:00"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    notes = [*answers_memory(), pref("empty", "", title="tmp", hits=0)]
    return make_home(tmp_path, notes)


def run(home: Path, *args: str) -> Result:
    env = {"NUGGETS_NOW": NOW, "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": "", "TZ": "UTC"}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def groups(home: Path) -> list[dict]:
    return json.loads(run(home, "conflicts", "--json").stdout)


def test_conflicts_lists_the_group_side_by_side(home: Path) -> None:
    result = run(home, "conflicts")
    assert result.exit_code == 0, result.output
    (group,) = groups(home)
    assert f"{group['id']}  [user] pref: answers  (4 notes, 3 positions, topic)" in result.stdout
    assert "a-bullets  2026-10-01  hits 0" in result.stdout
    assert "1 contradiction group; decide one with" in result.stderr
    assert [n["id"] for n in group["notes"]] == group["noteIds"]


def test_resolve_dry_run_shows_the_plan_and_writes_nothing(home: Path) -> None:
    before = graph_file(home).read_bytes()
    group = groups(home)[0]["id"]
    result = run(home, "resolve", group, "--keep", "a-bullets")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Decision on {group}: a-bullets stands (dry run)")
    assert "[archive] Superseded by a-bullets" in result.stdout
    assert graph_file(home).read_bytes() == before


def test_resolve_apply_then_undo(home: Path) -> None:
    before = graph_file(home).read_bytes()
    group = groups(home)[0]["id"]
    result = run(home, "resolve", group, "--keep", "a-short", "--merge", "--apply")
    assert result.exit_code == 0, result.output
    assert file_notes(home)["a-direct"]["links"][-1]["reason"] == "merged into a-short"
    assert groups(home) == []
    run_id = result.stdout.split("undo: nuggets undo ")[1].rstrip(")\n")
    assert run(home, "undo", run_id).exit_code == 0
    assert file_notes(home) == {n["id"]: n for n in json.loads(before)["notes"]}
    assert groups(home)[0]["id"] == group


def test_both_stand_hides_the_group_until_a_note_changes(home: Path) -> None:
    group = groups(home)[0]["id"]
    assert run(home, "resolve", group, "--both").exit_code == 0
    assert len(groups(home)) == 1  # a dry run remembers nothing
    assert run(home, "resolve", group, "--both", "--apply").exit_code == 0
    assert groups(home) == []
    assert len(json.loads(run(home, "conflicts", "--json", "--all").stdout)) == 1
    doc = json.loads(graph_file(home).read_bytes())
    doc["notes"][0]["content"] = "User prefers very direct answers now"
    graph_file(home).write_text(json.dumps(doc))
    assert [g["noteIds"] for g in groups(home)] != []


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["resolve", "c-nope", "--keep", "a-short"], 2, "no contradiction group c-nope"),
        (["resolve", "GROUP", "--keep", "lone"], 2, "note lone is not in group"),
        (["resolve", "GROUP"], 2, "give either --keep NOTE_ID"),
        (["resolve", "GROUP", "--keep", "a-short", "--both"], 2, "give either --keep NOTE_ID"),
        (["verdicts", "--scorer", "ftp://nowhere"], 2, "not an http(s) URL"),
        (["verdicts", "--scorer", "notaurl"], 2, "not an http(s) URL"),
        (["notes", "--nugget", "nope"], 2, "no nugget 'nope'"),
        (["verdicts", "--verdict", "maybe"], 2, "Invalid value"),
    ],
)
def test_bad_input_is_one_clear_line(home: Path, args: list[str], code: int, message: str) -> None:
    before = graph_file(home).read_bytes()
    group = groups(home)[0]["id"]
    result = run(home, *[group if a == "GROUP" else a for a in args])
    assert result.exit_code == code
    assert message in result.stderr and "Traceback" not in result.output
    assert graph_file(home).read_bytes() == before


def test_verdicts_explain_themselves(home: Path) -> None:
    verdicts = {v["noteId"]: v for v in json.loads(run(home, "verdicts", "--json").stdout)}
    assert verdicts["empty"]["verdict"] == "reject"
    assert "empty content" in verdicts["empty"]["reasons"]["noise_risk"]
    assert verdicts["a-short"]["verdict"] == "merge"
    text = run(home, "verdicts", "--verdict", "reject")
    assert text.stdout.startswith("reject") and "empty" in text.stdout
    assert text.stdout.count("\n") == 1


def test_act_reject_archives_every_reject_as_a_plan(home: Path) -> None:
    dry = run(home, "act", "reject")
    assert dry.exit_code == 0 and "Archive every reject (1 note) (dry run)" in dry.stdout
    assert file_notes(home)["empty"]["hidden"] is False
    applied = run(home, "act", "reject", "--apply")
    assert applied.exit_code == 0 and "Applied as run" in applied.stdout
    assert file_notes(home)["empty"]["hidden"] is True


def test_act_promote_writes_the_promote_verdicts(home: Path, tmp_path: Path) -> None:
    notes = [
        pref(
            "strong",
            "Always run the linter before a commit",
            title="lint",
            hits=6,
            source="explicit_user",
            confidence=0.95,
            lastHitSession="s1",
            createdAt="2026-08-01T00:00:00.000Z",
        )
    ]
    strong = make_home(tmp_path / "strong", notes)
    md = tmp_path / "mem" / "MEMORY.md"
    md.parent.mkdir()
    assert json.loads(run(strong, "verdicts", "--json").stdout)[0]["verdict"] == "promote"
    result = run(strong, "act", "promote", "--memory-md", str(md))
    # the notes qualify by their verdict, not by a count of recalls ("recalled 0+ times")
    assert "0 to update, 1 note with a promote verdict, 1 entry" in result.stdout
    assert "recalled" not in result.stdout
    result = run(strong, "act", "promote", "--memory-md", str(md), "--apply")
    assert result.exit_code == 0, result.output
    assert "- **lint**: Always run the linter before a commit" in md.read_text()


def test_both_stand_on_two_notes_says_both(tmp_path: Path) -> None:
    """Two notes that disagree: "both notes stand", never "all 2 notes"."""
    home = make_home(
        tmp_path,
        [
            pref("p-bullets", "User prefers bullet-point answers"),
            pref("p-prose", "User prefers prose answers, never bullets"),
        ],
    )
    (group,) = groups(home)
    assert len(group["noteIds"]) == 2
    result = run(home, "resolve", group["id"], "--both")
    assert result.exit_code == 0, result.output
    assert f"Decision on {group['id']}: both notes stand (dry run)" in result.stdout


def test_related_notes_of_a_topic_are_named_under_its_group_not_queued(tmp_path: Path) -> None:
    """Notes of one title that state other things without a minimal pair are related: named
    under the group of their topic, never a group of their own."""
    home = make_home(
        tmp_path,
        [
            pref("tabs", "User indents Go code with tabs"),
            pref("spaces", "User indents Go code with spaces"),
            pref("reviews", "User reviews pull requests in the morning"),
            pref("coffee", "User drinks coffee before the standup"),
        ],
    )
    result = run(home, "conflicts")
    assert result.exit_code == 0, result.output
    assert "related, not contradicting: 2 notes (reviews, coffee)" in result.stdout
    [group] = json.loads(run(home, "conflicts", "--json").stdout)
    assert group["noteIds"] == ["tabs", "spaces"] and group["related"] == ["reviews", "coffee"]
