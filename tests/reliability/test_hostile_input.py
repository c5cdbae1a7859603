"""Broken and hostile graph files: each gives a clear one-line error naming the file and the
position or note, and nothing is written; or it is read tolerantly where that is safe, and the
command says so."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.errors import GraphError
from core.stores.nuggets.graph_file import read_graph
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.figures import record
from tests.support.note_builders import sample_notes
from tests.support.reliability_support import leftovers, make_home, memory_of, messy_notes, note

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "TZ": "UTC",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
}
WRITING_COMMANDS = (
    ("reflect", "--all", "--apply"),
    ("unhide", "n6"),
    ("promote", "--apply"),
    ("daily",),
)
READING_COMMANDS = (("notes",), ("reflect",), ("promote",))


def _doc(notes: list) -> bytes:
    return json.dumps({"version": 3, "notes": notes}, indent=2).encode()


def _valid() -> bytes:
    return _doc(messy_notes())


def _nested(levels: int) -> bytes:
    return (
        b'{"version":3,"notes":[{"id":"n1","nuggetName":"p","vector":'
        + b"[" * levels
        + b"]" * levels
        + b"}]}"
    )


BROKEN: dict[str, tuple[bytes, str]] = {
    "empty file": (b"", "not valid JSON at line 1 column 1"),
    "truncated in a string": (_valid()[:300], "a string with no closing quote"),
    "truncated after a note": (_valid()[: _valid().index(b"},") + 2], "not valid JSON at line"),
    "truncated before the end": (_valid()[:-3], "not valid JSON at line"),
    "root is an array": (b"[]", "the top level is an array, not an object"),
    "root is a string": (b'"notes"', "the top level is a string, not an object"),
    "root is null": (b"null", "the top level is null, not an object"),
    "no notes": (b'{"version": 3}', "it has no 'notes' array"),
    "notes is an object": (b'{"notes": {}}', "it has no 'notes' array"),
    "a note is a string": (_doc(["n1"]), "note #0 is a string, not an object"),
    "title is a number": (
        _doc([note("n1", 5, "x")]),  # type: ignore[arg-type]
        "note #0 ('n1') field 'title' is a number, not a string",
    ),
    "tags is a string": (
        _doc([note("n1", "t", "x", tags="a,b")]),
        "note #0 ('n1') field 'tags' is not an array of strings",
    ),
    "links is an object": (_doc([note("n1", "t", "x", links={})]), "field 'links' is not"),
    "a link has no target": (
        _doc([note("n1", "t", "x", links=[{"reason": "r"}])]),
        "note #0 ('n1') link #0 has no 'to'",
    ),
    "hidden is a string": (
        _doc([note("n1", "t", "x", hidden="yes")]),
        "field 'hidden' is not true or false",
    ),
    "hits is negative": (_doc([note("n1", "t", "x", hits=-1)]), "field 'hits' is not a whole"),
    "hits is a fraction": (_doc([note("n1", "t", "x", hits=1.5)]), "field 'hits' is not"),
    "confidence is text": (
        _doc([note("n1", "t", "x", confidence="high")]),
        "field 'confidence' is not a number",
    ),
    "a note without id": (
        _doc([note("n1", "t", "x"), {"nuggetName": "p", "title": "t"}]),
        "note #1 has no id",
    ),
    "an empty id": (_doc([note("", "t", "x")]), "note #0 ('') has no id"),
    "a note without nuggetName": (_doc([{"id": "n1"}]), "note #0 ('n1') has no nuggetName"),
    "duplicate ids": (
        _doc([note("n1", "a", "x"), note("n2", "b", "y"), note("n1", "c", "z")]),
        "note #2 repeats the id 'n1' of note #0",
    ),
    "invalid UTF-8": (_valid()[:40] + b"\xff\xfe" + _valid()[40:], "not valid UTF-8 at byte 40"),
    "a NUL byte in a string": (
        _valid().replace(b'"deploy steps"', b'"deploy\x00steps"', 1),
        "a control character inside a string",
    ),
    "a NUL byte between values": (_valid().replace(b", ", b",\x00 ", 1), "not valid JSON at"),
    "NUL bytes only": (b"\x00" * 64, "not valid JSON at line 1 column 1"),
    "100,000 levels of nesting": (b"[" * 100_000, "nested too deeply to read"),
    "nesting inside a note": (_nested(80), "note #0 ('n1') is nested more than 64 levels"),
}


def run(home: Path, *args: str) -> Result:
    env = {**ENV, "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def _snapshot(home: Path) -> dict[str, bytes]:
    """The memory's files; the run log (telemetry/) records failures too (README.md, "Run log")."""
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and p.name != ".graph.lock" and p.relative_to(home).parts[0] != "telemetry"
    }


def _one_line_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 1, (result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nuggets: "), result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_file_is_a_one_line_error_and_nothing_is_written(
    tmp_path: Path, case: str
) -> None:
    data, expected = BROKEN[case]
    home = make_home(tmp_path, [])
    graph = home / "graph" / "graph.json"
    graph.write_bytes(data)
    before = _snapshot(home)
    for args in (*WRITING_COMMANDS, *READING_COMMANDS):
        _one_line_error(run(home, *args), str(graph), expected)
    assert _snapshot(home) == before
    logged = [
        json.loads(line)
        for path in sorted((home / "telemetry").glob("memory-log-*"))
        for line in path.read_text().splitlines()
    ]  # a file a day: midnight may fall in
    assert [line["event"] for line in logged] == ["run_failed"] * len(WRITING_COMMANDS)
    assert all(str(graph) in line["error"] for line in logged)
    record("bad inputs tried")


def test_a_byte_order_mark_is_read_and_said(tmp_path: Path) -> None:
    home = make_home(tmp_path, [])
    graph = home / "graph" / "graph.json"
    graph.write_bytes(b"\xef\xbb\xbf" + _valid())
    listed = run(home, "notes", "--hidden", "--json")
    assert listed.exit_code == 0
    assert "byte-order mark" in listed.stderr and "leaves it out" in listed.stderr
    assert [n["id"] for n in json.loads(listed.stdout)] == [n["id"] for n in messy_notes()]
    assert run(home, "reflect", "--all", "--apply").exit_code == 0
    assert not graph.read_bytes().startswith(b"\xef\xbb\xbf")
    assert {n["id"] for n in read_graph(graph).notes} == {n["id"] for n in messy_notes()}
    record("bad inputs tried")


def test_repeated_keys_are_read_as_javascript_does_and_said(tmp_path: Path) -> None:
    home = make_home(tmp_path, [])
    graph = home / "graph" / "graph.json"
    graph.write_text(
        '{"version": 3, "notes": [{"id": "n1", "nuggetName": "p", '
        '"title": "first", "title": "second", "content": "deploy cache port"}]}'
    )
    result = run(home, "notes", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)[0]["title"] == "second"
    assert "note 'n1' has the key 'title' more than once" in result.stderr
    record("bad inputs tried")


def _odd_graph() -> list[dict]:
    return [
        note(
            "a",
            "deploy cache",
            "deploy cache port 6379",
            links=[
                {"to": "missing", "reason": "gone"},
                {"to": "a", "reason": "self"},
                {"to": "b", "reason": "cycle"},
                {"to": "b", "reason": "twice"},
            ],
        ),
        note(
            "b",
            "deploy cache too",
            "deploy cache port 6379 jobs",
            links=[{"to": "c", "reason": "cycle"}],
        ),
        note("c", "cache", "the cache port", links=[{"to": "a", "reason": "cycle"}]),
        note("d", "tmp", "", links=[{"to": "d"}, {"to": "nowhere"}]),
        note("e", "unrelated", "nothing else", links=[{"to": "e", "reason": "self"}], hits=9),
    ]


def test_dangling_self_and_cyclic_links_are_kept_and_walked(tmp_path: Path) -> None:
    home = make_home(tmp_path, _odd_graph())
    graph = home / "graph" / "graph.json"
    for _ in range(4):  # repeated uncapped passes over odd links
        assert run(home, "reflect", "--all", "--apply").exit_code == 0
    notes = read_graph(graph).notes
    assert [n["id"] for n in notes] == ["a", "b", "c", "d", "e"]
    by_id = {n["id"]: n for n in notes}
    assert {"to": "missing", "reason": "gone"} in by_id["a"]["links"]
    assert by_id["e"]["links"] == [{"to": "e", "reason": "self"}]  # untouched, as read
    shelf = NuggetsStore(home).shelf()
    for note_id in by_id:  # the detail view and backlinks walk every kind of link
        detail = shelf.detail(note_id)
        assert len(detail.links) == len(by_id[note_id]["links"])
    assert shelf.detail("a").links[0][1] is None  # a dangling target reads as missing
    seen, frontier = set(), ["a"]
    while frontier:  # a graph walk over cycles and self links terminates
        current = frontier.pop()
        if current in seen or shelf.graph.get(current) is None:
            continue
        seen.add(current)
        frontier += [link["to"] for link in shelf.detail(current).note.get("links", [])]
    assert seen == {"a", "b", "c"}
    assert run(home, "promote").exit_code == 0
    record("bad inputs tried", 3)


def test_hostile_text_is_kept_exactly_and_shown_inert(tmp_path: Path) -> None:
    evil = "\x1b]8;;http://x\x07link\x1b[2J [bold red]markup[/] \u202eevil\u200b \x00 \ud800 \x9b"
    home = make_home(
        tmp_path,
        [note("n1", evil, evil, tags=[evil], hits=5), note("n2", "tmp", ""), note(evil, "tmp", "")],
    )
    graph = home / "graph" / "graph.json"
    assert run(home, "reflect", "--apply").exit_code == 0
    for args in (
        ("notes",),
        ("notes", "--json"),
        ("reflect", "--all"),
        ("reflect", "--json"),
        ("promote",),
        ("promote", "--json"),
        ("log",),
        ("log", "--json"),
    ):
        result = run(home, *args)
        assert result.exit_code == 0, result.output
        for bad in ("\x1b", "\u202e", "\u200b", "\x00", "\x9b", "\ud800", "\x07"):
            assert bad not in result.output, (args, bad)
    first = read_graph(graph).get("n1")
    assert first is not None and first["title"] == evil  # kept exactly, lone surrogate too
    record("bad inputs tried")


@pytest.mark.slow
def test_a_20_mb_note_and_a_million_character_line(tmp_path: Path) -> None:
    words = [f"w{i:04d}x" for i in range(5000)]
    big = "\n".join(  # distinct lines over 5,000 distinct words
        " ".join(words[(i * 7 + j * (1 + i // 5000)) % 5000] for j in range(12))
        for i in range(20 * 1024 * 1024 // 84)
    )
    line = "deploy " + "a" * 1_000_000
    home = make_home(
        tmp_path,
        [
            note("big", "big note", big, hits=5),
            note("line", "long line", line, hits=4),
            note("small", "deploy", "deploy cache port"),
        ],
    )
    graph = home / "graph" / "graph.json"
    graph.write_bytes(graph.read_bytes().replace(b"\n", b""))  # the whole file on one line
    assert len(big) > 20_000_000
    assert run(home, "reflect", "--all", "--apply").exit_code == 0
    promoted = run(home, "promote", "--json")
    blocked = {b["noteId"]: b["reason"] for b in json.loads(promoted.stdout)["blocked"]}
    assert set(blocked) == {"big", "line"} and "characters long" in blocked["big"]
    notes = {n["id"]: n for n in read_graph(graph).notes}
    assert notes["big"]["content"] == big and notes["line"]["content"] == line
    record("bad inputs tried", 2)


def test_a_directory_a_pipe_and_broken_links_in_place_of_the_file(tmp_path: Path) -> None:
    home = make_home(tmp_path, [])
    graph = home / "graph" / "graph.json"
    graph.unlink()
    cases: list[tuple[Callable[[], None], str]] = [
        (lambda: graph.mkdir(), "is a directory"),
        (lambda: os.mkfifo(graph), "not a regular file"),
        (lambda: graph.symlink_to(home / "nowhere.json"), "which does not exist"),
        (lambda: graph.symlink_to(graph), "cannot be read"),
    ]
    for make, expected in cases:
        make()
        before = _snapshot(home)
        for args in (*WRITING_COMMANDS, *READING_COMMANDS):
            _one_line_error(run(home, *args), str(graph), expected)
        assert _snapshot(home) == before
        if graph.is_dir() and not graph.is_symlink():
            graph.rmdir()
        else:
            graph.unlink()
        record("bad inputs tried")


def test_a_symlinked_graph_is_written_through_and_the_link_kept(tmp_path: Path) -> None:
    home = make_home(tmp_path, [])
    real = tmp_path / "elsewhere" / "real-graph.json"
    real.parent.mkdir()
    real.write_bytes(_valid())
    graph = home / "graph" / "graph.json"
    graph.unlink()
    graph.symlink_to(real)
    assert run(home, "reflect", "--all", "--apply").exit_code == 0
    assert graph.is_symlink() and os.readlink(graph) == str(real)
    assert read_graph(graph).get("n2")["hidden"] is True
    assert [p.name for p in real.parent.iterdir()] == ["real-graph.json"]
    run_id = json.loads(run(home, "log", "--json").stdout)[0]["runId"]
    assert run(home, "undo", run_id).exit_code == 0
    assert graph.is_symlink() and json.loads(real.read_bytes()) == json.loads(_valid())
    record("bad inputs tried")


# -- permissions: real ones, also when the tests run as root ---------------------------------


NOBODY = 65534


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A directory any user may enter (pytest's own is private to its user)."""
    path = Path(tempfile.mkdtemp(prefix="nuggets-perm-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _as_other_user(action: Callable[..., Result]) -> tuple[int, str]:
    """Run a command as a user without rights to the files: `nobody` in a forked child when
    we are root (root reads and writes regardless of modes), else ourselves."""
    if os.geteuid() != 0:
        result = action()
        return result.exit_code, result.stderr
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        result = action()
        os.write(write, json.dumps([result.exit_code, result.stderr]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        code, stderr = json.loads(handle.read())
    os.waitpid(pid, 0)
    return code, stderr


def test_an_unreadable_file_is_a_one_line_error(open_tmp: Path) -> None:
    home = make_home(open_tmp, messy_notes())
    graph = home / "graph" / "graph.json"
    for path in (home, home / "graph", home / "memory"):
        path.chmod(0o755)
    graph.chmod(0o000)
    before = (graph.stat().st_mtime_ns, _snapshot(home) if os.geteuid() == 0 else None)
    for args in (*WRITING_COMMANDS, *READING_COMMANDS):
        code, stderr = _as_other_user(lambda args=args: run(home, *args))
        assert code == 1 and stderr.count("\n") == 1, stderr
        assert f"{graph}: cannot be read: Permission denied" in stderr
    graph.chmod(0o644)
    assert graph.stat().st_mtime_ns == before[0]
    assert before[1] is None or _snapshot(home) == before[1]
    record("bad inputs tried")


def test_a_read_only_home_reads_fine_and_refuses_writes_in_one_line(open_tmp: Path) -> None:
    home = make_home(open_tmp, messy_notes())
    for path in (home, home / "graph", home / "memory"):
        path.chmod(0o555 if os.geteuid() != 0 else 0o755)
    before = _snapshot(home)
    for args in READING_COMMANDS:
        code, stderr = _as_other_user(lambda args=args: run(home, *args))
        assert code == 0, stderr
    for writing in WRITING_COMMANDS[:3]:
        code, stderr = _as_other_user(lambda args=writing: run(home, *args))
        assert code == 1 and stderr.count("\n") == 1, (args, stderr)
        assert "Permission denied" in stderr or "Read-only" in stderr, stderr
    for path in (home, home / "graph", home / "memory"):
        path.chmod(0o755)
    assert _snapshot(home) == before and leftovers(home) == []
    record("bad inputs tried")


# -- a full disk ---------------------------------------------------------------------------


def test_a_full_disk_at_any_write_is_a_one_line_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """os.write fails with ENOSPC at the first, second, ... write the engine makes."""
    real_write = os.write
    home = make_home(tmp_path, messy_notes())
    before = _snapshot(home)
    failing_at = 0
    while True:
        failing_at += 1
        calls = [0]

        def write(fd: int, data: bytes, calls: list = calls, at: int = failing_at) -> int:
            calls[0] += 1
            if calls[0] == at:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", write)
        result = run(home, "reflect", "--all", "--apply")
        monkeypatch.setattr(os, "write", real_write)
        if result.exit_code == 0:
            break
        _one_line_error(result, "No space left on device")
        assert _snapshot(home) == before and leftovers(home) == []
        record("bad inputs tried")
    assert failing_at > 2  # the journal and the graph writes were both hit


def test_a_file_size_limit_hit_by_the_kernel_is_a_one_line_error(tmp_path: Path) -> None:
    """A real failing write: RLIMIT_FSIZE makes the kernel refuse the graph's new bytes."""
    home = make_home(
        tmp_path,
        messy_notes() * 1 + [note(f"x{i}", f"note {i}", "filler " * 40) for i in range(200)],
    )
    before = _snapshot(home)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (16_000, resource.RLIM_INFINITY))
        result = run(home, "reflect", "--all", "--apply")
        os.write(write, json.dumps([result.exit_code, result.stderr]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        code, stderr = json.loads(handle.read())
    os.waitpid(pid, 0)
    assert code == 1 and stderr.count("\n") == 1 and "File too large" in stderr, stderr
    assert _snapshot(home) == before and leftovers(home) == []
    record("bad inputs tried")


def test_reading_never_writes_even_on_a_corrupt_file(tmp_path: Path) -> None:
    """The engine API too: a GraphError, and not a byte written."""
    home = make_home(tmp_path, [])
    (home / "graph" / "graph.json").write_bytes(b'{"version": 3, "notes": [')
    before = _snapshot(home)
    memory = memory_of(home)
    for step in (
        memory.plan,
        memory.plan_promotion,
        memory.promote_now,
        memory.shelf,
        lambda: memory.unhide(["n1"]),
        memory.reflect,
    ):
        with pytest.raises(GraphError):
            step()
    assert _snapshot(home) == before


def test_the_sample_memory_reads_without_warnings(tmp_path: Path) -> None:
    home = make_home(tmp_path, sample_notes())
    assert read_graph(home / "graph" / "graph.json").warnings == []


def test_a_file_corrupted_while_open_is_refused_and_kept_until_fixed(tmp_path: Path) -> None:
    """A person truncates the graph while a console holds a plan: the apply is refused with
    the file's name, the truncated file is left for them, and once it is put back the plan
    they reviewed still applies."""
    home = make_home(tmp_path, messy_notes())
    graph = home / "graph" / "graph.json"
    good = graph.read_bytes()
    memory = memory_of(home)
    plan = memory.plan(uncapped=True)
    graph.write_bytes(good[: len(good) // 2])
    for step in (lambda: memory.apply(plan), lambda: memory.unhide(["n6"]), memory.reflect):
        with pytest.raises(GraphError, match="not valid JSON"):
            step()
    assert graph.read_bytes() == good[: len(good) // 2] and leftovers(home) == []
    graph.write_bytes(good)
    assert memory.apply(plan) is not None
    assert {n["id"] for n in read_graph(graph).notes} == {n["id"] for n in messy_notes()}
