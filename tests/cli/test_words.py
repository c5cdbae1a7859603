"""One way to write counts, paths and moments in the console and on the command line."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.text import Text

from core.clock import shown_time
from nuggets_tui.widgets.nugget_list import _prompt
from nuggets_tui.words import counted, shown_path
from tests.support.cli_support import run


def test_counts_have_separators_and_agree_with_their_noun() -> None:
    assert counted(1, "note") == "1 note" and counted(0, "note") == "0 notes"
    assert counted(98_100, "entry", "entries") == "98,100 entries"
    shown = _prompt(Text("all"), 98_100, 1, 1, "fact").plain
    assert "98,099 notes" in shown and "1 fact" in shown and "1 facts" not in shown
    assert "k" not in shown.replace("all", "")


def test_the_command_line_shows_paths_under_home_with_a_tilde(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert shown_path(tmp_path / "x") == "~/x"
    result = run(tmp_path / "nosuch", "notes")
    assert result.exit_code == 2 and "no memory at ~/nosuch" in result.output


def test_one_note_is_one_note_on_the_command_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "graph").mkdir(parents=True)
    note = {
        "id": "n1",
        "nuggetName": "project",
        "title": "t",
        "content": "c",
        "tags": [],
        "links": [],
        "hidden": False,
    }
    (home / "graph" / "graph.json").write_text(json.dumps({"version": 3, "notes": [note]}))
    listed = run(home, "notes")
    assert listed.stderr.strip().endswith("1 note")
    archived = run(home, "archive", "n1")
    assert archived.exit_code == 0 and "Archived 1 note " in archived.stdout
    unhid = run(home, "unhide", "n1")
    assert "Unhid 1 note " in unhid.stdout


ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def test_a_moment_reads_one_way_and_what_is_no_moment_stays_as_it_is() -> None:
    shown = "2026-11-28 10:15 UTC"
    assert shown_time("2026-11-28T10:15:00Z") == shown
    assert shown_time("2026-11-28T10:15:42.123Z") == shown
    assert shown_time("2026-11-28T11:15:00+01:00") == shown  # told in UTC, whatever it was
    assert shown_time("2026-11-28 10:15:00") == shown
    assert shown_time(datetime(2026, 11, 28, 10, 15, tzinfo=UTC)) == shown
    assert shown_time("2026-11-28") == "2026-11-28"  # a date alone is no moment
    assert shown_time("soon") == "soon" and shown_time(None) == ""


def test_log_and_reflect_tell_moments_as_people_read_them_and_json_keeps_iso(
    home: Path,
) -> None:
    """`log` said 2026-11-01T09:00:00.000Z where the console said 2026-11-01 09:00."""
    assert run(home, "reflect", "--apply").exit_code == 0
    # (a note's fields in a diff keep the value written: `archivedAt: ... -> 2026-...T...`)
    said = run(home, "log").stdout + run(home, "reflect").stdout.splitlines()[0]
    assert said.count("2026-11-01 09:00 UTC") == 2 and not ISO_MOMENT.search(said), said
    logged = json.loads(run(home, "log", "--json").stdout)
    assert logged[0]["at"] == "2026-11-01T09:00:00.000Z"
