"""The shelf's note lists: one nugget or all, archived notes or not, a text search over title,
content and tags; in file order, the same before and after the indexes are built."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from core.browse.shelf import Shelf
from core.notes import fields
from core.notes.snapshot import Graph

NOTES = st.lists(
    st.fixed_dictionaries(
        {
            "nuggetName": st.sampled_from(["user", "project"]),
            "title": st.sampled_from(["Deploy", "redis cache", "", "Café"]),
            "content": st.sampled_from(["make deploy", "Redis on 6379", "line one\nline two", ""]),
            "tags": st.lists(st.sampled_from(["ops", "REDIS", "scope:user"]), max_size=2),
            "hidden": st.booleans(),
        }
    ),
    max_size=12,
)
QUERIES = st.sampled_from([None, "", "redis", "DEPLOY", "café", "e\no", "ops", "zzz"])


def _expected(notes: list[dict], nugget: str | None, hidden: bool, query: str | None) -> list:
    needle = (query or "").replace("\n", " ").casefold()
    return [
        n
        for n in notes
        if (nugget is None or n["nuggetName"] == nugget)
        and (hidden or not fields.hidden(n))
        and needle in "\n".join([n["title"], n["content"], *n["tags"]]).casefold()
    ]


VIEWS = st.tuples(st.sampled_from([None, "user", "project", "other"]), st.booleans(), QUERIES)


@settings(max_examples=200, deadline=None)
@given(NOTES, st.lists(VIEWS, min_size=1, max_size=6))
def test_lists_match_the_definition_before_and_after_prepare(
    raw: list[dict], views: list[tuple[str | None, bool, str | None]]
) -> None:
    notes = [{"id": f"n{i}", **note} for i, note in enumerate(raw)]
    shelf = Shelf(Graph(Path("graph.json"), {"version": 3, "notes": notes}, "f"))
    for position, (nugget, hidden, query) in enumerate(views):
        if position == len(views) // 2:
            shelf.prepare()
        assert shelf.list_notes(nugget, hidden, query) == _expected(notes, nugget, hidden, query)
