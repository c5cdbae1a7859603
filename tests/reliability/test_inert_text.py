"""Untrusted text shown inert: every control, format, bidi and zero-width character becomes a
visible placeholder on screen, or a \\u escape in JSON output (which then reads back the same)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from core.safeio.inert_text import (
    _unsafe,
    _unsafe_codes,
    _unsafe_pattern,
    hidden_characters,
    inert,
    inert_json,
    one_line,
)


def test_the_fast_pattern_flags_exactly_the_unsafe_characters() -> None:
    pattern = _unsafe_pattern()
    for code in range(0x110000):
        char = chr(code)
        if char in "\n\t":
            continue
        assert bool(pattern.fullmatch(char)) == _unsafe(char, True), hex(code)


def test_every_unsafe_character_is_replaced_in_text_and_in_one_line() -> None:
    # Variation selectors 17-256 are printable marks: a fast "all printable" check passes them.
    unsafe = [chr(code) for code in _unsafe_codes()] + ["\U000f0000", "\U0010fffd"]
    assert "\U000e0101" in unsafe and "\u202e" in unsafe and "\x1b" in unsafe
    for char in unsafe:
        assert char not in inert(f"a{char}b\nc"), hex(ord(char))
        assert char not in one_line(f"a{char}b"), hex(ord(char))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_inert_output_holds_nothing_a_terminal_acts_on(text: str) -> None:
    shown = inert(text)
    assert hidden_characters(shown) == []
    assert "\n" not in one_line(text) and hidden_characters(one_line(text)) == []
    if not hidden_characters(text):
        assert shown == text  # ordinary text is left alone


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.text() | st.integers(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=6,
    )
)
def test_inert_json_means_the_same_data(value: object) -> None:
    text = inert_json(json.dumps(value, ensure_ascii=False))
    assert hidden_characters(text) == []
    assert json.loads(text) == value


SELECTORS = [chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["☺", "❤", "a", "#", "0", "✌", "漢", "⌛"]),
    st.sampled_from(SELECTORS),
    st.text(max_size=3),
)
def test_a_variation_selector_shows_as_a_placeholder_so_widths_add_up(
    base: str, selector: str, around: str
) -> None:
    """After an emoji, U+FE0F asks for its wide form: counted 2 cells by one program and drawn
    in 1 by another terminal, it shifts every column after it. As a placeholder it cannot."""
    shown = one_line(around + base + selector + around)
    assert selector not in shown and f"<U+{ord(selector):04X}>" in shown
    assert cell_len(shown) == sum(map(cell_len, shown))


def test_a_tab_in_a_one_line_cell_is_a_space_not_a_jump_to_the_next_stop() -> None:
    # Found by the generated hostile memories: a tab in a link reason reached the graph
    # screen's tree raw, and a terminal moves the cursor for it.
    shown = one_line("a\tb\nc")
    assert shown.startswith("a b") and "\n" not in shown
    assert "\t" not in one_line("reason\t\twith tabs")
    assert inert("keeps\ttabs in blocks") == "keeps\ttabs in blocks"
