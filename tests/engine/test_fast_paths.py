"""The speed paths of the text helpers, tags and timestamps equal their plain versions (issue:
fast at 100k).

The pass computes a note's tokens once and keeps them through a rewrite, which is only right if
normalize never changes a note's tokens; that is checked here too.
"""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import epoch_ms, epoch_ms_of, parse_iso
from core.notes.fields import is_system_tag
from core.notes.json_writer import dumps_compact, dumps_indented
from core.notes.text import normalize, note_tokens, tokens, unique_tokens
from core.reflection import reflect as reflection
from core.reflection.pass_state import PassRun
from core.reflection.tidy_phase import derived_tags, new_tags, normalize_tag

PIECES = [
    "deploy",
    "Make",
    "the",
    "a",
    "src/app.py",
    "ci:lint",
    "x",
    "tmp_1",
    "日本語",
    "中",
    "ÉCOLE",
    "straße",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n\n",
    "\xa0",
    "\u3000",
    ".",
    "-",
    "/",
    "42",
    "v1.2.3",
]
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=30).map("".join)

_INNER = re.compile(r"[ \t]+")


def plain_normalize(content: str) -> str:
    """Normalized content (docs/PASS.md), line by line, with no shortcut."""
    lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    seen: set[str] = set()
    kept: list[str] = []
    for raw in lines:
        line = raw.rstrip()
        body = line.lstrip(" \t")
        indent = line[: len(line) - len(body)]
        if not body:
            if kept and kept[-1] != "":
                kept.append("")
            continue
        body = _INNER.sub(" ", body)
        if body in seen:
            continue
        seen.add(body)
        kept.append(indent + body)
    while kept and kept[-1] == "":
        kept.pop()
    return "\n".join(kept)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_normalize_equals_the_plain_version(content: str) -> None:
    assert normalize(content) == plain_normalize(content)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_unique_tokens_equals_distinct_tokens_in_order(text: str) -> None:
    assert unique_tokens(text) == list(dict.fromkeys(tokens(text)))


@settings(max_examples=400, deadline=None)
@given(texts, texts)
def test_normalize_never_changes_note_tokens(title: str, content: str) -> None:
    assert note_tokens(title, normalize(content)) == note_tokens(title, content)


ascii_texts = st.text(alphabet=st.characters(max_codepoint=127), max_size=40) | st.lists(
    st.sampled_from([p for p in PIECES if p.isascii()]), max_size=20
).map("".join)


@settings(max_examples=400, deadline=None)
@given(ascii_texts)
def test_ascii_tokens_equal_the_pattern(text: str) -> None:
    assert unique_tokens(text) == list(dict.fromkeys(tokens(text)))


def test_known_cases() -> None:
    assert normalize("a  b \n\n\n  a b\nc\t\td  ") == "a b\n\nc d"
    assert normalize("  x  y  ") == "  x y"
    assert unique_tokens("The deploy, the DEPLOY a x src/app.py") == ["deploy", "src/app", "py"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_indented_and_compact_dumps_equal_the_json_module(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)
    assert dumps_compact(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Timestamps: the engine's own form takes a shorter path; anything else goes through parse_iso.
_stamp_chars = st.sampled_from(list("0123456789-:T.Zz+ ,W"))


@st.composite
def _stamps(draw: st.DrawFn) -> str:
    stamp = list("2026-10-01T09:30:15.123Z")
    for _ in range(draw(st.integers(0, 3))):
        stamp[draw(st.integers(0, 23))] = draw(_stamp_chars)
    return "".join(stamp)


@settings(max_examples=600, deadline=None)
@given(_stamps() | st.text(max_size=26) | st.none() | st.integers())
def test_epoch_of_a_timestamp_equals_parsing_it(stamp: object) -> None:
    moment = parse_iso(stamp)
    assert epoch_ms_of(stamp) == (None if moment is None else epoch_ms(moment))


def plain_new_tags(note: dict, note_tokens_: list[str]) -> list[str]:
    """Retag (docs/PASS.md, phase 2) as worded: existing (normalized, deduplicated) then derived,
    bounded."""
    existing: list[str] = []
    for tag in note.get("tags") or []:
        normal = normalize_tag(tag)
        if normal and normal not in existing:
            existing.append(normal)
    result = existing + [t for t in derived_tags(note, note_tokens_) if t not in existing]
    while len(result) > 6:
        droppable = [i for i, t in enumerate(result) if t not in existing and not is_system_tag(t)]
        if not droppable:
            break
        del result[droppable[-1]]
    return result


_tags = st.lists(
    st.sampled_from(
        [
            "Deploy",
            " deploy ",
            "scope:user",
            "type:note",
            "ops",
            "",
            "Big  Tag",
            "fact",
            "files",
            "a",
            "b",
            "c",
            "d",
            "e",
        ]
    ),
    max_size=9,
)


@settings(max_examples=400, deadline=None)
@given(
    _tags,
    st.sampled_from(["", "user", "self", "project", "odd"]),
    st.sampled_from(["", "note", "fact"]),
    texts,
    texts,
)
def test_new_tags_equal_the_plain_rule(
    tags: list[str], scope: str, kind: str, title: str, content: str
) -> None:
    note = {
        "tags": tags,
        "scope": scope,
        "type": kind,
        "kind": kind,
        "title": title,
        "content": content,
    }
    found = note_tokens(title, content)
    assert new_tags(note, found) == plain_new_tags(note, found)


_order_texts = st.sampled_from(
    [
        "",
        "a",
        "ab",
        "a\x00",
        "a\x00b",
        "b",
        "2026-10-01T00:00:00.000Z",
        "2026-10-01T00:00:00.000Z\x00",
        "\x00",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_order_texts, _order_texts, st.booleans()), max_size=30))
def test_pass_order_by_joined_keys_equals_sorting_the_fields(rows: list) -> None:
    notes = [
        {"id": f"n\x00{i}" if odd_id else f"n{i}", "nuggetName": nugget, "updatedAt": stamp}
        for i, (nugget, stamp, odd_id) in enumerate(rows)
    ]
    run = PassRun(notes, "2026-11-01T09:00:00.000Z")
    in_scope = list(range(len(notes)))
    _, keys = reflection._survey(run, notes, in_scope, 0)
    expected = sorted(
        in_scope, key=lambda p: (notes[p]["nuggetName"], notes[p]["updatedAt"], notes[p]["id"])
    )
    assert reflection._pass_order(run, in_scope, keys) == expected
