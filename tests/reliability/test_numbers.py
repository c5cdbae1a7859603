"""Numbers are written back as the file spells them: 1e999 stays 1e999 (not Infinity), 1E5 stays
1E5, -0 stays -0, a 5,000-digit integer is kept verbatim; what the engine computes is plain,
finite JSON; NaN and Infinity, which are not JSON, are refused with the file and position."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import GraphError
from core.notes.json_numbers import LongInteger, SpelledFloat, SpelledInt, number_hooks
from core.notes.json_writer import NotFiniteError, dumps_compact, dumps_indented
from core.stores.nuggets.graph_file import dump_graph, read_graph
from nuggets_tui.cli import main
from nuggets_tui.widgets.note_table import NoteTable
from tests.support.figures import record
from tests.support.reliability_support import note

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "TZ": "UTC",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
}

# Number spellings a graph file may hold; each must come back exactly as it was.
SPELLINGS = [
    "1e999",
    "-1e999",
    "1e400",
    "1E5",
    "-0",
    "0",
    "0.0",
    "-0.0",
    "1.0",
    "1.50",
    "1e-400",
    "-1e-400",
    "4.9e-324",
    "5e-324",
    "1.5e308",
    "1.7976931348623157e308",
    "1e+2",
    "2.5E+3",
    "1E-7",
    "1e-07",
    "0.54",
    "0.1000000000000000055511151231257827",
    "100000000000000000000.0",
    "12",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "9" * 4300,
    "1" + "0" * 4300,
    "7" * 5000,
    "-" + "7" * 5000,
    "123456789012345678901234567890.123456789e-5",
]


def _strict(text: str | bytes) -> object:
    """Parsed as a strict JSON parser would (no NaN or Infinity), numbers left as text."""

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse, parse_float=str, parse_int=str)


def _spelled_graph(spellings: list[str]) -> str:
    """A graph in the engine's own layout: a note holding every spelling untouched, one the
    pass retags (its numbers must survive too) and a duplicate it merges away."""
    marks = {f"@{i}@": text for i, text in enumerate(spellings)}
    kept = note(
        "kept",
        "numbers",
        "nothing to change here",
        hits=2,
        tags=["scope:project", "type:fact", "shared-context", "numbers"],
        weight=list(marks),
        vector={"seed": "@0@", "values": list(marks)},
    )
    touched = note(
        "touched",
        "deploy steps",
        "run make deploy",
        tags=["Deploy Steps"],
        confidence=list(marks)[2],
        hits=4,
        extra=list(marks),
    )
    twin = note("twin", "deploy steps again", "run make deploy", hits=3)
    text = dumps_indented({"version": 3, "notes": [kept, touched, twin]}) + "\n"
    for mark, spelling in marks.items():
        text = text.replace(f'"{mark}"', spelling)
    return text


def _home(tmp_path: Path, text: str) -> Path:
    home = tmp_path / "home"
    (home / "graph").mkdir(parents=True)
    (home / "graph" / "graph.json").write_text(text)
    return home


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], env=ENV)


def _note_block(text: str, note_id: str) -> str:
    start = text.index(f'"id": "{note_id}"')
    return text[start : text.index("\n    }", start)]


def test_every_spelling_is_written_back_as_read_and_undo_restores_the_same_bytes(
    tmp_path: Path,
) -> None:
    original = _spelled_graph(SPELLINGS)
    home = _home(tmp_path, original)
    graph = home / "graph" / "graph.json"
    applied = run(home, "reflect", "--all", "--apply")
    assert applied.exit_code == 0, applied.output
    written = graph.read_text()
    assert _note_block(written, "kept") == _note_block(original, "kept")  # byte-identical
    touched = _note_block(written, "touched")
    assert '"confidence": 1e400' in touched and "Infinity" not in written
    for spelling in SPELLINGS:
        assert f"\n        {spelling}," in touched or f"\n        {spelling}\n" in touched
    _strict(written)
    (entry,) = (home / "reflections").glob("*.json")
    assert "1e999" in entry.read_text() and "Infinity" not in entry.read_text()
    for text in entry.read_text().splitlines():  # its header line, then the whole entry
        _strict(text)
    undone = run(home, "undo", entry.stem)
    assert undone.exit_code == 0, undone.output
    assert graph.read_text() == original
    record("number spellings tried", len(SPELLINGS))


def test_json_output_and_the_journal_keep_the_spellings_and_parse_strictly(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path, _spelled_graph(SPELLINGS))
    applied = run(home, "reflect", "--all", "--apply")
    assert applied.exit_code == 0
    result = run(home, "notes", "--json")
    assert result.exit_code == 0, result.output
    journal = next((home / "reflections").glob("*.json")).read_text()
    for text in (result.stdout, journal.split("\n", 1)[1]):  # the entry after its header line
        assert "Infinity" not in text and "1e999" in text
        assert "7" * 5000 in text and '"1E5"' not in text
        _strict(text)


def test_arithmetic_on_spelled_numbers_gives_plain_numbers_written_as_json() -> None:
    merged = SpelledInt("-0") + 3
    assert merged == 3 and type(merged) is int
    bigger = SpelledFloat("1E5") * 2
    assert bigger == 200000.0 and type(bigger) is float and dumps_compact([bigger]) == "[200000.0]"
    assert SpelledFloat("1e999") > 1 and math.isinf(SpelledFloat("1e999"))
    assert SpelledFloat("1E5") == 100000.0 and str(SpelledFloat("1E5")) == "1E5"
    assert LongInteger("7" * 5000) == LongInteger("7" * 5000)


def test_merged_hits_of_a_spelled_zero_are_a_plain_sum(tmp_path: Path) -> None:
    doc = {
        "version": 3,
        "notes": [
            note("a", "deploy steps", "run make deploy", hits=4),
            note("b", "deploy steps again", "run make deploy", hits="@"),
        ],
    }
    home = _home(tmp_path, dumps_indented(doc).replace('"@"', "-0"))
    assert run(home, "reflect", "--all", "--apply").exit_code == 0
    notes = read_graph(home / "graph" / "graph.json").notes
    assert notes[0]["hits"] == 4 and type(notes[0]["hits"]) is int


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_computed_number_json_cannot_hold_is_refused_naming_the_note(value: float) -> None:
    doc = {"version": 3, "notes": [note("ok", "t", "c"), note("bad", "t", "c", confidence=value)]}
    expected = r"^graph.json: not written: note 'bad' holds (inf|-inf|nan), which strict JSON"
    with pytest.raises(GraphError, match=expected):
        dump_graph(doc, Path("graph.json"))
    for dump in (dumps_indented, dumps_compact):
        with pytest.raises(NotFiniteError):
            dump([1, {"x": value}])


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (
            '{"notes": [\n {"id": "n1", "nuggetName": "p", "title": "NaN", "x": NaN}]}',
            "line 2 column 55: NaN is not a JSON number",
        ),
        (
            '{"notes": [{"id": "n1", "nuggetName": "p",\n "weight": -Infinity}]}',
            "line 2 column 12: -Infinity is not a JSON number",
        ),
        (
            '{"notes": [{"id": "n1", "nuggetName": "p", "v": [1, Infinity]}]}',
            "line 1 column 53: Infinity is not a JSON number",
        ),
    ],
)
def test_nan_and_infinity_are_not_json_and_are_refused_with_the_position(
    tmp_path: Path, body: str, where: str
) -> None:
    home = _home(tmp_path, body)
    for args in (("notes",), ("reflect", "--all", "--apply")):
        result = run(home, *args)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.stderr.strip() == (
            f"nuggets: {home / 'graph' / 'graph.json'}: not valid JSON at {where} (a strict "
            "parser such as the agent's refuses it)"
        )
    assert (home / "graph" / "graph.json").read_text() == body
    assert not (home / "reflections").exists()


def test_a_5000_digit_number_is_kept_verbatim_where_it_is_opaque(tmp_path: Path) -> None:
    digits = "7" * 5000
    doc = {
        "version": 3,
        "notes": [note("big", "big", "x", seed="@"), note("m", "deploy", "run  make deploy")],
    }
    home = _home(tmp_path, dumps_indented(doc).replace('"@"', digits) + "\n")
    result = run(home, "reflect", "--all", "--apply")
    assert result.exit_code == 0, result.output
    assert f'"seed": {digits},' in (home / "graph" / "graph.json").read_text()


@pytest.mark.parametrize("field", ["hits", "confidence"])
def test_a_5000_digit_number_where_a_number_is_used_is_a_one_line_error(
    tmp_path: Path, field: str
) -> None:
    doc = {"version": 3, "notes": [note("ok", "t", "x"), note("big", "t", "x", **{field: "@"})]}
    body = dumps_indented(doc).replace('"@"', "7" * 5000)
    home = _home(tmp_path, body)
    for args in (("notes",), ("reflect", "--apply"), ("promote",)):
        result = run(home, *args)
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith(
            f"nuggets: {home / 'graph' / 'graph.json'}: note #1 ('big') field '{field}' is a "
            "number of 5,000 digits, too long to read as a number"
        )
    assert (home / "graph" / "graph.json").read_text() == body


_number_texts = st.from_regex(
    r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,25})?([eE][-+]?[0-9]{1,4})?", fullmatch=True
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_number_texts, min_size=1, max_size=8))
def test_any_json_number_text_reads_and_writes_back_as_itself(texts: list[str]) -> None:
    compact = "[" + ",".join(texts) + "]"
    assert dumps_compact(json.loads(compact, **number_hooks())) == compact
    indented = dumps_indented(json.loads(compact, **number_hooks()))
    assert [t.strip().rstrip(",") for t in indented.splitlines()[1:-1]] == texts
    record("number spellings tried", len(texts))


def _console_home(tmp_path: Path, field: str, number: str) -> Path:
    doc = {
        "version": 3,
        "notes": [note("n1", "first", "x", **{field: "@"}), note("n2", "second", "y")],
    }
    home = _home(tmp_path, dumps_indented(doc).replace('"@"', number))
    (home / "memory").mkdir()
    return home


async def test_the_console_shows_a_spelled_number_as_the_file_spells_it(tmp_path: Path) -> None:
    from tests.support.console_support import make_app, settle

    home = _console_home(tmp_path, "confidence", "1e999")
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        detail = str(app.screen.query_one("#detail-body").render())
        assert "1e999" in detail and "inf" not in detail


@pytest.mark.parametrize(
    ("field", "shown"),
    [
        ("hits", "note #0 ('n1') field 'hits' is a number of 5,000 digits"),
        ("weight", None),  # kept verbatim: the console opens
    ],
)
async def test_a_5000_digit_number_is_no_console_traceback(
    tmp_path: Path, field: str, shown: str | None
) -> None:
    from tests.support.console_support import make_app, settle

    home = _console_home(tmp_path, field, "7" * 5000)
    before = (home / "graph" / "graph.json").read_bytes()
    app = make_app(home)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        problem = app.screen.query_one("#problem")
        if shown is None:
            assert not problem.display
            assert len(app.screen.query_one("#notes", NoteTable).rows) == 2
        else:
            text = str(problem.render())
            assert problem.display and "graph.json" in text and shown in text
    assert app.return_code in (None, 0) and (home / "graph" / "graph.json").read_bytes() == before
