"""The copy a preview of the purifier's run runs on (docs/PURIFIER.md, "Preview"): nothing in it
is shared with the real workspace or config. Only what the purifier's run reads is copied — the
workspace's top-level `*.md` files, `episodes/` and `runtime/` (without its `.staging-purifier/`)
— as regular files with their mtimes (the purifier stamps claims with its sources' mtimes and
judges its lock by its age). A symbolic link, a FIFO, a socket or a device is refused by name, so
is a file or a copy above its bound (judged by apparent size: a sparse file counts whole). The
purifier's config is copied with its downstream trigger off and its paths in the copy."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import NuggetsError
from core.safeio.json_read import loads
from core.stores.purifier import paths

FOLDERS = ("episodes", "runtime")  # the folders its run reads; the rest of the top level: *.md
NOT_COPIED = (".staging-purifier",)  # leftovers of its crashed runs, never read
FILE_BYTES = 64 * 1024 * 1024
TREE_BYTES = 256 * 1024 * 1024


class PreviewRefused(NuggetsError):
    """The workspace cannot be copied safely for a preview; nothing was run."""


@dataclass(frozen=True)
class Sandbox:
    """Where the preview's run reads and writes, all under one temporary folder."""

    workspace: Path
    config: Path
    telemetry: Path


def to_copy(workspace: Path) -> list[tuple[Path, os.stat_result]]:
    """Each file to copy (relative) with its stat, checked before anything is written."""
    found: list[tuple[Path, os.stat_result]] = []
    for entry in sorted(_entries(workspace)):
        _walk(workspace, Path(entry), found)
    total = sum(info.st_size for _, info in found)
    if total > TREE_BYTES:
        raise PreviewRefused(
            f"{workspace}: {_size(total)} to copy for the preview, more than "
            f"its {_size(TREE_BYTES)} bound (nothing was run)"
        )
    return found


def _entries(folder: Path, all_of_it: bool = False) -> list[str]:
    """A folder's names: all of them, or those of the workspace's top level its run reads."""
    try:
        names = os.listdir(folder)
    except OSError as exc:
        raise PreviewRefused(
            f"{folder}: cannot be read for the preview ({exc.strerror or exc}; nothing was run)"
        ) from None
    return names if all_of_it else [n for n in names if n in FOLDERS or n.endswith(".md")]


def _walk(workspace: Path, rel: Path, found: list[tuple[Path, os.stat_result]]) -> None:
    path = workspace / rel
    try:
        info = path.lstat()
    except OSError as exc:
        raise PreviewRefused(
            f"{path}: cannot be read for the preview ({exc.strerror or exc}; nothing was run)"
        ) from None
    if stat.S_ISDIR(info.st_mode) and (len(rel.parts) > 1 or rel.name in FOLDERS):
        for name in sorted(_entries(path, all_of_it=True)):
            if name not in NOT_COPIED:
                _walk(workspace, rel / name, found)
        return
    if not stat.S_ISREG(info.st_mode):
        raise PreviewRefused(
            f"{path}: {_kind(info.st_mode)}; the preview copies regular files "
            "only, so the purifier's run on the copy cannot reach past it "
            "(nothing was run)"
        )
    if info.st_size > FILE_BYTES:
        raise PreviewRefused(
            f"{path}: {_size(info.st_size)}, more than the preview copies of "
            f"one file ({_size(FILE_BYTES)}; nothing was run)"
        )
    found.append((rel, info))


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a folder" if stat.S_ISDIR(mode) else "not a regular file"


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.1f} MB" if count >= 1024 * 1024 else f"{count} bytes"


def make(workspace: Path, config: Path | None, temp: Path) -> Sandbox:
    """Copy the workspace and the config into `temp` (which only we can enter)."""
    files = to_copy(workspace)
    base = temp / "openclaw"
    box = Sandbox(
        base / workspace.name, base / "memory-purifier" / "memory-purifier.json", base / "telemetry"
    )
    settings = copied_config(config, box)
    try:
        for rel, info in files:
            _copy(workspace / rel, box.workspace / rel, info)
        box.config.parent.mkdir(parents=True)
        box.config.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        box.telemetry.mkdir()
    except OSError as exc:
        where = exc.filename or temp
        if exc.errno == errno.ENOSPC:
            raise PreviewRefused(
                f"{where}: no space left for the preview's copy of the workspace (nothing was run)"
            ) from None
        raise PreviewRefused(
            f"{where}: the preview's copy failed ({exc.strerror or exc}; nothing was run)"
        ) from None
    return box


def _copy(source: Path, target: Path, info: os.stat_result) -> None:
    """A regular file's bytes and mtime; the file is opened without following a link."""
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    handle = os.open(source, flags)
    with os.fdopen(handle, "rb") as reading, open(target, "xb") as writing:
        if not stat.S_ISREG(os.fstat(reading.fileno()).st_mode):
            raise PreviewRefused(
                f"{source}: changed into something other than a regular "
                "file while the preview copied it (nothing was run)"
            )
        shutil.copyfileobj(reading, writing, 1024 * 1024)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


def copied_config(config: Path | None, box: Sandbox) -> dict[str, Any]:
    """The real config's settings with its side effects off: no downstream trigger, and every
    path it names in the copy."""
    if config is None and paths.CONFIG.expanduser().is_file():
        config = paths.CONFIG.expanduser()  # what its run reads when it is handed none
    settings = _read_config(config) if config is not None else {}
    downstream = settings.get("downstream")
    settings["downstream"] = {
        **(downstream if isinstance(downstream, dict) else {}),
        "wiki_trigger_command": None,
    }
    named = settings.get("paths")
    own = {
        "workspace": box.workspace,
        "runtime_dir": paths.runtime_dir(box.workspace),
        "telemetry_root": box.telemetry / "memory-purifier",
        "config_root": box.config.parent.parent,
    }
    if isinstance(named, dict):
        own.update({key: box.config.parent / "paths" / key for key in named if key not in own})
    settings["paths"] = {key: str(value) for key, value in own.items()}
    return settings


def _read_config(config: Path) -> dict[str, Any]:
    try:
        with config.open("rb") as handle:
            data = loads(handle.read(paths.CONFIG_BYTES + 1))
    except (OSError, ValueError) as exc:
        raise PreviewRefused(
            f"{config}: the purifier's config cannot be read for the preview "
            f"({exc}; nothing was run)"
        ) from None
    if not isinstance(data, dict):
        raise PreviewRefused(
            f"{config}: the purifier's config is not a JSON object (nothing was run)"
        )
    return data
