"""Atomic file replacement: temp file in the same directory, fsync, rename."""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path

from core.safeio import crashpoints
from core.safeio.private import FILE_MODE, FOLDER_MODE

TEMP_SUFFIX = ".nuggets-tmp"
NAME_MAX = 255  # bytes in one file name (Linux, macOS)
SIDE_ROOM = 64  # bytes the names of files made beside a file add to its name, at most


def side_name(name: str) -> str:
    """A file's name as the files made beside it (temporary, swap, kept copies) carry it:
    itself, or - when that would make their names too long - its head and a hash of it."""
    raw = os.fsencode(name)
    if len(raw) + SIDE_ROOM <= NAME_MAX:
        return name
    head = os.fsdecode(raw[: NAME_MAX - SIDE_ROOM - 13])
    return f"{head}~{hashlib.sha256(raw).hexdigest()[:12]}"


def write_file(path: Path | str, data: bytes, mode: int = 0o600) -> None:
    """Create `path` (which must not exist) holding `data`, flushed to disk.

    Written in two halves with a crash step between, so crash tests also see torn files.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        half = len(data) // 2
        _write_all(fd, data[:half])
        crashpoints.step("temp file half written")
        _write_all(fd, data[half:])
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def copy_owner_and_mode(
    source: Path, target: Path | str, directory: bool = False, private: bool = False
) -> None:
    """Give `target` the permissions (and, when we may, the owner) of `source`, if it exists.

    A `directory` gets the search bit wherever the file has the read bit (0600 -> 0700).
    `private`: only the owner is taken; the mode is 0600 (a directory 0700) whatever the
    source's (core/safeio/private.py)."""
    try:
        status = source.stat()
    except FileNotFoundError:
        return
    mode = status.st_mode & 0o7777
    if directory:
        mode |= 0o700 | (mode & 0o444) >> 2
    if private:
        mode = FOLDER_MODE if directory else FILE_MODE
    os.chmod(target, mode)
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(target, status.st_uid, status.st_gid)


def atomic_write(path: Path, data: bytes, like: Path | None = None, private: bool = False) -> None:
    """Replace `path` with `data` so a reader sees the old file or the new one, never a mix.

    A symlinked path is written through to its target, so the link survives. The new file
    takes the mode and owner of the file it replaces, or of `like`; `private` (a file of ours,
    core/safeio/private.py): their owner, and mode 0600 whatever theirs.
    """
    target = Path(os.path.realpath(path))
    directory = target.parent
    tmp_name = directory / f".{side_name(target.name)}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    try:
        write_file(tmp_name, data, 0o644 if like is None and not private else FILE_MODE)
        copy_owner_and_mode(like or target, tmp_name, private=private)
        crashpoints.step("temp file written")
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    crashpoints.step("file renamed into place")
    fsync_directory(directory)


def fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
