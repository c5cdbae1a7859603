"""What we keep about a memory is private to the user who runs us (docs/RELIABILITY.md,
"What we keep is private"): journal entries, the record of what was seen, review decisions,
run logs. The memory may hold anything (a key pasted into a note, a private topic file), and
what we keep holds copies of it, so our files are made 0600 and our folders 0700, whatever the
umask and whatever mode the memory's own files have.

Folders and files of ours that an older version made wider are tightened on the next write,
quietly. Only our own: the memory's files (graph.json, MEMORY.md, topic files) keep their mode.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def make_folder(path: Path) -> None:
    """Make the folder of ours `path`, and its missing parents, 0700 (existing parents are left
    as they are); `path` itself, when it exists wider, is tightened."""
    missing = []
    current = Path(os.path.abspath(path))
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another writer
            os.mkdir(folder, FOLDER_MODE)
    tighten(path)


def tighten(path: Path) -> None:
    """Take the group's and others' access off a folder or regular file of ours, never through
    a symbolic link; best effort (a folder we cannot change is still written, when we may)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode) and mode & 0o077:
                os.fchmod(fd, mode & 0o700 | FOLDER_MODE)
            elif stat.S_ISREG(mode) and mode & 0o077:
                os.fchmod(fd, mode & FILE_MODE)
        finally:
            os.close(fd)
