"""The journal of applied runs: one file per run under <home>/reflections/.

An entry's file is two lines of JSON: a small header (run id, kind, time, fingerprints, how many
notes, the summary), then the whole entry with every changed note's images. `log` and the daily
pass read only headers, so a journal of large runs lists as fast as a small one; an entry
written before headers existed (one line) is still read, whole. Nothing in an entry is trusted:
an entry is checked in full before an undo acts on it, and one that cannot be read is skipped
and named, never a reason for every other command to fail.

The journal keeps the newest runs ($NUGGETS_JOURNAL_KEEP, 30 unless set); its files hold copies
of the notes, so they are the user's alone (0600 in a 0700 folder, core/safeio/private.py),
owned like the graph file.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, ValidationError

from core.errors import FileKindError, JournalError, NuggetsError, UnknownRunError
from core.journal.own_files import NO_FILES, OwnFileError, OwnFiles, own_file
from core.models import CamelModel, JournalEntry, JournalKind, PromotionEntry
from core.notes.checks import note_problem
from core.notes.json_numbers import number_hooks
from core.notes.snapshot import EMPTY_FINGERPRINT, fingerprint, json_bytes
from core.safeio import crashpoints
from core.safeio.atomic_write import TEMP_SUFFIX, atomic_write, copy_owner_and_mode
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import JOURNAL_BYTES, open_regular, read_regular
from core.safeio.private import make_folder, tighten

PENDING_SUFFIX = ".pending"
HEADER_MARK = b'{"header":1,'
HEADER_BYTES = 64 << 10
SUMMARY_CHARS = 300
_RUN_ID = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9]{4,}")
_FINGERPRINT = re.compile(f"[0-9a-f]{{64}}|{EMPTY_FINGERPRINT}")


class JournalHeader(CamelModel):
    """What `log` shows of a run, and what undo needs to find one: no note images."""

    run_id: str
    seq: int
    kind: JournalKind
    at: str
    base_fingerprint: str
    result_fingerprint: str
    notes: int
    undoes: str | None = None
    summary: str = ""
    # what the run wrote: its changes, a promotion's entries (None: a header written before
    # they were counted), so that telling what runs did needs no run read whole
    changes: int | None = None
    # a run that wrote a file: its name (core/journal/own_files.py)
    file_name: str | None = Field(default=None, alias="memoryMd")
    batch: str | None = None  # runs one apply wrote together (core/journal/journal.py)
    # a run of another program (a store's own system): how it ended, in that program's words
    # (ok, skipped, failed …); None for a run of ours, which was applied
    outcome: str | None = None
    left_home: str | None = None  # written in a home its agent had left (core/models.py)


@dataclass(frozen=True)
class Pending:
    """A pending entry beside the journal: its entry, or why it cannot be read. `foreign`: not
    a regular file, so not one we wrote (left alone)."""

    path: Path
    entry: JournalEntry | None
    foreign: str | None = None


def journal_dir(home: Path) -> Path:
    return home / "reflections"


def _entry_files(home: Path) -> list[Path]:
    directory = journal_dir(home)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("*.json") if not p.name.startswith("."))


def _run_id_of(path: Path) -> str:
    return path.name.lstrip(".").split(".json")[0]


def _seq_of(name: str) -> int:
    """The sequence number in a journal file name: 20261101T090000Z-0001.json -> 1."""
    stem = name.lstrip(".").split(".json")[0]
    tail = stem.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


# -- reading ------------------------------------------------------------------------------------


def _unreadable(path: Path, reason: str) -> JournalError:
    return JournalError(f"{path}: not a readable journal entry ({reason})")


def _reason(exc: Exception) -> str:
    if isinstance(exc, JsonReadError):
        return str(exc)
    if isinstance(exc, FileKindError):
        return str(exc).partition(": ")[2] or str(exc)
    if isinstance(exc, OSError):
        return exc.strerror or exc.__class__.__name__
    return exc.__class__.__name__


def _header_problem(header: JournalHeader, path: Path) -> str | None:
    if header.run_id != _run_id_of(path) or not _RUN_ID.fullmatch(header.run_id):
        return f"run id {header.run_id[:40]!r} does not match the file name"
    if header.seq != _seq_of(path.name):
        return "its sequence number does not match the file name"
    if not all(
        _FINGERPRINT.fullmatch(f) for f in (header.base_fingerprint, header.result_fingerprint)
    ):
        return "a fingerprint is not a sha256"
    if (
        header.notes < 0
        or (header.changes or 0) < 0
        or (header.kind == "undo") != (header.undoes is not None)
    ):
        return "its header does not add up"
    return None


def entry_problem(entry: JournalEntry, path: Path, files: OwnFiles | None = NO_FILES) -> str | None:
    """Why an entry must not be acted on (None: it may): every check an undo relies on, the
    files it names too (each must be one of `files`, the store's own; None: listed only, so
    not checked)."""
    problem = _header_problem(header_of(entry), path)
    if problem is None and files is not None:
        problem = files_problem(named_files(entry), files)
    if problem:
        return problem
    if entry.before.keys() != entry.after.keys():
        return "its before- and after-images are of different notes"
    for side, images in (("before", entry.before), ("after", entry.after)):
        for key, image in images.items():
            found = note_problem(image)
            if found:
                return f"the {side}-image of {key[:40]!r} is not a note: {found}"
            if image["id"] != key:
                return f"the {side}-image filed under {key[:40]!r} has another note's id"
    return None


def named_files(entry: JournalEntry) -> list[str]:
    """Every file an entry names: the one a file run wrote, those written with the graph and
    the fact files its edits touch."""
    names = [] if entry.file_name is None else [entry.file_name]
    names += [image.path for image in entry.files]
    return list(dict.fromkeys(names + [edit.path for edit in entry.side_file_edits]))


def files_problem(names: list[str], files: OwnFiles) -> str | None:
    """Why these names are not all files of the store (None: they are)."""
    for name in names:
        try:
            own_file(name, files)
        except OwnFileError as exc:
            return str(exc)
    return None


def header_of(entry: JournalEntry) -> JournalHeader:
    summary = entry.summary
    if len(summary) > SUMMARY_CHARS:
        summary = summary[: SUMMARY_CHARS - 1] + "…"
    return JournalHeader(
        run_id=entry.run_id,
        seq=entry.seq,
        kind=entry.kind,
        at=entry.at,
        base_fingerprint=entry.base_fingerprint,
        result_fingerprint=entry.result_fingerprint,
        notes=len(entry.after),
        undoes=entry.undoes,
        summary=summary,
        changes=len(entry.promoted or []) if entry.kind == "promote" else len(entry.operations),
        file_name=entry.file_name,
        batch=entry.batch,
        left_home=entry.left_home,
    )


def _expected_header(entry: JournalEntry, header: JournalHeader) -> JournalHeader:
    """The header the entry's body makes, as a header written before runs' changes were
    counted has it."""
    expected = header_of(entry)
    return expected if header.changes is not None else expected.model_copy(update={"changes": None})


def _read(path: Path, files: OwnFiles | None = NO_FILES) -> JournalEntry:
    """The whole entry, checked in full (the files it names are some of `files`; None: read to
    be listed, they are not); JournalError naming the file otherwise."""
    header = None
    try:
        data = read_regular(path, JOURNAL_BYTES)
        if data.startswith(HEADER_MARK):
            head, _, data = data.partition(b"\n")
            header = JournalHeader.model_validate(loads(head, **number_hooks()))
        entry = JournalEntry.model_validate(loads(data, **number_hooks()))
    except FileNotFoundError:
        raise
    except (OSError, ValueError, ValidationError, NuggetsError) as exc:
        raise _unreadable(path, _reason(exc)) from None
    problem = entry_problem(entry, path, files)
    if problem is None and header is not None and header != _expected_header(entry, header):
        problem = "its header does not match its body"
    if problem:
        raise _unreadable(path, problem)
    return entry


def _read_header(path: Path) -> JournalHeader:
    """The header only (a whole entry for one written before headers existed)."""
    try:
        fd = open_regular(path, JOURNAL_BYTES)
        try:
            head = os.read(fd, HEADER_BYTES)
        finally:
            os.close(fd)
        if not head.startswith(HEADER_MARK):
            return header_of(_read(path, None))
        line, newline, _ = head.partition(b"\n")
        if not newline:
            raise ValueError("header too long")
        header = JournalHeader.model_validate(loads(line, **number_hooks()))
    except JournalError:
        raise
    except (OSError, ValueError, ValidationError, NuggetsError) as exc:
        raise _unreadable(path, _reason(exc)) from None
    problem = _header_problem(header, path)
    if problem:
        raise _unreadable(path, problem)
    return header


def read_headers(
    home: Path, files: OwnFiles | None = None
) -> tuple[list[JournalHeader], list[str]]:
    """Every readable entry's header, newest first, and a notice for each one skipped; with
    the store's `files`, also one for each run whose header names a file not of them (listed,
    but never undone)."""
    headers, notices = [], []
    for path in _entry_files(home):
        try:
            header = _read_header(path)
        except FileNotFoundError:  # pruned or undone meanwhile
            continue
        except JournalError as exc:
            notices.append(f"skipped {exc}")
            continue
        headers.append(header)
        problem = (
            None
            if files is None or header.file_name is None
            else files_problem([header.file_name], files)
        )
        if problem:
            notices.append(f"run {header.run_id} cannot be undone: {path}: {problem}")
    return sorted(headers, key=lambda e: e.seq, reverse=True), notices


def read_entry(home: Path, run_id: str, files: OwnFiles = NO_FILES) -> JournalEntry:
    """The run whole, checked (see _read); JournalError when unknown or refused."""
    path = journal_dir(home) / f"{run_id}.json"
    try:
        if not _RUN_ID.fullmatch(run_id):
            raise FileNotFoundError
        return _read(path, files)
    except FileNotFoundError:
        known = ", ".join(e.run_id for e in read_headers(home)[0][:5]) or "none yet"
        raise UnknownRunError(
            f"no run {run_id!r} in {journal_dir(home)} (latest: {known})"
        ) from None


# -- writing ------------------------------------------------------------------------------------


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


def write_pending(home: Path, entry: JournalEntry, like: Path | None = None) -> Path:
    """Write the entry beside the journal before the graph changes (write-ahead). It and the
    journal directory are private (0600, 0700: they hold copies of the notes), owned, when we
    may, by the owner of `like` (the graph file)."""
    directory = journal_dir(home)
    path = directory / f".{entry.run_id}.json{PENDING_SUFFIX}"
    data = dump_entry(entry)
    try:
        make_folder(directory)
        if like is not None:
            with contextlib.suppress(OSError):  # not ours to change: the write still may work
                copy_owner_and_mode(like, directory, directory=True, private=True)
        atomic_write(path, data, like, private=True)
        for older in _entry_files(home):  # entries an older version wrote wider
            tighten(older)
    except OSError as exc:
        reason = exc.strerror or exc
        raise JournalError(f"{directory}: cannot write the journal: {reason}") from None
    crashpoints.step("journal entry pending")
    return path


def dump_entry(entry: JournalEntry) -> bytes:
    """The header line, then the entry, compact: an uncapped run at 100k notes journals 200k
    note images. (Compact JSON never holds a raw newline.)"""
    header = {"header": 1, **header_of(entry).to_json_dict()}
    return json_bytes(header, indent=False) + json_bytes(entry.to_json_dict(), indent=False)


def commit_pending(pending: Path) -> Path:
    """The graph landed: the pending entry becomes a journal entry."""
    final = pending.with_name(pending.name[1 : -len(PENDING_SUFFIX)])
    pending.replace(final)
    crashpoints.step("journal entry committed")
    return final


def prune(home: Path, keep: int) -> None:
    """Remove the oldest entries beyond the newest `keep` runs (by sequence number). An undo
    is newer than the run it undid, so a kept run's undo is never dropped before it."""
    files = sorted(_entry_files(home), key=lambda p: _seq_of(p.name), reverse=True)
    for path in files[max(keep, 1) :]:
        with contextlib.suppress(OSError):
            path.unlink()


def remove_temp_files(home: Path) -> list[str]:
    """Journal files an interrupted write left half-made; they never became entries."""
    return remove_temps(journal_dir(home), "an unfinished journal file")


def has_temps(directory: Path) -> bool:
    """Whether a folder of ours holds a file an interrupted atomic write left half-made."""
    return directory.is_dir() and any(True for _ in directory.glob(f".*{TEMP_SUFFIX}"))


def remove_temps(directory: Path, what: str) -> list[str]:
    """Remove the half-made files of interrupted atomic writes from a folder of ours (`what`
    they are, for the message); one that is not a regular file was never ours, and stays."""
    if not directory.is_dir():
        return []
    removed = []
    for path in sorted(directory.glob(f".*{TEMP_SUFFIX}")):
        try:
            if _is_foreign(path):
                removed.append(f"left {path.name} as it is: not a regular file, so not ours")
                continue
            path.unlink(missing_ok=True)
            removed.append(f"removed {path.name}, {what}")
        except OSError as exc:
            removed.append(f"left {path.name} as it is: it cannot be removed ({_reason(exc)})")
    return removed


def has_pending(home: Path) -> bool:
    """Whether a pending entry (or anything named like one) is beside the journal."""
    directory = journal_dir(home)
    return directory.is_dir() and any(True for _ in directory.glob(f".*.json{PENDING_SUFFIX}"))


def pending_entries(home: Path, files: OwnFiles = NO_FILES) -> list[Pending]:
    """The pending entries beside the journal, each checked as an entry (one naming a file
    not of `files` is unreadable, and settling discards it without touching that file)."""
    directory = journal_dir(home)
    if not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.glob(f".*.json{PENDING_SUFFIX}")):
        try:
            found.append(Pending(path, _read(path, files)))
        except FileNotFoundError:
            continue
        except JournalError as exc:
            foreign = str(exc) if _is_foreign(path) else None
            found.append(Pending(path, None, foreign))
    return found


def _is_foreign(path: Path) -> bool:
    """Not a regular file: nothing we wrote, whatever its name."""
    try:
        return not stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return True


def file_run(
    home: Path,
    name: str,
    before: str | None,
    after: str | None,
    base: str,
    kind: JournalKind,
    at: str,
    undoes: str | None = None,
    summary: str = "",
    promoted: list[PromotionEntry] | None = None,
) -> JournalEntry:
    """The entry of a run that replaces one file (MEMORY.md, an AGENTS.md, a file of ours),
    named as the store names it (core/journal/own_files.py), over the version with fingerprint
    `base` (`after` None: removes it), with both texts; the next run id of the journal at
    `home`."""
    seq, run_id = next_run_id(home, at)
    return JournalEntry.model_construct(
        run_id=run_id,
        seq=seq,
        kind=kind,
        at=at,
        base_fingerprint=base,
        result_fingerprint=(
            EMPTY_FINGERPRINT if after is None else fingerprint(after.encode("utf-8"))
        ),
        operations=[],
        result=None,
        before={},
        after={},
        undoes=undoes,
        summary=summary,
        file_name=name,
        file_before=before,
        file_after=after,
        promoted=promoted,
        side_file_edits=[],
        files=[],
    )
