"""Claude Code's memory directory (docs/CLAUDE_CODE.md): the plan's header in the store's own
words, an added file's diff, and two records at once. Directories written by hand as in
tests/stores/test_claude.py."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from core.notes.diff import content_lines
from core.safeio.atomic_write import atomic_write
from core.stores.claude import seen
from core.stores.claude.presentation import PROFILE as CLAUDE_WORDS
from core.stores.nuggets.presentation import PROFILE as NUGGETS_WORDS
from tests.stores.test_claude import ORPHAN, run, write_directory
from tests.support import cli_support
from tests.support.note_builders import make_home, sample_notes


def test_the_plan_header_is_the_stores_pass_in_its_own_words(tmp_path: Path) -> None:
    directory = write_directory(tmp_path)
    assert run(directory, "notes")[0] == 0  # the reviewed baseline
    (directory / "new_topic.md").write_bytes(ORPHAN.replace(b"Scratch", b"New"))
    code, out, _ = run(directory, "reflect")
    assert code == 0, out
    label = CLAUDE_WORDS.pass_label
    assert out.splitlines()[0].startswith(f"{label[0].upper()}{label[1:]} on ")
    assert "Reflection pass" not in out
    # the directory's plan is never capped, and holds no tags or links
    assert "(uncapped)" not in out.splitlines()[0]
    assert "tagged" not in out.splitlines()[1] and "linked" not in out.splitlines()[1]


def test_the_nuggets_plan_header_still_says_reflection_pass(tmp_path: Path) -> None:
    home = make_home(tmp_path, sample_notes(50))
    result = cli_support.run(home, "reflect")
    assert result.exit_code == 0, result.output
    label = NUGGETS_WORDS.pass_label
    assert result.output.splitlines()[0].startswith(f"{label[0].upper()}{label[1:]} on ")
    assert "(uncapped)" in result.output.splitlines()[0] or "(limit " in result.output
    assert "tagged" in result.output.splitlines()[1]


def test_an_added_text_is_only_added_lines_and_a_removed_one_only_removed() -> None:
    added = content_lines("", "---\nname: New\n---\n")
    assert added == [("@", "@@ -0,0 +1,3 @@"), ("+", "---"), ("+", "name: New"), ("+", "---")]
    removed = content_lines("a\nb", "")
    assert [tag for tag, _ in removed if tag != "@"] == ["-", "-"]


def test_a_real_blank_line_is_still_diffed() -> None:
    assert ("-", "") in content_lines("a\n\nb", "a\nb")
    assert ("+", "") in content_lines("a\nb", "a\n\nb")
    assert content_lines("a\n", "a\n\n") == [("@", "@@ -1 +1,2 @@"), (" ", "a"), ("+", "")]


def test_a_line_break_added_at_the_end_alone_is_still_a_change() -> None:
    assert content_lines("a", "a\n") == [("@", "@@ -1 +1,2 @@"), (" ", "a"), ("+", "")]


def test_a_run_of_lines_cut_from_a_file_numbers_its_hunks_as_the_files_lines() -> None:
    assert content_lines("", "x\ny\n", first=(8, 8))[0] == ("@", "@@ -7,0 +8,2 @@")
    assert content_lines("a\nb\n", "a\nc\n", context=0, first=(3, 5))[0] == ("@", "@@ -4 +6 @@")


def test_a_record_made_while_another_prunes_is_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hourly crons at once: the second records just as the first rewrites the log."""
    monkeypatch.setattr(seen, "KEEP_STATES", 2)
    record = seen.SeenRecord(tmp_path / "seen")
    record.record({"a.md": b"a 0"}, "t0")
    record.record({"a.md": b"a 1"}, "t1")
    write, others = atomic_write, list[threading.Thread]()

    def write_while_another_records(path: Path, data: bytes, private: bool = False) -> None:
        if path.name == seen.STATES and not others:
            other = threading.Thread(target=record.record, args=({"b.md": b"b"}, "t3"))
            others.append(other)
            other.start()
            other.join(timeout=1)  # it runs now, or waits for our lock
        write(path, data, private=private)

    monkeypatch.setattr(seen, "atomic_write", write_while_another_records)
    record.record({"a.md": b"a 2"}, "t2")  # past KEEP_STATES: prunes
    others[0].join()
    assert record.states()[-1].files == {"b.md": seen.sha(b"b")}
    assert record.last_versions()["a.md"].digest == seen.sha(b"a 2")


def test_log_lists_each_files_versions_the_record_holds(tmp_path: Path) -> None:
    directory = write_directory(tmp_path)
    assert run(directory, "notes")[0] == 0
    first = (directory / "scratch.md").read_bytes()
    second = first + b"The import runs at 03:00.\n"
    (directory / "scratch.md").write_bytes(second)
    assert run(directory, "daily")[0] == 0
    code, out, _ = run(directory, "log")
    assert code == 0, out
    lines = out.splitlines()
    listed = lines[lines.index("  scratch.md") + 1 :][:2]
    for line, data in zip(listed, (first, second), strict=True):
        assert f"{len(data)} bytes" in line
        assert f"sha256 {seen.sha(data)[:12]}" in line
    assert "  feedback_testing.md" in lines
