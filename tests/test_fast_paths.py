"""The speed paths of the text helpers equal their plain versions (issue: fast at 100k).

The pass computes a note's tokens once and keeps them through a rewrite, which is only right if
normalize never changes a note's tokens; that is checked here too.
"""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from core.jsonfmt import dumps_indented
from core.text import normalize, note_tokens, tokens, unique_tokens

PIECES = ["deploy", "Make", "the", "a", "src/app.py", "ci:lint", "x", "tmp_1", "日本語", "中",
          "ÉCOLE", "straße", " ", "  ", "\t", "\n", "\r\n", "\r", "\n\n\n", "\xa0", "\u3000", ".",
          "-", "/", "42", "v1.2.3"]
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=30).map("".join)

_INNER = re.compile(r"[ \t]+")


def plain_normalize(content: str) -> str:
    """SPEC §2 normalize, line by line, with no shortcut."""
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


def test_known_cases() -> None:
    assert normalize("a  b \n\n\n  a b\nc\t\td  ") == "a b\n\nc d"
    assert normalize("  x  y  ") == "  x y"
    assert unique_tokens("The deploy, the DEPLOY a x src/app.py") == ["deploy", "src/app", "py"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5),
                                                                      children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_indented_dump_equals_the_json_module(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)
