"""The agent's string rules as JavaScript applies them (core/notes/js_strings.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.notes.js_strings import agent_tokens, js_trim, normalize_whitespace, utf16_length

TEXT = st.text(alphabet=st.sampled_from(list("abXZ09/_:- \n\tİKé.the\ufeff\x1c😀")), max_size=4000)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from([1, 4, 6]))
def test_the_first_tokens_read_from_the_head_equal_those_of_the_whole_text(
    text: str, limit: int
) -> None:
    assert agent_tokens(text, limit) == agent_tokens(text)[:limit]


def test_javascript_whitespace_and_lengths() -> None:
    assert js_trim("\ufeff a \u2028") == "a"  # U+FEFF is JavaScript whitespace
    assert js_trim("\x1ca\x1c") == "\x1ca\x1c"  # U+001C is not (Python's strip takes it)
    assert utf16_length("a😀") == 3 and utf16_length("ab") == 2
    assert normalize_whitespace("  a \t b \r\n\n\n\n c  ") == "a b\n\nc"
    assert agent_tokens("The API is Node-20 and it's fast", 6) == ["api", "node-20", "fast"]
