"""The journal of applied runs: one JSON file per run under <home>/reflections/."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from . import crashpoints
from .atomic import TEMP_SUFFIX, atomic_write
from .errors import JournalError
from .jsonnumbers import number_hooks
from .models import JournalEntry
from .store import json_bytes


def journal_dir(home: Path) -> Path:
    return home / "reflections"


def _entry_files(home: Path) -> list[Path]:
    directory = journal_dir(home)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("*.json") if not p.name.startswith("."))


def _read(path: Path) -> JournalEntry:
    try:
        return JournalEntry.model_validate(json.loads(path.read_bytes(), **number_hooks()))
    except (OSError, ValueError, ValidationError) as exc:
        reason = exc.__class__.__name__
        raise JournalError(f"{path}: not a readable journal entry ({reason})") from None


def read_entries(home: Path) -> list[JournalEntry]:
    """Every journal entry, newest first."""
    entries = [_read(p) for p in _entry_files(home)]
    return sorted(entries, key=lambda e: e.seq, reverse=True)


def read_entry(home: Path, run_id: str) -> JournalEntry:
    path = journal_dir(home) / f"{run_id}.json"
    if "/" in run_id or not path.is_file():
        known = ", ".join(e.run_id for e in read_entries(home)[:5]) or "none yet"
        raise JournalError(f"no run {run_id!r} in {journal_dir(home)} (latest: {known})")
    return _read(path)


PENDING_SUFFIX = ".pending"


def _seq_of(name: str) -> int:
    """The sequence number in a journal file name: 20261101T090000Z-0001.json -> 1."""
    stem = name.lstrip(".").split(".json")[0]
    tail = stem.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


def next_run_id(home: Path, at: str) -> tuple[int, str]:
    """A sequence number and a run id that sorts by time: 20261101T090000Z-0001.

    Taken from file names (committed and pending), so an unreadable entry cannot block a write
    and a pending entry's number is never reused.
    """
    directory = journal_dir(home)
    names = [p.name for p in directory.iterdir()] if directory.is_dir() else []
    seq = max((_seq_of(n) for n in names if n.endswith((".json", PENDING_SUFFIX))), default=0) + 1
    stamp = at.replace("-", "").replace(":", "").split(".")[0] + "Z"
    return seq, f"{stamp}-{seq:04d}"


def write_pending(home: Path, entry: JournalEntry) -> Path:
    """Write the entry beside the journal before the graph changes (write-ahead)."""
    directory = journal_dir(home)
    path = directory / f".{entry.run_id}.json{PENDING_SUFFIX}"
    data = dump_entry(entry)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        reason = exc.strerror or exc
        raise JournalError(f"{directory}: cannot write the journal: {reason}") from None
    crashpoints.step("journal entry pending")
    return path


def dump_entry(entry: JournalEntry) -> bytes:
    """Compact: an uncapped run at 100k notes journals 200k note images."""
    return json_bytes(entry.to_json_dict(), indent=False)


def commit_pending(pending: Path) -> Path:
    """The graph landed: the pending entry becomes a journal entry."""
    final = pending.with_name(pending.name[1 : -len(PENDING_SUFFIX)])
    pending.replace(final)
    crashpoints.step("journal entry committed")
    return final


def remove_temp_files(home: Path) -> list[str]:
    """Journal files an interrupted write left half-made; they never became entries."""
    directory = journal_dir(home)
    if not directory.is_dir():
        return []
    removed = []
    for path in sorted(directory.glob(f".*{TEMP_SUFFIX}")):
        path.unlink(missing_ok=True)
        removed.append(f"removed {path.name}, an unfinished journal file")
    return removed


def pending_entries(home: Path) -> list[tuple[Path, JournalEntry | None]]:
    directory = journal_dir(home)
    if not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.glob(f".*.json{PENDING_SUFFIX}")):
        try:
            found.append((path, _read(path)))
        except JournalError:
            found.append((path, None))
    return found
