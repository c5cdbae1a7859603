"""Fuzzing the graph reader (hypothesis, bounded): arbitrary bytes, mutated valid files and
strangely-typed notes either read or give a GraphError - never another exception - and a file
that does not read is never written. What reads is planned, applied and read back safely."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from core.errors import GraphError, NuggetsError
from core.notes.checks import PlainNotes, note_problem
from core.stores.nuggets.graph_file import parse_graph, read_graph
from core.stores.nuggets.store import NuggetsStore
from tests.support.figures import record
from tests.support.reliability_support import CLOCK, messy_notes

PATH = Path("graph.json")
VALID = json.dumps({"version": 3, "notes": messy_notes()}, indent=2).encode()
FAST = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read_or_refuse(data: bytes) -> object:
    try:
        return parse_graph(PATH, data)
    except GraphError as exc:
        message = str(exc)
        assert message.startswith(f"{PATH}: ") and "\n" not in message
        return None


@FAST
@given(st.binary(max_size=2000))
def test_any_bytes_read_or_give_a_graph_error(data: bytes) -> None:
    _read_or_refuse(data)
    record("fuzz cases run")


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(VALID)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "splice"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(
                st.sampled_from(
                    [
                        b"\x00",
                        b"\xff",
                        b"\xef\xbb\xbf",
                        b"[",
                        b"{",
                        b'"',
                        b",",
                        b"\\",
                        b"\\ud800",
                        b"]]]",
                        b'"id": "n1", ',
                        b"null",
                        b"1e999",
                        b"NaN",
                        b"-0",
                        b"\n",
                    ]
                )
            )
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "truncate":
            del data[at:]
        else:
            source = draw(st.integers(0, max(len(VALID) - 50, 0)))
            data[at:at] = VALID[source : source + 50]
    return bytes(data)


@FAST
@given(_mutated())
def test_mutated_files_read_or_give_a_graph_error(data: bytes) -> None:
    _read_or_refuse(data)
    record("fuzz cases run")


_text = st.text(max_size=30) | st.sampled_from(
    [
        "",
        "tmp",
        "\x1b[31m",
        "\u202e",
        "\ud800",
        "2026-10-01T00:00:00.000Z",
        "not a date",
        "9999-99-99",
        "scope:project",
        "learned: x",
        "pref: y",
        "a/b.c",
    ]
)
_scalar = st.none() | st.booleans() | st.integers(-3, 10**20) | st.floats() | _text
_json = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_ids = st.sampled_from(["n1", "n2", "n3", "n4"])


def _field(good: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly a well-typed value, now and then anything at all."""
    return st.integers(0, 29).flatmap(lambda k: _json if k == 0 else good)


_link = st.fixed_dictionaries(
    {"to": _field(_ids)},
    optional={"reason": _field(_text), "createdAt": _field(_text), "extra": _json},
)
_note = st.fixed_dictionaries(
    {"id": _field(_ids), "nuggetName": _field(st.sampled_from(["p", "q"]))},
    optional={
        "title": _field(_text),
        "content": _field(_text),
        "tags": _field(st.lists(_text, max_size=4)),
        "links": _field(st.lists(_link, max_size=3)),
        "hidden": _field(st.booleans()),
        "hits": _field(st.integers(0, 20)),
        "kind": _field(st.sampled_from(["fact", "note", "other"])),
        "subject": _field(st.sampled_from(["user:primary", "shared:project", "x"])),
        "scope": _field(st.sampled_from(["self", "user", "shared", "project", "weird"])),
        "type": _field(st.sampled_from(["fact", "note", "preference", "new-type"])),
        "confidence": _field(st.floats(0, 1)),
        "createdAt": _field(_text),
        "updatedAt": _field(_text),
        "archivedAt": _field(_text),
        "vector": _json,
        "futureField": _json,
    },
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(_note, max_size=6), st.booleans())
def test_strange_notes_read_and_survive_plan_apply_and_promotion(
    notes: list[dict], bom: bool
) -> None:
    data = json.dumps({"version": 3, "notes": notes}, indent=1).encode()  # \u escapes
    data = (b"\xef\xbb\xbf" if bom else b"") + data
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        graph_file = home / "graph" / "graph.json"
        graph_file.parent.mkdir()
        graph_file.write_bytes(data)
        (home / "memory").mkdir()
        memory = NuggetsStore(home, CLOCK, home / "memory" / "MEMORY.md")
        try:
            graph = read_graph(graph_file)
        except GraphError:
            for step in (
                lambda: memory.reflect(uncapped=True),
                memory.promote_now,
                lambda: memory.unhide(["n1"]),
            ):
                with contextlib.suppress(NuggetsError):
                    step()
            assert graph_file.read_bytes() == data  # never written
            assert not (home / "reflections").exists()
            record("fuzz cases run")
            event("refused")
            return
        event(f"read {min(len(graph.notes), 3)}+ notes")
        ids = [n["id"] for n in graph.notes]
        memory.reflect(uncapped=True)
        memory.promote_now()
        after = read_graph(graph_file)
        assert [n["id"] for n in after.notes] == ids  # every note kept, in order
        for entry in memory.log():
            memory.undo(entry.run_id)
        assert [n for n in read_graph(graph_file).notes] == graph.notes  # undo restores all
    record("fuzz cases run")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_note)
def test_the_fast_check_never_passes_a_note_the_full_check_refuses(note: dict) -> None:
    if PlainNotes().check(note):
        assert note_problem(note) is None
    record("fuzz cases run")


def test_the_fast_check_passes_every_note_of_a_generated_graph() -> None:
    from bench.generate import generate

    plain = PlainNotes()
    assert all(plain.check(note) for note in generate(300, seed=5)["notes"])


def test_the_fast_check_leaves_deep_nesting_to_the_full_check() -> None:
    deep: list = []
    for _ in range(70):
        deep = [deep]
    note = {"id": "n1", "nuggetName": "p", "vector": {"basis": deep}}
    assert not PlainNotes().check(note)
    assert "nested more than" in (note_problem(note) or "")
    shallow = {"id": "n1", "nuggetName": "p", "vector": {"basis": [[["x"]]]}}
    assert PlainNotes().check(shallow)
