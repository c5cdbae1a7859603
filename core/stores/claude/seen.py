"""Seen means kept (docs/CLAUDE_CODE.md, "What was seen"): every version of the directory's
files we read is copied, content-addressed, outside the directory — `blobs/<sha256>` and a
`states.jsonl` line per distinct state seen (when, and each file's hash) — so that what the
agent later rewrites or deletes can be shown and put back byte for byte.

Bounded like the journal: the newest KEEP_STATES states stay, within KEEP_ENTRIES file entries
in all (a directory of many files keeps fewer states), and the newest version of every file
ever seen and the reviewed baseline's never go; a blob no kept state names is removed. The log
never stops silently: one an older version let grow past what is read is read once more and
compacted, and one that cannot be read is said and set aside."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import GraphError, reason_of
from core.journal.guarded_write import graph_lock
from core.safeio.atomic_write import atomic_write
from core.safeio.json_read import loads, loads_lines
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular
from core.safeio.private import FILE_MODE, make_folder, tighten

KEEP_STATES = 500
# The log's size bound, in file entries over its states (a line holds every file's hash, ~90
# bytes each): pruned past it, the log stays well under what is read of it (STATES_BYTES),
# however many files the directory has.
KEEP_ENTRIES = 400_000
STATES_BYTES = MEMORY_MD_BYTES * 4
OVERSIZED_BYTES = 1 << 30  # an older version's log, read once to compact it
STATES = "states.jsonl"
REVIEWED = "reviewed.json"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class State:
    at: str
    files: dict[str, str]  # file name -> sha256 of its bytes


@dataclass(frozen=True)
class Version:
    name: str
    digest: str
    at: str  # the last time this version was seen


class SeenRecord:
    """The record of one memory directory, kept in `root` (never inside the directory)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[str] = []  # what could not be read of the record, one line each
        self._said: set[str] = set()  # each said once, however often the record is read
        self.unreadable = False  # the log is there and could not be read
        self.oversized = False  # the log is past STATES_BYTES: compacted on the next record

    @property
    def blobs(self) -> Path:
        return self.root / "blobs"

    def exists(self) -> bool:
        return (self.root / STATES).is_file()

    def states(self) -> list[State]:
        """The states recorded, oldest first; a line that is not one is skipped and said."""
        path = self.root / STATES
        try:
            # a log an older version let grow past the bound is read once more, to compact it
            self.oversized = path.stat().st_size > STATES_BYTES
            limit = OVERSIZED_BYTES if self.oversized else STATES_BYTES
            text = read_regular(path, limit).decode("utf-8", "replace")
        except FileNotFoundError:
            return []
        except (OSError, GraphError) as exc:
            self.unreadable, self.oversized = True, False
            why = reason_of(exc).removeprefix(f"{self.root / STATES}: ")
            self._say(
                f"{self.root / STATES}: not read ({why}); the files deleted before cannot be "
                "listed or restored from it"
            )
            return []
        read, bad = loads_lines(text)
        found = []
        for number, row in read:
            state = _state(row)
            if state is None:
                bad.append(number)
            else:
                found.append(state)
        if bad:
            shown = ", ".join(map(str, sorted(bad)[:5])) + (" …" if len(bad) > 5 else "")
            self._say(
                f"{self.root / STATES}: line {shown} is not a recorded state; skipped, "
                "the rest is read"
            )
        return found

    def blob(self, digest: str) -> bytes | None:
        """A version's bytes, or None when the copy is missing or damaged."""
        try:
            data = read_regular(self.blobs / digest, MEMORY_MD_BYTES)
        except (OSError, GraphError):
            return None
        return data if sha(data) == digest else None

    def size(self, digest: str) -> int | None:
        """A kept version's size in bytes, None when its copy is missing."""
        try:
            return (self.blobs / digest).stat().st_size
        except OSError:
            return None

    def record(self, files: dict[str, bytes], at: str) -> bool:
        """Keep what was seen: each version's bytes, and the state when it differs from the
        newest one recorded. Whether anything new was recorded. Two records at once (two
        crons) take turns: a prune rewrites the log, and must not drop the other's line."""
        make_folder(self.root.parent)  # the record's home (its journal's too): all ours
        make_folder(self.root)
        with graph_lock(self.root / STATES):
            return self._record(files, at)

    def _record(self, files: dict[str, bytes], at: str) -> bool:
        if self.blobs.is_dir() and self.blobs.stat().st_mode & 0o077:
            for blob in self.blobs.iterdir():  # an older version's copies: ours, made private
                tighten(blob)
        make_folder(self.blobs)
        state = {name: sha(data) for name, data in files.items()}
        for name, data in files.items():
            if not (self.blobs / state[name]).is_file():
                atomic_write(self.blobs / state[name], data, private=True)
        known = self.states()
        if self.unreadable:  # set aside, not grown past reading (nor pruned: it is not read)
            self._set_aside()
        if self.oversized:
            same = bool(known) and known[-1].files == state
            self.prune(known if same else [*known, State(at, state)], KEEP_ENTRIES // 2)
            self._say(f"{self.root / STATES}: past {STATES_BYTES >> 20} MB; compacted")
            return not same
        if known and known[-1].files == state:
            return False
        line = json.dumps({"at": at, "files": state}, sort_keys=True) + "\n"
        fd = os.open(self.root / STATES, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        tighten(self.root / STATES)
        if not (self.root / REVIEWED).exists():
            self.set_reviewed(State(at, state))
        if len(known) + 1 > KEEP_STATES or _entries(known) + len(state) > KEEP_ENTRIES:
            # past the entries: down to half of them, so the next records only append
            self.prune([*known, State(at, state)], KEEP_ENTRIES // 2)
        return True

    def _set_aside(self) -> None:
        """Keep a log too large or unreadable beside the new one (said), once."""
        aside = self.root / f"{STATES}.unread"
        with contextlib.suppress(OSError):
            os.replace(self.root / STATES, aside)
            self.unreadable = False
            self._say(f"{self.root / STATES}: set aside as {aside.name}; a new log is started")

    def last_versions(self, states: list[State] | None = None) -> dict[str, Version]:
        """The newest version seen of every file ever seen, gone or not (in `states`, when
        already read)."""
        return self._versions(self.states() if states is None else states)

    def versions(self) -> dict[str, list[Version]]:
        """Each file's versions the kept states hold, oldest first, each at when it was first
        seen (a version seen again after another one is listed again)."""
        found: dict[str, list[Version]] = {}
        for state in self.states():
            for name, digest in state.files.items():
                held = found.setdefault(name, [])
                if not held or held[-1].digest != digest:
                    held.append(Version(name, digest, state.at))
        return found

    def reviewed(self) -> State | None:
        """The baseline: the directory as the operator last accepted it (None: none, or one
        that cannot be read, which is said)."""
        path = self.root / REVIEWED
        try:
            state = _state(loads(read_regular(path, MEMORY_MD_BYTES)))
        except FileNotFoundError:
            return None
        except (OSError, GraphError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or exc
            self._say(f"{path}: not readable ({why}); read as no review yet")
            return None
        if state is None:
            self._say(f"{path}: not a recorded state; read as no review yet")
        return state

    def take_problems(self) -> list[str]:
        taken, self.problems = self.problems, []
        return taken

    def _say(self, problem: str) -> None:
        if problem not in self._said:
            self._said.add(problem)
            self.problems.append(problem)

    def set_reviewed(self, state: State) -> None:
        """Under the record's lock, as every write of it: settling, which clears what an
        interrupted one left half-made, takes it too (runs.py, `ClaudeTarget`)."""
        data = json.dumps({"at": state.at, "files": state.files}, sort_keys=True, indent=2)
        with graph_lock(self.root / STATES):
            atomic_write(self.root / REVIEWED, data.encode() + b"\n", private=True)

    def prune(self, states: list[State], entries: int = KEEP_ENTRIES) -> None:
        """Compact the log: the newest states within KEEP_STATES and `entries` (the newest
        always), and one more holding the last version of each file seen only before them."""
        kept = _newest(states, entries)
        dropped = states[: len(states) - len(kept)]
        newest = {name: v.digest for name, v in self._versions(states).items()}
        carried = {
            name: digest
            for name, digest in newest.items()
            if all(s.files.get(name) != digest for s in kept)
        }
        if carried:  # the last version of a file seen only in dropped states stays
            kept = [State(dropped[-1].at, carried), *kept]
        text = "".join(
            json.dumps({"at": s.at, "files": s.files}, sort_keys=True) + "\n" for s in kept
        )
        atomic_write(self.root / STATES, text.encode(), private=True)
        reviewed = self.reviewed()
        used = {d for s in kept for d in s.files.values()}
        used |= set(reviewed.files.values()) if reviewed else set()
        if (self.root / f"{STATES}.unread").exists():
            return  # its versions' copies stay: the log set aside may name them
        for blob in self.blobs.iterdir():
            if blob.name not in used and len(blob.name) == 64:
                with contextlib.suppress(OSError):
                    blob.unlink()

    @staticmethod
    def _versions(states: list[State]) -> dict[str, Version]:
        found: dict[str, Version] = {}
        for state in states:
            for name, digest in state.files.items():
                found[name] = Version(name, digest, state.at)
        return found


def _entries(states: list[State]) -> int:
    return sum(len(s.files) for s in states)


def _newest(states: list[State], most: int) -> list[State]:
    """The newest states the log keeps: at most KEEP_STATES, their entries within `most`
    (the newest state whatever its size)."""
    kept: list[State] = []
    entries = 0
    for state in reversed(states[-KEEP_STATES:]):
        if kept and entries + len(state.files) > most:
            break
        kept.append(state)
        entries += len(state.files)
    return kept[::-1]


def _state(row: Any) -> State | None:
    """A recorded state as read from its JSON (None: the JSON is not one)."""
    try:
        return State(str(row["at"]), {str(k): str(v) for k, v in row["files"].items()})
    except (KeyError, TypeError, AttributeError):
        return None
