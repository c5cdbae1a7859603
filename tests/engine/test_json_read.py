"""The bounded JSON reader (core/safeio/json_read.py): its scans measure the nesting the parser
would meet, strings and escapes skipped, and a document, a value inside a text or a line of a
JSONL file nested 100,000 deep is a one-line TooDeepError, never a RecursionError."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.safeio.json_read import (
    MAX_DEPTH,
    JsonReadError,
    TooDeepError,
    deeper_than,
    loads,
    loads_lines,
    raw_decode,
)

DEEP = 100_000
SHAPES = {
    "arrays": "[" * DEEP + "]" * DEEP,
    "objects": '{"a":' * DEEP + "1" + "}" * DEEP,
    "cut short": "[" * DEEP,
    "mixed": '[{"a":' * (DEEP // 2) + "0" + "}]" * (DEEP // 2),
}
# Strings that hold what a careless scan would take for nesting or for the end of the string.
_TRICKY = st.text(alphabet=st.sampled_from(list('[]{}"\\/ab \n\u00e9\u2028\ud800')), max_size=12)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=40,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.booleans(), st.integers(0, 8))
@example([float("inf"), []], False, 1)  # Infinity: the parser reads on, so must the scan
def test_both_scans_measure_the_nesting_the_parser_meets(
    value: Any, ascii_only: bool, limit: int
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    too_deep = depth(value) > limit
    assert deeper_than(text.encode("utf-8", "surrogatepass"), limit) is too_deep
    prose = f'He said "{text}'  # the value inside a text, after a stray quote
    if too_deep:
        with pytest.raises(TooDeepError, match=f"more than {limit} levels"):
            loads(text, limit)
        with pytest.raises(TooDeepError):
            raw_decode(prose, len('He said "'), limit)
    else:
        assert loads(text, limit) == value
        assert raw_decode(prose, len('He said "'), limit)[1] == len(prose)


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_a_document_nested_100k_deep_is_refused_before_the_parser(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json, "loads", _never)
    for data in (text, text.encode()):
        with pytest.raises(
            TooDeepError, match=f"nested too deeply to read: more than {MAX_DEPTH} levels"
        ):
            loads(data)
    with pytest.raises(TooDeepError):
        raw_decode("see " + text, 4)


def test_a_jsonl_line_nested_deep_is_one_bad_line_and_the_others_read() -> None:
    data = b'{"a": 1}\n\n' + SHAPES["objects"].encode() + b'\n[2]\nnot json\n{"b": [3]}\n'
    read, bad = loads_lines(data)
    assert read == [(1, {"a": 1}), (4, [2]), (6, {"b": [3]})]
    assert bad == [3, 5]


def test_nesting_up_to_the_bound_is_read() -> None:
    inside = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert depth(loads(inside)) == MAX_DEPTH
    assert depth(raw_decode(inside + " tail")[0]) == MAX_DEPTH
    with pytest.raises(TooDeepError):
        loads("[" + inside + "]")


def test_a_value_in_prose_is_scanned_only_to_where_the_json_stops() -> None:
    """Text after a value, or after what stops the parser, is not counted against it."""
    broken = '{"a":' * 100 + "x"
    with pytest.raises(json.JSONDecodeError):
        raw_decode(broken * 3)
    assert raw_decode('{"a": 1} then ' + "[" * DEEP) == ({"a": 1}, 8)


def test_what_the_parser_itself_refuses_passes_as_it_is() -> None:
    with pytest.raises(json.JSONDecodeError) as caught:
        loads('{"a": 1,\n "b": }')
    assert (caught.value.lineno, caught.value.colno) == (2, 7)
    with pytest.raises(UnicodeDecodeError):
        loads(b'["\xff"]')
    assert loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}  # a byte-order mark, as json reads bytes


def test_running_out_of_memory_or_stack_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the scan (text the scan follows differently from the parser) the parser's own
    failures are JsonReadErrors too."""
    for failure, why in (
        (RecursionError, "nested too deeply to read"),
        (MemoryError, "too large to read"),
    ):
        monkeypatch.setattr(json, "loads", _raising(failure))
        with pytest.raises(JsonReadError, match=why) as caught:
            loads("[1]")
        assert "\n" not in str(caught.value)


def _never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the parser was called")


def _raising(failure: type[BaseException]) -> Any:
    def parse(*args: Any, **kwargs: Any) -> Any:
        raise failure()

    return parse
