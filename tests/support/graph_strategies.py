"""Hypothesis strategies for small, messy graphs: duplicates, scratch notes, ragged text, dangling
and duplicate links, hidden notes, missing optional fields, values outside the listed choices."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

WORDS = [
    "deploy",
    "make",
    "test",
    "user",
    "prefers",
    "dark",
    "theme",
    "src/app.py",
    "redis",
    "cache",
    "port",
    "8080",
    "the",
    "vim",
    "ci:lint",
    "日本語",
    "ok",
]
TITLES = ["tmp", "Temp notes", "Template", "deploy", "Pref: theme", "learned: cache", ""]
STAMPS = [
    "2026-10-01T00:00:00.000Z",
    "2026-10-02T00:00:00.000Z",
    "2026-11-02T00:00:00.000Z",
    "",
    "garbage",
]
OPTIONAL = ["tags", "links", "hidden", "kind", "hits", "updatedAt", "subject"]

line = st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join)
spaced = st.tuples(line, st.sampled_from(["", "  ", "\t", " \r"])).map("".join)
content = st.lists(spaced, max_size=4).map("\n".join)


@st.composite
def graph_notes(draw: st.DrawFn, max_notes: int = 10) -> list[dict[str, Any]]:
    count = draw(st.integers(min_value=0, max_value=max_notes))
    ids = [f"n{i}" for i in range(count)]
    notes = []
    for note_id in ids:
        text = draw(content)
        note: dict[str, Any] = {
            "id": note_id,
            "nuggetName": draw(st.sampled_from(["project", "user"])),
            "title": draw(st.sampled_from(TITLES)),
            "content": text + "\n" + text if draw(st.booleans()) else text,
            "tags": draw(
                st.lists(st.sampled_from(["Deploy", "ops", "scope:user", "a b"]), max_size=3)
            ),
            "links": [
                {"to": draw(st.sampled_from([*ids, "gone"])), "reason": "r", "createdAt": STAMPS[0]}
                for _ in range(draw(st.integers(0, 2)))
            ],
            "hidden": draw(st.integers(0, 4)) == 0,
            "kind": draw(st.sampled_from(["note", "fact"])),
            "hits": draw(st.integers(0, 4)),
            "subject": draw(st.sampled_from(["user:primary", "shared:project", "team:x"])),
            "scope": draw(st.sampled_from(["user", "project", "self", "team"])),
            "type": draw(st.sampled_from(["fact", "note", "preference"])),
            "createdAt": STAMPS[0],
            "updatedAt": draw(st.sampled_from(STAMPS)),
            "x-extra": {"kept": True},
        }
        for name in draw(st.lists(st.sampled_from(OPTIONAL), max_size=2, unique=True)):
            note.pop(name)
        notes.append(note)
    return notes
