"""The first notes read from the head of a graph file are exactly the first visible notes of the
whole read, or fewer; and no file, however broken, makes the reading fail or hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.notes import fields
from core.stores.nuggets.first_notes import first_notes
from core.stores.nuggets.graph_file import dump_graph, read_graph
from tests.support.graph_strategies import graph_notes


def _visible(path: Path) -> list[dict]:
    return [n for n in read_graph(path).notes if not fields.hidden(n)]


@settings(max_examples=150, deadline=None)
@given(
    graph_notes(max_notes=12),
    st.integers(1, 15),
    st.sampled_from(["dump", "compact", "odd"]),
    st.booleans(),
)
def test_the_head_gives_the_first_visible_notes(
    tmp_path_factory: pytest.TempPathFactory,
    notes: list[dict],
    count: int,
    style: str,
    bom: bool,
) -> None:
    path = tmp_path_factory.mktemp("peek") / "graph.json"
    doc = (
        {"version": 3, "notes": notes}
        if style != "odd"
        else {"meta": {"notes": ["not these"]}, "version": 3, "notes": notes, "after": [1, 2]}
    )
    data = dump_graph(doc) if style == "dump" else json.dumps(doc, separators=(",", ":")).encode()
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    expected = _visible(path)[:count]
    assert first_notes(path, count) == expected
    # A head cut anywhere gives the first of those notes, never anything else.
    for size in (1, 10, len(data) // 3, len(data) // 2, len(data) - 1):
        shown = first_notes(path, count, head_bytes=size)
        assert shown == expected[: len(shown)]


def test_what_cannot_be_read_plainly_shows_nothing_or_what_came_before(tmp_path: Path) -> None:
    note = {"id": "a", "nuggetName": "user", "title": "t", "content": "c"}
    cases = {
        b"": [],
        b"[]": [],
        b"null": [],
        b"{": [],
        b'{"notes": {}}': [],
        b'{"notes": [' + json.dumps(note).encode() + b', {"id": 5}]}': ["a"],
        b'{"notes": [' + json.dumps(note).encode() + b", " + json.dumps(note).encode() + b"]}": [
            "a"
        ],
        b'{"notes": [' + json.dumps(note).encode() + b'] "x"': ["a"],
        b'{"notes": [' + json.dumps(note).encode() + b", \xff\xfe]}": [],
        b'{"version": 3,, "notes": []}': [],
    }
    for data, ids in cases.items():
        path = tmp_path / "graph.json"
        path.write_bytes(data)
        assert [n["id"] for n in first_notes(path, 10)] == ids, data


def test_a_directory_a_pipe_or_no_file_shows_nothing(tmp_path: Path) -> None:
    assert first_notes(tmp_path, 10) == []
    assert first_notes(tmp_path / "missing.json", 10) == []
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert first_notes(pipe, 10) == []  # returns at once: nobody writes to the pipe
