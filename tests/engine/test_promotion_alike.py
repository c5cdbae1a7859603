"""Promotion says when entries of one file say almost the same thing under different titles
(core/promotion/alike.py), among those it writes and against those the file holds already;
each is written all the same (nothing is dropped without the operator)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from core.promotion.candidates import plan_promotion
from core.stores.microclaw.store import MicroClawStore
from nuggets_tui.cli import main
from tests.support.microclaw_rows import insert, make_db
from tests.support.note_builders import make_home, note

STAGING = "Staging deploys run from the release branch every Tuesday at noon."
NOTES = [
    note("a", f"{STAGING}\nSeen in session sess-7402.", title="deploy: staging", hits=3),
    note(
        "b", f"{STAGING}\nSource: the team channel.", title="deploy: staging, noted 10-03", hits=4
    ),
    note("c", "The billing service retries a failed charge three times.", title="billing", hits=3),
    # a template with other values in several places: another fact, not the same one
    note("d", "Host node-40 runs scheduler v1.40 in rack r6, owned by Lena", title="h40", hits=3),
    note("e", "Host node-41 runs reports v1.41 in rack r7, owned by Kofi", title="h41", hits=3),
]
IN_FILE = (
    "# Memory\n\n## shared-context\n"
    "- **billing: retries**: The billing service retries a failed charge three times!\n"
)


def test_entries_saying_the_same_thing_under_other_titles_are_marked_and_all_written() -> None:
    plan = plan_promotion(NOTES, Path("/m/MEMORY.md"), IN_FILE, True)
    alike = {e.note_id: [(a.title, a.note_id) for a in e.alike] for e in plan.entries}
    assert alike == {
        "a": [("deploy: staging, noted 10-03", "b")],
        "b": [("deploy: staging", "a")],
        "c": [("billing: retries", "")],  # a line the file holds already
        "d": [],
        "e": [],
    }
    assert {e.action for e in plan.entries} == {"add"} and plan.after_text.count(STAGING) == 2


def test_an_entry_already_written_or_updated_in_place_is_not_its_own_look_alike() -> None:
    first = plan_promotion(NOTES[:2], Path("/m/MEMORY.md"), "", True)
    again = plan_promotion(NOTES[:2], Path("/m/MEMORY.md"), first.after_text, True)
    assert [(e.action, e.alike) for e in again.entries] == [("same", []), ("same", [])]
    changed = [NOTES[0], {**NOTES[1], "content": "Staging deploys moved to Thursdays."}]
    updated = plan_promotion(changed, Path("/m/MEMORY.md"), first.after_text, True)
    assert [(e.action, e.alike) for e in updated.entries] == [("same", []), ("update", [])]


def test_the_command_line_says_which_entries_say_almost_the_same_thing(tmp_path: Path) -> None:
    home = make_home(tmp_path, NOTES)
    target = tmp_path / "memory" / "MEMORY.md"
    target.parent.mkdir()
    target.write_text(IN_FILE)
    args = ["--home", str(home), "promote", "--memory-md", str(target)]
    shown = CliRunner().invoke(main, args)
    assert shown.exit_code == 0, shown.output
    assert "3 entries say almost the same thing as another under a different title" in shown.output
    lines = shown.output.splitlines()
    under_a = lines[lines.index(next(x for x in lines if x.endswith("deploy: staging (a)"))) + 1]
    assert under_a.strip() == "≈ almost the same as: deploy: staging, noted 10-03 (b)"
    assert "≈ almost the same as: billing: retries (already in MEMORY.md)" in shown.output
    as_json = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert {e["noteId"]: e["alike"] for e in as_json["entries"]}["b"] == [
        {"title": "deploy: staging", "noteId": "a"}
    ]


def test_microclaw_rows_alike_in_one_agents_md_are_marked(tmp_path: Path) -> None:
    db = make_db(tmp_path / "data" / "runtime" / "microclaw.db", count=0)
    (db.parent / "groups").mkdir()
    (db.parent / "groups" / "AGENTS.md").write_text(
        "# Bot\n\n- The bot runs on a Raspberry Pi 5, in the office rack\n"
    )
    conn = sqlite3.connect(db)
    for content in (
        "The bot runs on a Raspberry Pi 5 in the office",
        "Server IP address is 10.0.0.12",
    ):
        insert(conn, content, category="PROFILE", confidence=0.9)
    conn.commit()
    conn.close()
    (plan,) = MicroClawStore(db.parent.parent).plan_promotions()
    alike = {e.text: [(a.title, a.note_id) for a in e.alike] for e in plan.entries}
    assert alike == {
        "- The bot runs on a Raspberry Pi 5 in the office": [
            ("The bot runs on a Raspberry Pi 5, in the office rack", "")
        ],
        "- Server IP address is 10.0.0.12": [],
    }
