"""JSON nested 100,000 levels deep in a file a person or another program can edit
(conflicts-settled.json, a journal entry, a fact file) is one line naming the file, never a
RecursionError: the rest works. All of them are read through core/notes/json_numbers.py's
`loads`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.safeio.json_read import TooDeepError, loads
from core.review.decisions import settled_path
from core.stores.nuggets.fact_files import read_fact_file
from nuggets_tui.cli import main
from nuggets_tui.screens.conflicts import ConflictsScreen
from tests.support.conflict_builders import answers_memory
from tests.support.console_support import make_app, settle
from tests.support.figures import record
from tests.support.note_builders import make_home

DEEP = 100_000
NESTED = "[" * DEEP + "]" * DEEP
ENV = {"NUGGETS_NOW": "2026-11-01T10:00:00Z", "NUGGETS_HOME": "", "NUGGETS_MEMORY_MD": "",
       "TZ": "UTC"}


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
        home: Path) -> None:
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
    [line] = [x for x in refused.stderr.splitlines() if "conflicts-settled.json" in x
              and "nested" in x][-1:]
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
    assert "not a readable journal entry (nested too deeply to read: more than 128 levels)" \
        in undone.stderr
    record("files nested 100,000 deep read in one line")


def test_a_fact_file_nested_deep_is_read_as_the_agent_skips_it(tmp_path: Path) -> None:
    path = tmp_path / "user.donna.json"
    path.write_text('{"facts": ' + NESTED + "}")
    assert read_fact_file(path) is None
    record("files nested 100,000 deep read in one line")
