"""Writing a file only over the version a plan was made from, and settling interrupted writes.

The agent rewrites graph.json (and may edit MEMORY.md) without locking. A check of the
fingerprint followed by a rename leaves a window; on Linux, renameat2(RENAME_EXCHANGE) swaps our
file in atomically, so the file we swapped out can be verified and, if it is not the plan's base,
swapped back. Our own processes (two consoles, a console and `nuggets daily`) take a lock file
beside the graph; a small file of ours that they all write (the review decisions) has a lock of
its own (`file_lock`).

While a write is under way our new version sits beside the file as
`.<name>.<base>.<result>.nuggets-swap` (fingerprint prefixes). After an exchange that file holds
what we swapped out, so a process killed at any step leaves enough on disk for `settle` to tell
whether the write landed, and to put back a version another program wrote in the window.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import os
import secrets
import stat
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from core.errors import (
    FileKindError,
    GraphError,
    NuggetsError,
    StalePlanError,
    UnsettledWriteError,
    reason_of,
)
from core.notes.snapshot import EMPTY_FINGERPRINT, current_fingerprint, fingerprint
from core.safeio import crashpoints
from core.safeio.atomic_write import (
    TEMP_SUFFIX,
    copy_owner_and_mode,
    fsync_directory,
    side_name,
    write_file,
)
from core.safeio.open_regular import GRAPH_BYTES, open_regular, read_regular, refusal
from core.safeio.private import FILE_MODE

_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP)
PART_SUFFIX = ".nuggets-part"
SWAP_SUFFIX = ".nuggets-swap"
_SIDE_SUFFIXES = (PART_SUFFIX, TEMP_SUFFIX, SWAP_SUFFIX)
KEY_LENGTH = 16
PUT_BACK_TRIES = 16
LOCK_NAME = ".graph.lock"
LOCK_TIMEOUT_SECONDS = 30.0


def _load_renameat2() -> Callable[..., int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


_renameat2 = _load_renameat2()


def _renameat2_call(a: Path, b: Path, flags: int) -> bool:
    """renameat2(a, b, flags); False when the system can't do it."""
    if _renameat2 is None:
        return False
    if _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(b))


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False when the system can't."""
    return _renameat2_call(a, b, _RENAME_EXCHANGE)


def rename_no_replace(source: Path, target: Path) -> None:
    """Move `source` to `target`, failing with FileExistsError if `target` exists."""
    if _renameat2_call(source, target, _RENAME_NOREPLACE):
        return
    os.link(source, target)  # the portable way: link() never replaces
    os.unlink(source)


# -- our own processes --------------------------------------------------------------------------


@dataclass
class _HeldLock:
    guard: threading.RLock
    depth: int = 0
    fd: int = -1


_held: dict[str, _HeldLock] = {}
_held_guard = threading.Lock()


@contextlib.contextmanager
def graph_lock(graph: Path) -> Iterator[None]:
    """Serialize our own writers with an advisory lock file beside the graph.

    Re-entrant within a thread; other threads of this process and other processes wait.
    """
    with _locked(Path(os.path.abspath(graph.parent)), LOCK_NAME):
        yield


@contextlib.contextmanager
def directory_lock(path: Path) -> Iterator[None]:
    """Serialize our writers of a file outside the home (MEMORY.md, which several homes may
    promote to) by locking its directory itself: nothing is added to that directory."""
    with _locked(Path(os.path.abspath(path.parent)), None):
        yield


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Serialize our writers of one small file with a lock file of its own beside it
    (`.<name>.lock`), not the graph's: it is held for one read and one write, so a writer of
    that file never waits for a pass that holds the graph's lock for minutes."""
    with _locked(Path(os.path.abspath(path.parent)), f".{side_name(path.name)}.lock"):
        yield


@contextlib.contextmanager
def _locked(directory: Path, lock_name: str | None) -> Iterator[None]:
    """`lock_name`: the lock file in `directory`; None: the directory itself."""
    with _held_guard:
        key = f"{lock_name}:{directory}"
        held = _held.setdefault(key, _HeldLock(threading.RLock()))
    with held.guard:
        if held.depth == 0:
            held.fd = _take_lock(directory, lock_name)
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
            if held.depth == 0:
                os.close(held.fd)  # closing the descriptor releases the flock


def _take_lock(directory: Path, lock_name: str | None) -> int:
    try:
        if lock_name is not None:
            directory.mkdir(parents=True, exist_ok=True)
            fd = _open_lock_file(directory, lock_name)
        else:
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise GraphError(f"{directory}: cannot take the lock: {exc.strerror or exc}") from None
    deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise GraphError(
                    f"{directory}: another nuggets process has held the lock for "
                    f"{LOCK_TIMEOUT_SECONDS:.0f} s; try again when it has finished"
                ) from None
            time.sleep(0.02)


def _open_lock_file(directory: Path, name: str) -> int:
    try:
        return open_regular(directory / name, None, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
    # A read-only directory: lock the directory itself; a write there will fail anyway.
    return os.open(directory, os.O_RDONLY | os.O_DIRECTORY)


# -- the guarded replace --------------------------------------------------------------------------


def _side_prefix(target: Path) -> str:
    """How the names of a write's side files begin: `.<name>.`"""
    return f".{side_name(target.name)}."


def _side_paths(target: Path, base: str, result: str) -> tuple[Path, Path]:
    key = f"{_side_prefix(target)}{base[:KEY_LENGTH]}.{result[:KEY_LENGTH]}"
    return (target.with_name(key + PART_SUFFIX), target.with_name(key + SWAP_SUFFIX))


def _side_files(target: Path, suffix: str) -> list[Path]:
    """The side files of writes of `target` with this suffix (matched by name, not glob: the
    file's name may hold glob's special characters)."""
    prefix = _side_prefix(target)
    return sorted(
        p for p in target.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(suffix)
    )


def with_leftovers(paths: Iterable[Path]) -> list[Path]:
    """Those of `paths` (through a symlink: of its target) that interrupted writes left files
    beside, in their order; each folder is listed once, however many of its files are asked
    about."""
    asked = list(paths)
    by_folder: dict[Path, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for number, path in enumerate(asked):
        target = Path(os.path.realpath(path))
        by_folder[target.parent][_side_prefix(target)].append(number)
    hit: set[int] = set()
    for folder, prefixes in by_folder.items():
        try:
            names = [e.name for e in os.scandir(folder)] if folder.is_dir() else []
        except OSError as exc:
            raise GraphError(f"{folder}: cannot be searched: {exc.strerror or exc}") from None
        for name in names:
            if name.startswith(".") and name.endswith(_SIDE_SUFFIXES):
                for end in _dots(name):  # the side prefix ends at one of the name's dots
                    hit.update(prefixes.get(name[: end + 1], ()))
    return [path for number, path in enumerate(asked) if number in hit]


def _dots(name: str) -> Iterator[int]:
    at = name.find(".", 1)
    while at != -1:
        yield at
        at = name.find(".", at + 1)


def _side_fingerprint(swap: Path) -> str:
    """The fingerprint of a side file's bytes (refused unless a regular file: see open_regular)."""
    return fingerprint(read_regular(swap, GRAPH_BYTES))


def _remove(*paths: Path) -> None:
    """Best effort, on the way out of a failed write: the failure is what gets reported."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def _stale(path: Path) -> StalePlanError:
    return StalePlanError(f"stale plan: {path} changed since the plan was made; plan again")


def _cannot_write(path: Path, exc: OSError) -> GraphError:
    return GraphError(f"{path}: cannot be written: {exc.strerror or exc}")


def replace_if_unchanged(
    path: Path,
    data: bytes,
    base: str,
    on_landed: Callable[[], None] | None = None,
    notices: list[str] | None = None,
) -> str:
    """Replace the file with `data` only if its bytes still have fingerprint `base`.

    `on_landed` runs once the new version is in place and verified, before the old version is
    let go (the journal commits there); `notices` collects what a person should be told (a
    version kept beside the file). Returns the new fingerprint. StalePlanError or
    GraphError mean nothing landed and nothing is left behind; UnsettledWriteError means the
    outcome is left on disk for `settle`.
    """
    target = Path(os.path.realpath(path))
    result = fingerprint(data)
    part, swap = _side_paths(target, base, result)
    try:
        write_file(part, data)
        copy_owner_and_mode(target, part)
        crashpoints.step("new version written beside the file")
        os.rename(part, swap)
        crashpoints.step("new version ready")
    except OSError as exc:
        _remove(part, swap)
        raise _cannot_write(path, exc) from None
    try:
        unchanged = current_fingerprint(target) == base
    except GraphError:
        _remove(swap)
        raise
    if not unchanged:
        _remove(swap)
        raise _stale(path)
    crashpoints.step("base checked")
    if _install(path, target, swap, base):
        _verify(path, target, swap, base, result, notices)
    fsync_directory(target.parent)
    crashpoints.step("new version in place")
    if on_landed is not None:
        on_landed()
        crashpoints.step("landing recorded")
    _remove(swap)
    return result


def remove_if_unchanged(path: Path, base: str, on_landed: Callable[[], None] | None = None) -> None:
    """Remove the file only if its bytes still have fingerprint `base` (undo of the write that
    created it). It is moved aside as the swap of a write of "absent" over `base`, so `settle`
    and `swap_outcome` read an interruption like any other write's; what was moved aside is
    verified, and another program's version put back."""
    target = Path(os.path.realpath(path))
    swap = _side_paths(target, base, EMPTY_FINGERPRINT)[1]
    if current_fingerprint(target) != base:
        raise _stale(path)
    try:
        os.rename(target, swap)
    except FileNotFoundError:
        raise _stale(path) from None
    except OSError as exc:
        raise _cannot_write(path, exc) from None
    crashpoints.step("file moved aside")
    try:
        if fingerprint(swap.read_bytes()) != base:  # written in the window: put it back
            try:
                rename_no_replace(swap, target)
            except FileExistsError:
                _keep(target, swap)
            raise _stale(path)
    except OSError as exc:
        raise UnsettledWriteError(
            f"{path}: interrupted while checking the removal ({exc.strerror or exc}); "
            "it is settled the next time the memory is opened"
        ) from None
    fsync_directory(target.parent)
    if on_landed is not None:
        on_landed()
        crashpoints.step("landing recorded")
    _remove(swap)


def _install(path: Path, target: Path, swap: Path, base: str) -> bool:
    """Put `swap` in place of `target`; True when it was an exchange that needs verifying."""
    try:
        if base == EMPTY_FINGERPRINT:
            rename_no_replace(swap, target)
            return False
        if exchange(swap, target):
            return True
        os.replace(swap, target)  # no exchange on this system: the check above is our guard
        return False
    except FileExistsError:
        _remove(swap)
        raise _stale(path) from None
    except FileNotFoundError:
        _remove(swap)
        raise _stale(path) from None
    except OSError as exc:
        _remove(swap)
        raise _cannot_write(path, exc) from None


def _verify(
    path: Path, target: Path, swap: Path, base: str, result: str, notices: list[str] | None
) -> None:
    """After an exchange `swap` holds what was in place: the base, or another writer's version."""
    crashpoints.step("swapped in")
    try:
        displaced = _side_fingerprint(swap)
        if displaced == base:
            return
        settled, kept = _put_back(target, swap, result)
    except (OSError, NuggetsError) as exc:
        reason = reason_of(exc)
        raise UnsettledWriteError(
            f"{path}: interrupted while checking the write ({reason}); "
            "it is settled the next time the memory is opened"
        ) from None
    if kept is not None and notices is not None:
        notices.append(_kept_message(path, kept, settled))
    if settled and kept is None:
        _remove(swap)
    raise _stale(path)


def _kept_message(path: Path, kept: Path, settled: bool) -> str:
    if settled:
        return (
            f"another program wrote {path} twice while we put its first version back; "
            f"the newer is in place and the earlier is kept as {kept}"
        )
    return (
        f"{path} kept changing while we put another program's version back; the version "
        f"we could not place is kept as {kept}"
    )


def _put_back(target: Path, swap: Path, expected: str) -> tuple[bool, Path | None]:
    """Exchange again until what comes out is what we had put in (nothing came between).

    Each exchange puts back the version we hold; if what comes out is not the one we expected,
    another writer wrote it meanwhile, so that newer version is the next to put back. Returns
    whether that settled, and where a version not in place is kept: one the writer may have
    meant to build on (it read ours meanwhile), or the one we could not place.
    """
    holding = _side_fingerprint(swap)
    for attempt in range(PUT_BACK_TRIES):
        if not exchange(swap, target):
            break
        crashpoints.step("exchanged back")
        got = _side_fingerprint(swap)
        if got.startswith(expected):
            return True, (_keep(target, swap) if attempt > 0 else None)
        expected, holding = holding, got
    return False, _keep(target, swap)


def _keep(target: Path, swap: Path) -> Path:
    kept = target.with_name(
        f"{side_name(target.name)}.kept-{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(2)}"
    )
    os.rename(swap, kept)
    return kept


# -- settling what an interrupted write left --------------------------------------------------


def swap_outcome(path: Path, base: str, result: str) -> str | None:
    """What a write of `result` over `base` left beside the file: None when nothing,
    "landed" when the base was swapped out, "not landed" when our version or another
    program's is there."""
    target = Path(os.path.realpath(path))
    swap = _side_paths(target, base, result)[1]
    try:
        held = _side_fingerprint(swap)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise GraphError(f"{swap}: cannot be read: {exc.strerror or exc}") from None
    return "landed" if held == base else "not landed"


def settle(path: Path) -> list[str]:
    """Clean up after interrupted writes of `path` (call under the lock); says what it did.

    A side file that cannot be settled (not a regular file, unreadable) is left as it is and
    named: it is never one of our copies half-handled, and it must not stop every command."""
    target = Path(os.path.realpath(path))
    if not target.parent.is_dir():
        return []
    try:
        parts = _side_files(target, PART_SUFFIX) + _side_files(target, TEMP_SUFFIX)
        swaps = _side_files(target, SWAP_SUFFIX)
    except OSError as exc:
        raise GraphError(f"{target.parent}: cannot be searched: {exc.strerror or exc}") from None
    messages = [_settling(part, partial(_remove_part, part)) for part in parts]
    messages += [_settling(swap, partial(_settle_swap, path, target, swap)) for swap in swaps]
    return messages


def _settling(leftover: Path, action: Callable[[], str]) -> str:
    try:
        return action()
    except FileKindError as exc:
        return f"left {leftover.name} as it is: {exc}"
    except (OSError, NuggetsError) as exc:
        reason = reason_of(exc)
        return f"left {leftover} as it is: it cannot be settled ({reason})"


def _remove_part(part: Path) -> str:
    if not stat.S_ISREG(part.lstat().st_mode):
        raise FileKindError(refusal(part, part.lstat(), None) or str(part))
    part.unlink()
    return f"removed {part.name}, an unfinished copy from an interrupted write"


def _settle_swap(path: Path, target: Path, swap: Path) -> str:
    key = swap.name[len(_side_prefix(target)) : -len(SWAP_SUFFIX)]
    base_key, _, result_key = key.partition(".")
    held = _side_fingerprint(swap)
    if held.startswith((base_key, result_key)):
        swap.unlink()
        return f"removed {swap.name}, a spare copy from an interrupted write"
    # Another program's version, swapped out by a write that was cut off before putting it back.
    if current_fingerprint(target).startswith(result_key):
        settled, kept = _put_back(target, swap, result_key)
        if kept is not None:
            return _kept_message(path, kept, settled)
        swap.unlink(missing_ok=True)
        return (
            f"put back the version of {path} another program wrote while one of our "
            "writes was interrupted"
        )
    kept = _keep(target, swap)
    return (
        f"kept a version of {path} another program wrote during an interrupted write as "
        f"{kept}; compare it with {path.name}"
    )


def file_landed(path: Path, base: str, result: str) -> bool | None:
    """Whether a run that replaced the version `base` of a file with `result` landed: from what
    its write left beside the file, else the file's bytes (None: changed since by another
    program, so it cannot be told)."""
    outcome = swap_outcome(path, base, result)
    if outcome is not None:
        return outcome == "landed"
    now = current_fingerprint(path)
    if now == result:
        return True
    return False if now == base else None
