"""Promotion writes a scope's file only inside the scope's own folder, never through a link.

A file an agent loads into every prompt sits in a folder another program may own (the bot's
data dir, the agent's project memory). A link planted there as `AGENTS.md -> ~/.bashrc`, or a
chat's folder linked elsewhere, would make promotion append to that file. So every component
from the scope's folder down to the file is looked at without following links (lstat): a link,
a component that is not a directory, or a path leading out of the folder refuses that scope.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from core.errors import NuggetsError


class PromotionRefused(NuggetsError):
    """A scope's file may not be written (one line naming the scope); other scopes go on."""


def unsafe_component(folder: Path, target: Path) -> str | None:
    """Why `target` may not be written as a file of the scope kept in `folder`, or None. A
    component that does not exist yet ends the walk: nothing is there to follow."""
    base = Path(os.path.abspath(folder))
    path = Path(os.path.abspath(target))  # ".." resolved by name, as a write would not
    try:
        parts = path.relative_to(base).parts
    except ValueError:
        return f"{target} is outside {folder}"
    if not parts:
        return f"{target} is the folder itself"
    current = base
    for depth, part in enumerate(parts, start=1):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{current} cannot be looked at ({exc.strerror or exc})"
        if stat.S_ISLNK(mode):
            return f"{current} is a symbolic link"
        if depth < len(parts) and not stat.S_ISDIR(mode):
            return f"{current} is not a directory"
    return None


def refusal(scope: str, folder: Path, target: Path) -> str | None:
    """The one line that refuses the scope, or None when its file may be written."""
    why = unsafe_component(folder, target)
    if why is None:
        return None
    return (
        f"promotion to {scope} refused: {why}; promotion never writes through a link or "
        "outside the scope's folder, so nothing was written there"
    )
