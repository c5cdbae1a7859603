"""The console run for real: `nuggets` in a child process on a pseudo-terminal (140x40), as a
person starts it, so a test sees the exit status and everything it wrote to the terminal.

`prelude` is Python run in the child before the command line (to make a store fail, say);
`quit_keys` are typed again and again until the console ends (none: it has to end by itself).
A console that has not ended after `deadline` seconds is killed and the test fails."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass

from tests.support.paths import REPO

ROWS, COLUMNS = 40, 140
DEADLINE = 90.0
_CHILD = """
import sys
{prelude}
from nuggets_tui.cli import main
sys.exit(main.main(args={args!r}, prog_name="nuggets"))
"""


@dataclass(frozen=True)
class Ended:
    status: int
    screen: str  # every byte the console wrote, escapes and all, as text


def run_console(
    args: list[str],
    env: Mapping[str, str],
    prelude: str = "",
    quit_keys: bytes = b"",
    deadline: float = DEADLINE,
) -> Ended:
    master, child_side = pty.openpty()
    fcntl.ioctl(child_side, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    script = _CHILD.format(prelude=prelude, args=args)
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=child_side,
        stdout=child_side,
        stderr=child_side,
        cwd=REPO,
        env={**os.environ, "TERM": "xterm-256color", **env},
        start_new_session=True,
    )
    os.close(child_side)
    try:
        written = _read_until_it_ends(master, child, quit_keys, time.monotonic() + deadline)
    finally:
        os.close(master)
        if child.poll() is None:
            child.kill()
    status = child.wait()
    return Ended(status, written.decode("utf-8", "replace"))


def _read_until_it_ends(
    master: int, child: subprocess.Popen[bytes], quit_keys: bytes, deadline: float
) -> bytes:
    written = b""
    next_keys = time.monotonic()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        chunk = _read(master) if ready else b""
        written += chunk
        if ready and not chunk:
            return written  # the child closed the terminal: it has ended
        if child.poll() is not None and not ready:
            return written
        if quit_keys and time.monotonic() >= next_keys:
            os.write(master, quit_keys)
            next_keys = time.monotonic() + 1.0
    raise AssertionError(f"the console did not end within the deadline:\n{written[-2000:]!r}")


def _read(master: int) -> bytes:
    try:
        return os.read(master, 1 << 16)
    except OSError:  # EIO: the child side is closed
        return b""
