"""A note's sources opened at their lines (core/browse/sources.py): the span with a few lines
either side; a missing file, a line past the end or a path out of the directory: one line."""

from __future__ import annotations

from pathlib import Path

from core.browse.sources import SourceSpan, note_sources, read_span


def source_note(*sources: dict) -> dict:
    return {"id": "n-1", "sources": list(sources)}


def test_a_span_is_opened_at_its_lines(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("".join(f"line {n}\n" for n in range(1, 21)))
    [span] = note_sources(source_note({"file": "MEMORY.md", "lines": [9, 10]}), tmp_path)
    assert span.label == "MEMORY.md:9-10"
    shown = read_span(span, tmp_path)
    assert shown.problem is None and shown.total == 20
    assert [(n, inside) for n, _, inside in shown.lines] == [
        (6, False),
        (7, False),
        (8, False),
        (9, True),
        (10, True),
        (11, False),
        (12, False),
        (13, False),
    ]
    assert shown.lines[3][1] == "line 9"


def test_a_missing_file_a_line_past_the_end_or_a_way_out_is_one_line(tmp_path: Path) -> None:
    home = tmp_path / "ws"
    home.mkdir()
    (home / "short.md").write_text("one\ntwo\n")
    (tmp_path / "secret.md").write_text("not the memory's\n")
    spans = note_sources(
        source_note(
            {"file": "gone.md", "lines": [1, 1]},
            {"file": "short.md", "lines": [3, 3]},
            {"file": "../secret.md", "lines": [1, 1]},
            {"file": str(tmp_path / "secret.md")},
        ),
        home,
    )
    problems = [read_span(s, home).problem for s in spans]
    assert all(p and "\n" not in p for p in problems)
    assert "gone.md" in str(problems[0]) and "2 lines, not line 3" in str(problems[1])
    assert "outside" in str(problems[2]) and "outside" in str(problems[3])
    assert all(not read_span(s, home).lines for s in spans)


def test_bad_line_numbers_open_the_whole_file(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("x\ny\n")
    [span] = note_sources(source_note({"file": "a.md", "lines": ["3", None]}), tmp_path)
    assert span == SourceSpan("a.md", tmp_path / "a.md", None, None)
    assert [t for _, t, _ in read_span(span, tmp_path).lines] == ["x", "y"]
    assert note_sources({"id": "n"}, tmp_path) == []
