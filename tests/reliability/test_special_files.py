"""Special files where the tool expects its own regular files: a named pipe, a device, a
directory, a file larger than it reads. Each is refused with one line naming it, at once
(commands run in a child process with a deadline, so a hang fails the test instead of hanging
it), and a special file named like one of our leftovers is named and left alone while every
command goes on working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.figures import record
from tests.support.paths import REPO
from tests.support.reliability_support import make_home, messy_notes

ROOT = REPO
DEADLINE = 30  # seconds; a command that hangs on a pipe never ends
TOO_LARGE_MEMORY_MD = (16 << 20) + 1
ENV = {"NUGGETS_NOW": "2026-11-01T10:00:00Z", "TZ": "UTC", "MEMORY_REFLECTION_HOUR": "9"}

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def nuggets(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **ENV, "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md")}
    env.pop("NUGGETS_CRASH_AT", None)
    try:
        return subprocess.run(
            [sys.executable, "-m", "nuggets_tui.cli", "--home", str(home), *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"nuggets {' '.join(args)} hung")


def one_line_error(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("nuggets: "), done.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path, messy_notes(), "# Memory\n")


def test_the_reader_refuses_what_is_not_a_regular_file_of_bounded_size(tmp_path: Path) -> None:
    from core.errors import FileKindError
    from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    big = tmp_path / "big"
    with big.open("wb") as handle:
        handle.truncate(MEMORY_MD_BYTES + 1)  # sparse: no disk used
    cases = {
        pipe: "is a named pipe (FIFO), not a regular file",
        tmp_path: "is a directory",
        Path("/dev/zero"): "is a character device",
        big: "more than the 16.0 MB",
    }
    for path, expected in cases.items():
        with pytest.raises(FileKindError, match=expected.replace("(", r"\(").replace(")", r"\)")):
            read_regular(path, MEMORY_MD_BYTES)
    (tmp_path / "small").write_bytes(b"abc")
    assert read_regular(tmp_path / "small", MEMORY_MD_BYTES) == b"abc"
    record("special files tried", len(cases))


@pytest.mark.parametrize("kind", ["pipe", "too large"])
def test_a_special_memory_md_is_one_line_error_for_promote_and_daily(home: Path, kind: str) -> None:
    memory_md = home / "memory" / "MEMORY.md"
    memory_md.unlink()
    if kind == "pipe":
        os.mkfifo(memory_md)
    else:
        with memory_md.open("wb") as handle:
            handle.truncate(TOO_LARGE_MEMORY_MD)
    expected = {"pipe": "named pipe", "too large": "more than"}
    for args in (("promote",), ("promote", "--apply"), ("daily",)):
        one_line_error(nuggets(home, *args), str(memory_md), expected[kind])
    # daily let go of the lock: a write by another command goes through at once
    assert nuggets(home, "unhide", "n6").returncode == 0
    record("special files tried", 3)


def test_a_memory_md_linked_to_a_device_is_refused_unopened(home: Path) -> None:
    """`MEMORY.md -> /dev/zero`: a link, so promotion refuses it (docs/PROMOTION.md) before
    opening anything; the rest of `daily` goes on."""
    memory_md = home / "memory" / "MEMORY.md"
    memory_md.unlink()
    memory_md.symlink_to("/dev/zero")
    for args in (("promote",), ("promote", "--apply"), ("-v", "daily")):
        done = nuggets(home, *args)
        assert done.returncode == 0, done.stderr
        said = done.stdout if "daily" in args else done.stderr
        refused = [line for line in said.splitlines() if "refused" in line]
        assert len(refused) == 1 and f"{memory_md} is a symbolic link" in refused[0]
    assert nuggets(home, "unhide", "n6").returncode == 0
    record("special files tried")


def test_special_files_named_like_our_leftovers_are_named_and_left_alone(home: Path) -> None:
    journal = home / "reflections"
    journal.mkdir()
    planted = [
        journal / ".20261101T090000Z-0001.json.pending",
        home / "graph" / f".graph.json.{'a' * 16}.{'b' * 16}.nuggets-swap",
        home / "graph" / f".graph.json.{'c' * 16}.{'d' * 16}.nuggets-part",
        home / "memory" / f".MEMORY.md.{'a' * 16}.{'b' * 16}.nuggets-swap",
        journal / ".x.json.pending.0123456789ab.nuggets-tmp",
    ]
    for path in planted:
        os.mkfifo(path)
    (journal / ".20261101T090000Z-0002.json.pending").mkdir()
    shown = nuggets(home, "notes")
    assert shown.returncode == 0, shown.stderr
    assert "deploy steps" in shown.stdout
    for path in planted:
        assert path.name in shown.stderr
    applied = nuggets(home, "reflect", "--all", "--apply")
    assert applied.returncode == 0 and "Applied as run" in applied.stdout, applied.stderr
    assert nuggets(home, "promote", "--apply").returncode == 0
    assert nuggets(home, "log").stdout.count("reflect") == 1
    assert all(path.exists() for path in planted)  # not ours: left where they are
    record("special files tried", len(planted) + 1)


def test_a_special_journal_entry_is_skipped_and_named(home: Path) -> None:
    assert nuggets(home, "reflect", "--all", "--apply").returncode == 0
    pipe = home / "reflections" / "20261101T000000Z-0007.json"
    os.mkfifo(pipe)
    logged = nuggets(home, "log")
    assert logged.returncode == 0 and logged.stdout.count("reflect") == 1
    assert pipe.name in logged.stderr and "named pipe" in logged.stderr
    assert nuggets(home, "daily").returncode == 0
    record("special files tried")


def test_a_pipe_as_the_lock_file_is_one_line_error(home: Path) -> None:
    os.mkfifo(home / "graph" / ".graph.lock")
    one_line_error(nuggets(home, "reflect", "--all", "--apply"), ".graph.lock", "named pipe")
    assert nuggets(home, "notes").returncode == 0
    record("special files tried")
