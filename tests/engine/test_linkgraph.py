"""Orphans and connected groups (core/browse/link_graph.py) equal their definitions, walked
naively."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from core.browse.link_graph import groups, orphans
from core.browse.shelf import Shelf
from core.notes.snapshot import Graph
from tests.support.graph_strategies import graph_notes


def _shelf(notes: list[dict]) -> Shelf:
    return Shelf(Graph(Path("graph.json"), {"version": 3, "notes": notes}, "fingerprint"))


def _visible(note: dict, nugget: str | None) -> bool:
    return note.get("hidden") is not True and nugget in (None, note["nuggetName"])


def _naive_orphans(notes: list[dict], nugget: str | None) -> list[str]:
    ids = {n["id"] for n in notes}
    linked = {
        end
        for n in notes
        for link in n.get("links") or []
        if link["to"] != n["id"] and link["to"] in ids
        for end in (n["id"], link["to"])
    }
    return [n["id"] for n in notes if _visible(n, nugget) and n["id"] not in linked]


def _naive_groups(notes: list[dict], nugget: str | None, minimum: int) -> list[list[str]]:
    members = [n for n in notes if _visible(n, nugget)]
    ids = {n["id"] for n in members}
    near: dict[str, set[str]] = {i: set() for i in ids}
    for n in members:
        for link in n.get("links") or []:
            if link["to"] in ids:
                near[n["id"]].add(link["to"])
                near[link["to"]].add(n["id"])
    seen: set[str] = set()
    found = []
    for n in members:
        if n["id"] in seen:
            continue
        group, todo = set(), [n["id"]]
        while todo:
            here = todo.pop()
            if here not in group:
                group.add(here)
                todo.extend(near[here])
        seen |= group
        found.append([m["id"] for m in members if m["id"] in group])
    return sorted([g for g in found if len(g) >= minimum], key=len, reverse=True)


@settings(max_examples=200, deadline=None)
@given(graph_notes(max_notes=14), st.sampled_from([None, "user"]), st.integers(1, 3))
def test_orphans_and_groups_are_what_their_definitions_say(
    notes: list[dict], nugget: str | None, minimum: int
) -> None:
    shelf = _shelf(notes)
    assert [n["id"] for n in orphans(shelf, nugget)] == _naive_orphans(notes, nugget)
    assert [[n["id"] for n in g] for g in groups(shelf, nugget, minimum)] == _naive_groups(
        notes, nugget, minimum
    )
