"""The text helpers of docs/PASS.md: the examples, and properties checked against simple reference
readings."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.notes.text import STOP_WORDS, jaccard, normalize, note_tokens, tokens

SEEDS_PATTERN = re.compile(r"[a-z0-9/_:-]{2,}")
IDEOGRAPHS = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)


# -- tokens ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The Deploy-Script at src/app.py, version 2",
            ["deploy-script", "src/app", "py", "version"],
        ),
        ("ci:lint a_b x I", ["ci:lint", "a_b"]),
        ("a an and are as at be by for from in is it of on or the to with", []),
        ("Café RÉSUMÉ naïve", ["café", "résumé", "naïve"]),
        ("Straße", ["strasse"]),
        ("日本語", ["日本", "本語"]),
        ("日", ["日"]),
        ("日本語 text 中", ["日本", "本語", "text", "中"]),
        ("abc日本", ["abc", "日本"]),
        ("deploy deploy", ["deploy", "deploy"]),
        ("", []),
    ],
)
def test_tokens_examples(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected


def test_note_tokens_are_title_then_content_in_order_of_first_appearance() -> None:
    assert note_tokens("Deploy", "deploy the app; app DEPLOY now") == ["deploy", "app", "now"]
    assert note_tokens("", "") == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_tokens_on_ascii_text_equal_the_seeds_pattern(text: str) -> None:
    expected = [t for t in SEEDS_PATTERN.findall(text.lower()) if t not in STOP_WORDS]
    assert tokens(text) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=IDEOGRAPHS, min_size=1, max_size=6), min_size=1, max_size=4))
def test_a_run_of_ideographs_becomes_its_overlapping_bigrams(runs: list[str]) -> None:
    expected = []
    for run in runs:
        expected += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
    assert tokens(" ".join(runs)) == expected


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_tokens_are_long_enough_and_never_stop_words(text: str) -> None:
    for token in tokens(text):
        assert token not in STOP_WORDS
        assert len(token) >= 2 or unicodedata.name(token, "").startswith("CJK")


# -- jaccard -----------------------------------------------------------------------------------


def test_jaccard_examples() -> None:
    assert jaccard(["a1", "b2"], ["b2", "c3"]) == pytest.approx(1 / 3)
    assert jaccard(["a1", "a1", "b2"], ["b2", "a1"]) == 1.0
    assert jaccard([], []) == 0.0
    assert jaccard(["a1"], []) == 0.0


token_sets = st.frozensets(st.sampled_from([f"w{i}" for i in range(30)]), max_size=30)


@settings(max_examples=300, deadline=None)
@given(token_sets, token_sets)
def test_jaccard_is_symmetric_and_bounded(a: frozenset[str], b: frozenset[str]) -> None:
    value = jaccard(a, b)
    assert value == jaccard(b, a)
    assert 0.0 <= value <= 1.0
    assert (value == 1.0) is (bool(a) and a == b)


# -- normalize ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("a\r\nb\rc", "a\nb\nc"),
        ("x  \t y   ", "x y"),
        ("  indented   text", "  indented text"),
        ("\tcode\t\tline", "\tcode line"),
        ("line\n  line", "line"),
        ("p1\n\n\n\np2", "p1\n\np2"),
        ("a\n   \nb", "a\n\nb"),
        ("\n\n  \nbody\n\n", "body"),
        ("a\nb\na\n\nb", "a\nb"),
        ("a\n\na\n\nb", "a\n\nb"),
        ("already tidy\n\n  - item", "already tidy\n\n  - item"),
        ("   \n\t", ""),
    ],
)
def test_normalize_examples(content: str, expected: str) -> None:
    assert normalize(content) == expected


def reference_normalize(content: str) -> str:
    """Normalized content (docs/PASS.md) read step by step, written independently of
    core.notes.text."""
    processed = []
    for line in re.split(r"\r\n|\r|\n", content):
        line = line.rstrip()
        indent = re.match(r"[ \t]*", line).group()
        body = re.sub(r"[ \t]+", " ", line[len(indent) :])
        processed.append(indent + body if body else "")
    seen: set[str] = set()
    kept = []
    for line in processed:
        key = line.lstrip(" \t")
        if key:
            if key in seen:
                continue
            seen.add(key)
        kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")


messy_text = st.lists(
    st.text(alphabet=st.sampled_from(list(" \t\r\nabc-é日\x0c\u00a0")), max_size=12),
    max_size=8,
).map("".join)
any_text = st.one_of(messy_text, st.text(max_size=60))


@settings(max_examples=400, deadline=None)
@given(any_text)
def test_normalize_matches_the_reference_and_is_idempotent(content: str) -> None:
    once = normalize(content)
    assert once == reference_normalize(content)
    assert normalize(once) == once


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_normalize_leaves_no_mess(content: str) -> None:
    out = normalize(content)
    assert "\r" not in out and "\n\n\n" not in out
    lines = out.split("\n")
    assert all(line == line.rstrip() for line in lines)
    if out:
        assert lines[0].strip() and lines[-1].strip()
    bodies = [line.lstrip(" \t") for line in lines if line]
    assert len(bodies) == len(set(bodies))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "  ", "\t", "    "]),
            st.text(alphabet="abcxyz", min_size=1, max_size=4),
        ),
        max_size=8,
    )
)
def test_normalize_keeps_indentation_and_drops_only_repeated_lines(
    lines: list[tuple[str, str]],
) -> None:
    content = "\n".join(indent + body for indent, body in lines)
    expected, seen = [], set()
    for indent, body in lines:
        if body not in seen:
            seen.add(body)
            expected.append(indent + body)
    assert normalize(content) == "\n".join(expected)
