"""Reading the purifier's JSONL files in one parser call, and the first page alone
(core/stores/purifier/artifacts.py): the same rows and the same bad lines as a line at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.purifier.artifacts import first_rows, read_jsonl


@pytest.mark.parametrize(
    ("lines", "good", "bad"),
    [
        (['{"a": 1}', '{"b": 2}'], [{"a": 1}, {"b": 2}], []),
        (['{"a": 1}', '{"x": [1', "2]}", '{"c": 3}'], [{"a": 1}, {"c": 3}], [2, 3]),
        (['{"a": 1}', "[1, 2]", '{"b": 2}, {"c": 3}'], [{"a": 1}], [2, 3]),
        (['{"a": 1}', "", '{"b": 2', ""], [{"a": 1}], [3]),
    ],
)
def test_the_rows_and_the_bad_lines_are_a_line_at_a_times(
    tmp_path: Path, lines: list[str], good: list[dict], bad: list[int]
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines) + "\n")
    notices: list[str] = []
    rows, _ = read_jsonl(path, notices)
    assert rows == good
    if bad:
        assert len(notices) == 1 and f"line {', '.join(map(str, bad))} " in notices[0]
    else:
        assert notices == []


def test_the_first_rows_are_read_alone(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\nnot json\n{"b": 2}\n{"c": 3}\n')
    assert first_rows(path, 2) == [{"a": 1}, {"b": 2}]
    assert first_rows(tmp_path / "absent.jsonl", 2) == []
