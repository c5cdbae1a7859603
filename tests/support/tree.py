"""What a folder holds, for tests that check a command left it byte for byte."""

from __future__ import annotations

import hashlib
from pathlib import Path


def hashes(root: Path) -> dict[str, str]:
    """Every file's hash and every folder, so that a new empty folder counts too."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file()
        else "folder"
        for p in sorted(root.rglob("*"))
    }
