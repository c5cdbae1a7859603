"""A file's stat, enough to notice that another process replaced or rewrote it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileStamp:
    mtime_ns: int
    size: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> FileStamp | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return cls(st.st_mtime_ns, st.st_size, st.st_ino)
