"""JSON nested 100,000 levels deep in a file a person or another program can edit is one line
naming the file, never a RecursionError: the rest works. Ours (conflicts-settled.json, a
journal entry, a fact file, review decisions and rules, marks), the memory-purifier's (its
claims, its manifest), the memory-log every tool of the agent appends to, and the Claude
store's record of what it saw (states.jsonl, reviewed.json): a command says it in one line and
goes on (exit 0) where the rest can be shown, and refuses in one line (exit 1) where it cannot
go on; the console opens, and says it. All of them are read through core/safeio/json_read.py."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.clock import fixed_clock
from core.review.decisions import settled_path
from core.safeio.json_read import TooDeepError, loads
from core.settings import DEFAULTS
from core.stores.claude.paths import record_home
from core.stores.claude.store import ClaudeStore
from core.stores.nuggets.fact_files import read_fact_file
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.cli import main
from nuggets_tui.screens.conflicts import ConflictsScreen
from nuggets_tui.screens.main import MainScreen
from nuggets_tui.widgets.note_table import NoteTable
from tests.stores.test_claude import write_directory
from tests.support.conflict_builders import answers_memory
from tests.support.console_process import run_console
from tests.support.console_support import make_app, settle
from tests.support.figures import record
from tests.support.note_builders import make_home
from tests.support.paths import FIXTURES_DIR

DEEP = 100_000
NESTED = "[" * DEEP + "]" * DEEP
NESTED_OBJECT = '{"a":' * DEEP + "1" + "}" * DEEP
PURIFIER = FIXTURES_DIR / "purifier" / "after-reconciliation"
PURIFIER_NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)
ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
    "TZ": "UTC",
}


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], env=ENV)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The answers memory (one contradiction group), its settled file nested 100k deep."""
    home = make_home(tmp_path, answers_memory())
    settled_path(home).write_text('{"bothStand": ' + NESTED + "}")
    return home


def test_the_helper_refuses_what_a_parser_cannot_follow_and_what_is_too_deep() -> None:
    with pytest.raises(TooDeepError, match="nested too deeply to read"):
        loads(NESTED)
    with pytest.raises(TooDeepError, match="more than 2 levels"):
        loads('{"bothStand": [["a"]]}', 2)
    assert loads('{"bothStand": ["a"]}', 2) == {"bothStand": ["a"]}


def test_conflicts_lists_the_groups_and_says_the_settled_file_is_unreadable_once(
    home: Path,
) -> None:
    listed = run(home, "conflicts")
    assert listed.exit_code == 0, listed.output
    assert "1 contradiction group" in listed.stderr
    warnings = [line for line in listed.stderr.splitlines() if "conflicts-settled.json" in line]
    assert len(warnings) == 1 and "nested too deeply" in warnings[0]
    record("files nested 100,000 deep read in one line")


def test_letting_a_group_stand_is_refused_while_the_file_cannot_be_read(home: Path) -> None:
    group = run(home, "conflicts", "--json").stdout.split('"id": "', 1)[1].split('"', 1)[0]
    before = settled_path(home).read_bytes()
    refused = run(home, "resolve", group, "--both", "--apply")
    assert refused.exit_code == 1
    [line] = [
        x for x in refused.stderr.splitlines() if "conflicts-settled.json" in x and "nested" in x
    ][-1:]
    assert line.startswith("nuggets: ")
    assert settled_path(home).read_bytes() == before  # never written over
    record("files nested 100,000 deep read in one line")


async def test_the_console_queue_opens_with_a_warning(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        assert isinstance(app.screen, ConflictsScreen)
        assert app.screen.found is not None and len(app.screen.found.groups) == 1
        shown = [n.message for n in app._notifications]
        assert any("conflicts-settled.json" in m and "nested" in m for m in shown), shown
    record("files nested 100,000 deep read in one line")


def test_a_journal_entry_nested_deep_is_skipped_and_named(home: Path) -> None:
    journal = home / "reflections"
    journal.mkdir()
    entry = journal / "20261101T090000Z-0001.json"
    entry.write_text(NESTED)
    logged = run(home, "log")
    assert logged.exit_code == 0 and entry.name in logged.stderr
    undone = run(home, "undo", "20261101T090000Z-0001")
    assert undone.exit_code == 1 and len(undone.stderr.splitlines()) == 1
    assert (
        "not a readable journal entry (nested too deeply to read: more than 128 levels)"
        in undone.stderr
    )
    record("files nested 100,000 deep read in one line")


@pytest.mark.parametrize(
    ("name", "what", "levels"),
    [
        ("review-decisions.json", "review decisions", 6),  # the held changes nest
        ("review-rules.json", "review rules", 3),
    ],
)
def test_a_review_file_nested_deep_stops_the_pass_in_one_line(
    home: Path, name: str, what: str, levels: int
) -> None:
    """The pass cannot go on without the operator's decisions and rules: exit 1, one line."""
    (home / name).write_text(NESTED_OBJECT)
    refused = run(home, "reflect")
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"nuggets: {home / name}: not a file of {what} (nested too deeply "
        f"to read: more than {levels} levels); move it aside\n"
    )
    record("files nested 100,000 deep read in one line")


def test_a_fact_file_nested_deep_is_read_as_the_agent_skips_it(tmp_path: Path) -> None:
    path = tmp_path / "user.donna.json"
    path.write_text('{"facts": ' + NESTED + "}")
    assert read_fact_file(path) is None
    record("files nested 100,000 deep read in one line")


# -- files other programs write: the memory-purifier's, the shared memory-log ---------------


def purifier(workspace: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main,
        ["--purifier", str(workspace), *args],
        env={**ENV, "NUGGETS_NOW": "2026-11-25T09:00:00Z"},
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of a workspace the real purifier wrote, and its telemetry beside it."""
    shutil.copytree(PURIFIER, tmp_path / "copy")
    return tmp_path / "copy" / "workspace"


def append_line(path: Path, line: str) -> int:
    """`line` added at the end of a JSONL file; its line number."""
    with path.open("a") as handle:
        handle.write(line + "\n")
    return path.read_text().count("\n")


def new_lines(result: Result, clean: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line not in clean.stderr]


@pytest.mark.parametrize(
    ("command", "file", "said"),
    [
        ("notes", "runtime/purified-claims.jsonl", "is not a JSON object"),
        ("notes", "../telemetry/memory-log-2026-11-25.jsonl", "is not a JSON object"),
        ("log", "../telemetry/memory-log-2026-11-25.jsonl", "is not a JSON object"),
    ],
    ids=["claims", "memory-log-notes", "memory-log-log"],
)
def test_a_deep_line_of_a_purifier_jsonl_is_said_and_the_rest_shown(
    workspace: Path, command: str, file: str, said: str
) -> None:
    clean = purifier(workspace, command)
    path = (workspace / file).resolve()
    number = append_line(path, NESTED_OBJECT)
    shown = purifier(workspace, command)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == clean.stdout  # every other line still read
    assert new_lines(shown, clean) == [
        f"nuggets: {path}: line {number} {said} (truncated?); skipped, the rest is shown"
    ]
    record("files nested 100,000 deep read in one line")


def test_a_deep_purifier_manifest_is_said_and_left_out(workspace: Path) -> None:
    manifest = workspace / "runtime" / "purified-manifest.json"
    manifest.write_text(NESTED)
    shown = purifier(workspace, "notes")
    assert shown.exit_code == 0, shown.output
    assert "12 notes" in shown.stderr or shown.stdout.count("\n") >= 10
    [line] = [x for x in shown.stderr.splitlines() if "purified-manifest.json" in x]
    assert line == (
        f"nuggets: {manifest}: not readable JSON (nested too deeply to read: more "
        "than 128 levels); left out"
    )
    record("files nested 100,000 deep read in one line")


def test_deep_marks_of_purifier_notes_are_said_and_the_notes_shown(workspace: Path) -> None:
    clean = purifier(workspace, "notes")
    marks = PurifierStore(workspace).journal_home / "note-marks.json"
    marks.parent.mkdir(parents=True, exist_ok=True)
    marks.write_text(NESTED)
    shown = purifier(workspace, "notes")
    assert shown.exit_code == 0 and shown.stdout == clean.stdout
    assert new_lines(shown, clean) == [
        f"nuggets: {marks}: not a file of note marks (nested too "
        "deeply to read: more than 2 levels); move it aside; no "
        "note is shown marked until then"
    ]
    record("files nested 100,000 deep read in one line")


async def test_the_console_opens_on_a_purifier_whose_files_are_nested_deep(workspace: Path) -> None:
    append_line(workspace / "runtime" / "purified-claims.jsonl", NESTED)
    append_line(workspace.parent / "telemetry" / "memory-log-2026-11-25.jsonl", NESTED)
    (workspace / "runtime" / "purified-manifest.json").write_text(NESTED_OBJECT)
    app = NuggetsApp(PurifierStore(workspace, fixed_clock(PURIFIER_NOW)))
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, MainScreen)
        assert len(app.screen.query_one(NoteTable).rows) > 0
        shown = [n.message for n in app._notifications]
        for name in (
            "purified-claims.jsonl",
            "memory-log-2026-11-25.jsonl",
            "purified-manifest.json",
        ):
            assert any(name in m for m in shown), (name, shown)
    record("files nested 100,000 deep read in one line")


def test_the_console_run_for_real_opens_on_deep_purifier_claims_and_quits_0(
    workspace: Path,
) -> None:
    append_line(workspace / "runtime" / "purified-claims.jsonl", NESTED)
    ended = run_console(
        ["--purifier", str(workspace)],
        {**ENV, "NUGGETS_NOW": "2026-11-25T09:00:00Z"},
        quit_keys=b"q",
    )
    assert ended.status == 0
    assert "RecursionError" not in ended.screen and "Traceback" not in ended.screen


# -- the Claude store's own record of what it saw ---------------------------------------------


def claude(directory: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main,
        ["--claude", str(directory), *args],
        env={**ENV, "NUGGETS_NOW": "2026-11-25T09:00:00Z"},
    )


@pytest.fixture
def seen(tmp_path: Path) -> Path:
    """A Claude Code memory directory seen once; the folder where what was seen is kept."""
    directory = write_directory(tmp_path / "project")
    assert claude(directory, "notes").exit_code == 0
    return record_home(directory, DEFAULTS.data_home) / "seen"


@pytest.mark.parametrize("command", ["notes", "reflect"])
def test_a_deep_line_of_the_claude_record_is_said_and_the_rest_read(
    seen: Path, tmp_path: Path, command: str
) -> None:
    directory = tmp_path / "project" / "memory"
    clean = claude(directory, command)
    number = append_line(seen / "states.jsonl", NESTED)
    shown = claude(directory, command)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == clean.stdout
    assert new_lines(shown, clean) == [
        f"nuggets: {seen / 'states.jsonl'}: line {number} is not "
        "a recorded state; skipped, the rest is read"
    ]
    record("files nested 100,000 deep read in one line")


def test_a_deep_reviewed_baseline_is_said_once_and_read_as_none(seen: Path, tmp_path: Path) -> None:
    (seen / "reviewed.json").write_text(NESTED_OBJECT)
    shown = claude(tmp_path / "project" / "memory", "reflect")
    assert shown.exit_code == 0, shown.output
    [line] = [x for x in shown.stderr.splitlines() if "reviewed.json" in x]
    assert line == (
        f"nuggets: {seen / 'reviewed.json'}: not readable (nested too deeply to "
        "read: more than 128 levels); read as no review yet"
    )
    record("files nested 100,000 deep read in one line")


async def test_the_console_opens_on_a_claude_record_nested_deep(seen: Path, tmp_path: Path) -> None:
    append_line(seen / "states.jsonl", NESTED)
    (seen / "reviewed.json").write_text(NESTED)
    directory = tmp_path / "project" / "memory"
    app = NuggetsApp(ClaudeStore(directory, fixed_clock(PURIFIER_NOW), record_root=seen.parent))
    async with app.run_test(size=(140, 40), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("r")  # the review reads the reviewed baseline
        await settle(pilot, app)
        shown = [n.message for n in app._notifications]
        for name in ("states.jsonl", "reviewed.json"):
            assert any(name in m for m in shown), (name, shown)
        assert not any("RecursionError" in m for m in shown)
    record("files nested 100,000 deep read in one line")
