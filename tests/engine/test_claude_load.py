"""What Claude Code loads of a MEMORY.md (core/promotion/claude_load.py). The inputs are written
by hand the way Claude Code 2.1.332's loader reads them: `U_t` for an auto-memory file runs the
frontmatter strip `qd`, the block-comment strip `OHe` (a Markdown lexer, no GFM), then the cut
`HMo` (trim, lines on newlines, UTF-16 length, 200 lines / 25,000 units) and its warning; each
expected value is what that pipeline gives for the same input."""

from __future__ import annotations

import pytest

from core.promotion.claude_load import kilobytes, load, units

COMMENT8 = "<!--\nline1\nline2\nline3\nline4\nline5\nline6\n-->\n"


def entries(count: int, line: str = "- [Topic {i}](topic-{i}.md) — note") -> str:
    return "\n".join(line.format(i=i) for i in range(1, count + 1))


def test_utf16_units_count_an_em_dash_and_a_cjk_character_as_one_and_an_emoji_as_two() -> None:
    assert units("—日a") == 3
    assert units("🙂") == 2


def test_150_cjk_entries_all_load_though_their_utf8_bytes_pass_25000() -> None:
    text = entries(150, "- [記憶{i}](mem-{i}.md) — " + "日本語の説明文" * 8)
    assert len(text.encode()) > 25_000
    loaded = load(text)
    assert (loaded.lines, loaded.units, loaded.over, loaded.warning) == (150, 11_933, False, "")


def test_leading_blank_lines_are_trimmed_before_lines_are_counted() -> None:
    loaded = load("\n\n\n" + entries(200))
    assert (loaded.lines, loaded.over, loaded.hidden_lines) == (200, False, 0)


def test_a_block_comment_is_not_counted() -> None:
    loaded = load(COMMENT8 + entries(200))
    assert (loaded.lines, loaded.over) == (200, False)
    assert loaded.measured.startswith("- [Topic 1]")


def test_201_entries_cut_the_last_and_the_warning_names_it() -> None:
    text = entries(201)
    loaded = load(text)
    assert (loaded.shown_lines, loaded.hidden_lines) == (200, 1)
    assert loaded.cut_from == text.index("- [Topic 201]")
    assert loaded.warning == (
        "MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of 201 lines were "
        'cut off, starting at line 201 ("- [Topic 201](topic-201.md) — note"). Keep index '
        "entries to one line under ~200 chars; move detail into topic files."
    )


def test_em_dashes_are_one_unit_each_and_cut_at_the_last_newline_before_25000() -> None:
    text = entries(170, "- [T{i}](t{i}.md) — " + "—" * 130)
    loaded = load(text)
    assert (loaded.lines, loaded.units) == (170, 25_453)
    assert (loaded.shown_lines, loaded.hidden_lines) == (167, 3)
    line = "- [T168](t168.md) — " + "—" * 130
    assert loaded.cut_from == text.index(line)
    assert loaded.warning == (
        "MEMORY.md is 24.9KB (limit: 24.4KB) — index entries are too long. Only part of it was "
        f'loaded: 3 of 170 lines were cut off, starting at line 168 ("{line[:79]}…"). Keep '
        "index entries to one line under ~200 chars; move detail into topic files."
    )


def test_nothing_is_cut_at_25000_units_and_one_more_cuts_the_last_line() -> None:
    line = "- [T{i}](t{i}.md) — "
    body = [line.format(i=i) for i in range(1, 101)]
    short = 25_000 - sum(len(b) for b in body) - 99
    body = [b + "x" * (short // 100) for b in body]
    body[-1] += "x" * (25_000 - sum(len(b) for b in body) - 99)
    text = "\n".join(body)
    assert units(text) == 25_000
    assert not load(text).over
    assert load(text + "x").shown_lines == 99


def test_a_newline_at_unit_25000_cuts_there() -> None:
    text = "a" * 24_990 + "\n" + "b" * 9 + "\nmore line here"  # that newline: unit 25,000
    loaded = load(text)
    assert (loaded.shown_lines, loaded.cut_from) == (2, text.index("more"))


def test_a_first_line_past_25000_is_cut_mid_line() -> None:
    loaded = load("a" * 30_000 + "\nb\nc")
    assert len(loaded.shown) == 25_000
    assert loaded.cut_from == 25_000
    assert "everything after the first 25000 characters of line 1 was cut off" in loaded.warning
    assert loaded.warning.startswith("MEMORY.md is 29.3KB (limit: 24.4KB)")


def test_both_limits_are_named_together() -> None:
    loaded = load(entries(250, "- [T{i}](t{i}.md) — " + "x" * 130))
    assert loaded.warning.startswith("MEMORY.md is 250 lines and ")


def test_a_frontmatter_is_dropped_before_measuring_and_its_lines_are_not_counted() -> None:
    text = "---\nname: idx\n---\n" + entries(200)
    loaded = load(text)
    assert (loaded.lines, loaded.over) == (200, False)
    assert load("\n" + text).lines == 203  # no frontmatter unless it opens the file


def test_cr_counts_as_a_unit_when_no_comment_is_stripped() -> None:
    assert load("a\r\nb").units == 4
    assert load("a\r\n<!-- c -->\r\nb\r\n").measured == "a\nb"


@pytest.mark.parametrize(
    ("text", "measured"),
    [
        ("a <!-- c --> b\n- item <!-- x -->", "a <!-- c --> b\n- item <!-- x -->"),
        ("<!-- c --> after\nnext", "after\nnext"),
        ("para\n<!-- c -->\nmore", "para\nmore"),
        ("- a\n<!-- c -->\n- b", "- a\n- b"),
        ("- item\n  <!-- c -->\n- b", "- item\n  <!-- c -->\n- b"),
        ("> <!-- c -->\nx", "> <!-- c -->\nx"),
        ("   <!-- c -->\nx", "x"),
        ("    <!-- code -->\nx", "<!-- code -->\nx"),
        ("\t<!-- c -->", "<!-- c -->"),
        ("```\n<!-- f -->\n```\nx", "```\n<!-- f -->\n```\nx"),
        ("<!-- never closed\nx\ny", "<!-- never closed\nx\ny"),
        ("<!-- a\nb --> tail text\nnext", "tail text\nnext"),
        ("<!-- a --> text <!-- b -->\nx", "text \nx"),
        ("<!-- a -->\n<!-- b -->\nx", "x"),
        ("<!---->\nx", "x"),
        ("<!-- a --->\nx", "x"),
        ("<!-->\nx", "<!-->\nx"),
        ("<div>\n<!-- c -->\n</div>\nx", "<div>\n<!-- c -->\n</div>\nx"),
        ("a\n\n<!-- c -->\n\n\nb", "a\n\nb"),
    ],
)
def test_only_top_level_block_comments_are_stripped(text: str, measured: str) -> None:
    assert load(text).measured == measured


def test_sizes_are_printed_as_claude_code_prints_them() -> None:
    assert [kilobytes(n) for n in (1023, 1024, 25_000, 25_453, 2_000_000)] == [
        "1023 bytes",
        "1KB",
        "24.4KB",
        "24.9KB",
        "1.9MB",
    ]
