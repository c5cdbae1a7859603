"""Writing the graph only over the version a plan was made from.

The agent rewrites graph.json without locking. A check of the fingerprint followed by a rename
leaves a window; on Linux, renameat2(RENAME_EXCHANGE) swaps our file in atomically, so the file
we swapped out can be verified and, if it is not the plan's base, swapped back. Our own processes
(two consoles, a console and `nuggets daily`) take a lock file beside the graph.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import GraphError, StalePlanError
from .store import EMPTY_FINGERPRINT, current_fingerprint, fingerprint

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _load_renameat2():  # type: ignore[no-untyped-def]
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


_renameat2 = _load_renameat2()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False when the system can't."""
    if _renameat2 is None:
        return False
    result = _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
        return False
    raise OSError(errno, os.strerror(errno))


@contextlib.contextmanager
def graph_lock(graph: Path) -> Iterator[None]:
    """Serialize our own writers with an advisory lock file beside the graph."""
    graph.parent.mkdir(parents=True, exist_ok=True)
    lock_path = graph.parent / ".graph.lock"
    with open(lock_path, "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _stale(path: Path) -> StalePlanError:
    return StalePlanError(f"stale plan: {path} changed since the plan was made; plan again")


def replace_if_unchanged(path: Path, data: bytes, base: str) -> str:
    """Replace the graph file with `data` only if its bytes still have fingerprint `base`."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        if current_fingerprint(target) != base:
            raise _stale(path)
        if base != EMPTY_FINGERPRINT and _exchange(tmp, target):
            if fingerprint(tmp.read_bytes()) != base:
                _exchange(tmp, target)
                raise _stale(path)
        else:
            os.replace(tmp, target)
        _fsync_dir(target.parent)
    except OSError as exc:
        raise GraphError(f"{path}: cannot be written: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return fingerprint(data)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
