"""Atomic file replacement: temp file in the same directory, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from . import crashpoints

TEMP_SUFFIX = ".nuggets-tmp"


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


def copy_owner_and_mode(source: Path, target: Path | str) -> None:
    """Give `target` the permissions (and, when we may, the owner) of `source`, if it exists."""
    try:
        status = source.stat()
    except FileNotFoundError:
        return
    os.chmod(target, status.st_mode & 0o7777)
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(target, status.st_uid, status.st_gid)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so a reader sees the old file or the new one, never a mix.

    A symlinked path is written through to its target, so the link survives.
    """
    target = Path(os.path.realpath(path))
    directory = target.parent
    tmp_name = directory / f".{target.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    try:
        write_file(tmp_name, data, 0o644)
        copy_owner_and_mode(target, tmp_name)
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
