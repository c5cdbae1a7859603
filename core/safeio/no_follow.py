"""Writing files of ours into a folder another user may own, never through a link.

The run log goes under the memory's own folder by default (`<home>/telemetry`; for MicroClaw
`<data dir>/runtime/nuggets-review/telemetry`, inside the bot's data dir), and the operator may
run the tool as root. Whoever owns such a folder must not be able to choose which file we write:
a symbolic link planted at a file's name or in place of a folder below the one named, or a hard
link to another file, would let them. So (docs/RUNS.md, "The run log"):

- the folder is opened one component at a time from the one the operator named, each made when
  missing and never followed (O_NOFOLLOW), and kept open: every file is then opened or renamed
  relative to that descriptor, so a path swapped afterwards changes nothing;
- a file is appended to only when it is a regular file with one link, opened without following
  a link and non-blocking (a named pipe cannot hang us), checked again on the opened descriptor;
- a file is replaced by a rename, which replaces the name and never writes through what stood
  there, and only when what stands there is a regular file or nothing.

Anything else is a FileKindError naming it; nothing is written to it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from core.errors import FileKindError
from core.safeio import crashpoints
from core.safeio.atomic_write import TEMP_SUFFIX, side_name
from core.safeio.open_regular import kind_name
from core.safeio.private import FILE_MODE, FOLDER_MODE, make_folder

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMP = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
LOCK_SECONDS = 5.0  # a holder of the folder's lock is waited for this long, no longer


def problem(
    path: Path, status: os.stat_result | None, directory: bool = False, appended: bool = False
) -> str | None:
    """Why we may not write at `path`, whose lstat is `status` (None: nothing there yet)."""
    if status is None:
        return None
    mode = status.st_mode
    if stat.S_ISLNK(mode):
        return f"{path}: is a symbolic link; nuggets never writes through one"
    if directory:
        return None if stat.S_ISDIR(mode) else f"{path}: is {kind_name(mode)}, not a directory"
    if not stat.S_ISREG(mode):
        return (
            f"{path}: is {kind_name(mode)}, not a regular file; nuggets writes only regular files"
        )
    if appended and status.st_nlink > 1:
        return (
            f"{path}: has {status.st_nlink} hard links; nuggets never appends to a file "
            "linked elsewhere"
        )
    return None


def _refuse(reason: str | None) -> None:
    if reason is not None:
        raise FileKindError(reason)


def _lstat(name: str, directory: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=directory, follow_symlinks=False)
    except FileNotFoundError:
        return None


def open_directory(base: Path, below: Sequence[str]) -> int:
    """A descriptor of the folder `base`/`below`...: `base` as the operator named it (made when
    missing), then each folder of `below`, made when missing and never followed. What is made
    is private (0700); the last folder of `below`, ours, is tightened when an older version
    made it wider (core/safeio/private.py)."""
    if not os.path.lexists(base):  # the operator's folder, when it is there, keeps its mode
        make_folder(base)
    fd = os.open(base, _DIRECTORY)
    shown = base
    try:
        for name in below:
            shown = shown / name
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, FOLDER_MODE, dir_fd=fd)
            _refuse(problem(shown, _lstat(name, fd), directory=True))
            child = os.open(name, _DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = child
        if below:
            _private(fd, os.fstat(fd).st_mode & 0o700 | FOLDER_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def append(directory: int, name: str, data: bytes, shown: Path) -> None:
    """Append `data` to the file `name` (made when missing) with one write, so the lines of
    concurrent runs never interleave."""
    _refuse(problem(shown, _lstat(name, directory), appended=True))
    fd = os.open(name, _APPEND, FILE_MODE, dir_fd=directory)
    try:
        status = os.fstat(fd)
        _refuse(problem(shown, status, appended=True))  # swapped in since the lstat
        if status.st_uid == os.geteuid():  # ours; one another user owns keeps its mode
            _private(fd, status.st_mode & FILE_MODE)
        os.write(fd, data)
    finally:
        os.close(fd)


def replace(directory: int, name: str, data: bytes, shown: Path) -> None:
    """Replace the file `name` (or make it) with `data`: a temporary file beside it, fsync,
    rename. It is private (0600) and, run as root, keeps the owner of the file it replaces."""
    existing = _lstat(name, directory)
    _refuse(problem(shown, existing))
    temp = f".{side_name(name)}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    fd = os.open(temp, _TEMP, FILE_MODE, dir_fd=directory)
    try:
        try:
            if existing is not None:
                _take_after(fd, existing)
            _write_all(fd, data)
            crashpoints.step("run log temp file written")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=directory)
        raise
    crashpoints.step("run log file renamed into place")
    with contextlib.suppress(OSError):
        os.fsync(directory)


def _private(fd: int, mode: int) -> None:
    """Tighten what fd is open on to `mode` when it is wider (best effort)."""
    with contextlib.suppress(OSError):
        if os.fstat(fd).st_mode & 0o7777 != mode:
            os.fchmod(fd, mode)


def _take_after(fd: int, existing: os.stat_result) -> None:
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.fchown(fd, existing.st_uid, existing.st_gid)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def temp_names(names: Iterable[str], name: str) -> list[str]:
    """The names among `names` that our replacing of `name` gives its temporary files."""
    prefix = f".{side_name(name)}."
    return sorted(n for n in names if n.startswith(prefix) and n.endswith(TEMP_SUFFIX))


def remove_temp_files(directory: int, name: str) -> list[str]:
    """Remove the temporary files an interrupted replacing of `name` left (call it holding
    `locked`, so no other writer's file is taken for one); says what it did. One that is not a
    regular file was never ours: it is named and left."""
    messages = []
    for leftover in temp_names(os.listdir(directory), name):
        status = _lstat(leftover, directory)
        if status is None:
            continue
        if not stat.S_ISREG(status.st_mode):
            messages.append(
                f"left {leftover} as it is: it is {kind_name(status.st_mode)}, so not ours"
            )
            continue
        try:
            os.unlink(leftover, dir_fd=directory)
        except FileNotFoundError:
            continue
        except OSError as exc:
            messages.append(
                f"left {leftover} as it is: it cannot be removed ({exc.strerror or exc})"
            )
            continue
        messages.append(
            f"removed {leftover}, an unfinished copy of {name} from an interrupted write"
        )
    return messages


@contextlib.contextmanager
def locked(directory: int, seconds: float | None = None) -> Iterator[bool]:
    """Our writers' turn on the folder (a flock on the folder itself: nothing is added to it).
    Yields whether the turn came within `seconds` (LOCK_SECONDS); a holder that never lets go
    is not waited for longer."""
    deadline = time.monotonic() + (LOCK_SECONDS if seconds is None else seconds)
    while True:
        try:
            fcntl.flock(directory, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                yield False
                return
            time.sleep(0.02)
        except OSError:  # a file system without locks: write, but settle nothing
            yield False
            return
    try:
        yield True
    finally:
        fcntl.flock(directory, fcntl.LOCK_UN)
