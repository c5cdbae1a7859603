"""Opening a file only when it is a regular file of bounded size: the one way the engine opens
a file it reads (the graph, journal entries, leftovers of a write, MEMORY.md, the lock file).

Anything else found at such a path is refused with one line naming it, before a byte is read:
a named pipe (a plain open blocks until some writer comes; a read never ends), a device
(/dev/zero never ends), a directory, a socket. The open is non-blocking, so a pipe cannot hang
it, and the check is made on the opened descriptor (fstat), so a path swapped between a check
and the open cannot slip past it. A size bound keeps a runaway file from taking all memory.
"""

from __future__ import annotations

import os
import stat

from core.errors import FileKindError

# An uncapped graph is ~1.5 KB a note: 150 MB at 100k notes. A journal entry holds two images
# of every note a run changed. MEMORY.md is read by an agent at every start: a few KB to MB.
GRAPH_BYTES = 2 << 30
JOURNAL_BYTES = 2 * GRAPH_BYTES
MEMORY_MD_BYTES = 16 << 20

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _size(count: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
            return f"{count:,} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024
    return ""  # unreachable


def kind_name(mode: int) -> str:
    """What a file of this mode is, in words ("a named pipe (FIFO)")."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def refusal(path: os.PathLike[str] | str, status: os.stat_result, limit: int | None) -> str | None:
    """Why a file with this status may not be read (None: it may)."""
    mode = status.st_mode
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        return f"{path}: is {kind}, not a regular file; nuggets opens only regular files"
    if limit is not None and status.st_size > limit:
        return (
            f"{path}: is {_size(status.st_size)}, more than the {_size(limit)} nuggets "
            "reads from such a file"
        )
    return None


def open_regular(
    path: os.PathLike[str] | str,
    limit: int | None,
    flags: int = os.O_RDONLY,
    mode: int = 0o600,
) -> int:
    """A descriptor of `path` when it is a regular file of at most `limit` bytes (None: any);
    FileKindError otherwise. OSError (FileNotFoundError, no permission) passes through."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        problem = refusal(path, os.fstat(fd), limit)
    except BaseException:
        os.close(fd)
        raise
    if problem is not None:
        os.close(fd)
        raise FileKindError(problem)
    return fd


def read_regular(path: os.PathLike[str] | str, limit: int, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (see open_regular), read once;
    `follow` False: a symbolic link at `path` is refused (OSError), never read through.

    A file that grows past the bound while it is read is refused too."""
    fd = open_regular(path, limit, os.O_RDONLY if follow else os.O_RDONLY | os.O_NOFOLLOW)
    try:
        chunks: list[bytes] = []
        total, want = 0, os.fstat(fd).st_size + 1  # one read when the size holds still
        while True:
            chunk = os.read(fd, min(want, limit + 1 - total, 1 << 30))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileKindError(
                    f"{path}: grew past the {_size(limit)} nuggets reads from "
                    "such a file while it was read"
                )
            want = 1 << 20
    finally:
        os.close(fd)
