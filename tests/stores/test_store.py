"""docs/FORMATS.md and docs/RUNS.md on the graph file: unknown fields survive, untouched notes are
written back as read, a corrupt file is an error naming the file and the note or position and is
never written, a missing file is an empty graph, and writes are atomic."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from core.clock import fixed_clock
from core.errors import GraphError, UnknownNoteError
from core.notes.vectors import vector_spec
from core.safeio.atomic_write import atomic_write
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.note_builders import NOW, file_notes, graph_file, link, make_home, note


def memory_of(home: Path) -> NuggetsStore:
    return NuggetsStore(home, fixed_clock(NOW))


# -- unknown fields and untouched notes --------------------------------------------------------

AGENT_FIELD: dict[str, Any] = {"x-agent": {"seen": [1, 2]}}  # a field name no keyword can be


def test_unknown_fields_in_notes_links_and_the_document_survive(tmp_path: Path) -> None:
    odd_link = {**link("b"), "weight": 0.5, "via": ["agent"]}
    notes = [
        note("a", "kappa lambda mu nu", links=[odd_link], **AGENT_FIELD),
        note("b", "kappa lambda mu nu", links=[{**link("c"), "weight": 2}], extra=None),
        note("c", "alpha beta one", links=[{**link("b"), "why": "loser link"}]),
        note("d", "alpha beta two", tags=[], vector={"basis": ["x"], "seed": 1}),
    ]
    home = make_home(tmp_path, notes, extra={"meta": {"writer": "agent", "n": 1.5}})
    memory = memory_of(home)
    memory.apply(memory.plan(uncapped=True))
    doc = json.loads(graph_file(home).read_bytes())
    assert list(doc) == ["version", "meta", "notes"] and doc["meta"] == {
        "writer": "agent",
        "n": 1.5,
    }
    after = file_notes(home)
    assert after["a"]["x-agent"] == {"seen": [1, 2]} and "extra" in after["b"]
    # d was retagged: its vector is the one the agent would compute now (docs/FORMATS.md)
    assert after["d"]["vector"] == vector_spec(after["d"]) != {"basis": ["x"], "seed": 1}
    # a absorbed b; the winner keeps b's link extras, c's redirected link keeps its own.
    assert {**link("c"), "weight": 2} in after["a"]["links"]
    assert {**link("a"), "why": "loser link"} in after["c"]["links"]


def test_untouched_notes_are_written_back_exactly_as_read(tmp_path: Path) -> None:
    raw: list[dict[str, Any]] = [
        {
            "updatedAt": "2026-10-31T00:00:00.000Z",
            "id": "u",
            "confidence": 0.70,
            "hits": 3,
            "nuggetName": "project",
            "content": "caf\u00e9 \u65e5\u672c",
            "title": "Untouched",
            "tags": ["Odd Case", "odd case"],
            "links": [link("gone"), link("gone")],
            "scope": "galaxy",
            "kind": "memo",
        },
        {
            "id": "t",
            "nuggetName": "project",
            "title": "tmp",
            "content": "scratch",
            "createdAt": "2026-01-01T00:00:00.000Z",
        },
    ]
    home = make_home(tmp_path, [])
    graph_file(home).write_text(json.dumps({"notes": raw, "version": 3}, separators=(",", ":")))
    memory = memory_of(home)
    plan = memory.plan("user")  # a nugget with no notes: nothing changes
    assert plan.result.changes == []
    memory.apply(memory.plan(limit=1))  # t is older: it alone is inspected, and archived
    doc = json.loads(graph_file(home).read_bytes())
    assert list(doc) == ["notes", "version"]
    assert json.dumps(doc["notes"][0]) == json.dumps(raw[0])
    archived = {
        **raw[1],
        "hidden": True,
        "archivedAt": "2026-11-01T09:00:00.000Z",
        "updatedAt": "2026-11-01T09:00:00.000Z",
    }
    assert doc["notes"][1] == {**archived, "vector": vector_spec(archived)}


# -- corrupt files -----------------------------------------------------------------------------

CORRUPT = [
    (b'{"version": 3, "notes": [', "not valid JSON at line 1 column 26"),
    (b'{"version": 3, "notes": [{"id": "a", "nuggetName": "p"},]}', "not valid JSON at line 1"),
    (b"\xff\xfe{}", "not valid UTF-8 at byte 0"),
    (b"[]", "top level is an array"),
    (b'{"version": 3}', "no 'notes' array"),
    (b'{"notes": [{"id": "a", "nuggetName": "p"}, {"nuggetName": "p"}]}', "note #1 has no id"),
    (
        b'{"notes": [{"id": "a", "nuggetName": "p"}, {"id": "b", "nuggetName": "p"},'
        b' {"id": "a", "nuggetName": "p"}]}',
        "note #2 repeats the id 'a' of note #0",
    ),
    (b'{"notes": [{"id": "a", "nuggetName": "p", "tags": "x"}]}', "note #0 ('a') field 'tags'"),
    (b'{"notes": [{"id": "a", "nuggetName": "p", "hits": "3"}]}', "note #0 ('a') field 'hits'"),
    (b'{"notes": [{"id": "a", "nuggetName": "p", "hidden": "no"}]}', "('a') field 'hidden'"),
    (b'{"notes": [{"id": "a", "nuggetName": "p", "title": 5}]}', "('a') field 'title'"),
    (
        b'{"notes": [{"id": "a", "nuggetName": "p", "links": [{"reason": "r"}]}]}',
        "('a') link #0 has no 'to'",
    ),
    (b'{"notes": [{"id": "a", "nuggetName": "p"}, 7]}', "note #1 is a number"),
    (b'{"notes": [{"id": "a"}]}', "('a') has no nuggetName"),
]


@pytest.mark.parametrize(("data", "where"), CORRUPT)
def test_a_corrupt_file_is_an_error_naming_the_file_and_place(
    tmp_path: Path, data: bytes, where: str
) -> None:
    home = make_home(tmp_path, [])
    path = graph_file(home)
    path.write_bytes(data)
    with pytest.raises(GraphError) as error:
        read_graph(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and where in message
    assert "\n" not in message


@pytest.mark.parametrize(("data", "where"), CORRUPT[:1] + CORRUPT[5:8])
def test_no_operation_writes_over_a_corrupt_file(tmp_path: Path, data: bytes, where: str) -> None:
    home = make_home(tmp_path, [note("a", "tmp words", title="tmp")])
    memory = memory_of(home)
    plan = memory.plan()
    path = graph_file(home)
    path.write_bytes(data)
    for action in (
        memory.plan,
        lambda: memory.apply(plan),
        lambda: memory.reflect(),
        lambda: memory.unhide(["a"]),
        memory.plan_promotion,
    ):
        with pytest.raises(GraphError, match=where.replace("(", r"\(").replace(")", r"\)")):
            action()
        assert path.read_bytes() == data
    assert not (home / "reflections").exists()


# -- a missing file, atomic writes --------------------------------------------------------------


def test_a_missing_graph_file_is_an_empty_graph_and_is_not_created(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    memory = memory_of(home)
    plan = memory.plan(uncapped=True)
    assert (plan.result.inspected, plan.result.changes, plan.notes) == (0, [], [])
    assert memory.apply(plan) is None
    with pytest.raises(UnknownNoteError):
        memory.unhide(["a"])
    assert memory.shelf().notes == []
    assert not graph_file(home).exists()


def test_writes_leave_no_temporary_files_and_keep_the_file_mode(tmp_path: Path) -> None:
    home = make_home(tmp_path, [note("a", "tmp words", title="tmp"), note("b", "x  y")])
    graph_file(home).chmod(0o600)
    memory = memory_of(home)
    run = memory.apply(memory.plan(uncapped=True))
    assert run is not None
    memory.unhide(["a"])
    memory.undo(memory.log()[0].run_id)
    assert sorted(p.name for p in graph_file(home).parent.iterdir()) == [
        ".graph.lock",
        "graph.json",
    ]
    assert all(
        p.suffix == ".json" and not p.name.startswith(".") for p in (home / "reflections").iterdir()
    )
    assert stat.S_IMODE(graph_file(home).stat().st_mode) == 0o600


def test_a_failed_atomic_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(b"old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["graph.json"]
