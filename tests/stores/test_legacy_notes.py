"""Notes the agent writes or still reads that our first reader refused or misread."""

from __future__ import annotations

import json
from pathlib import Path

from core.notes import fields
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.note_builders import note


def _write(home: Path, notes: list[dict]) -> Path:
    path = home / "graph" / "graph.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 3, "notes": notes}, indent=2))
    return path


def test_donna_name_stands_for_nugget_name(tmp_path: Path) -> None:
    legacy = note("old-1", title="legacy")
    legacy["donnaName"] = legacy.pop("nuggetName")
    path = _write(tmp_path, [legacy, note("n2")])
    graph = read_graph(path)
    assert fields.nugget(graph.notes[graph.index["old-1"]]) == legacy["donnaName"]
    shelf = NuggetsStore(tmp_path).shelf()
    assert any(n["id"] == "old-1" for n in shelf.list_notes(legacy["donnaName"]))


def test_agent_merge_reason_names_the_absorbing_note() -> None:
    loser = note(
        "l",
        hidden=True,
        links=[{"to": "w", "reason": "merged during daily memory reflection", "createdAt": "x"}],
    )
    assert fields.merged_into(loser) == "w"
    assert fields.merged_into(note("p", links=[{"to": "w", "reason": "shared context: a"}])) is None


def test_promotion_puts_a_note_in_the_section_the_agent_reads_it_in() -> None:
    from core.promotion.candidates import section_of

    # no subject or scope stored: the agent infers user scope from "likes" -> section `user`
    bare = {"id": "b", "nuggetName": "memory", "title": "likes tea", "content": "green", "tags": []}
    assert section_of(bare) == "user"
    # tags as the agent reads them (normalized): `Preferences` is the preferences section
    tagged = {**bare, "subject": "x:y", "scope": "self", "tags": ["Preferences"]}
    assert section_of(tagged) == "preferences"
    legacy = {k: v for k, v in tagged.items() if k != "nuggetName"} | {
        "donnaName": "old",
        "tags": [],
    }
    assert section_of(legacy) == "old"
