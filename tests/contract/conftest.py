"""The `store` fixture: every registered store kind, its demo materialized into a temporary
directory and opened through the registry, as a front end opens it. A test of this folder runs
once per kind; what a store does not offer is skipped by its capability or part, by name."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.clock import fixed_clock
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.plans.review_rules import RULES_FILE
from core.plans.review_state import STATE_FILE
from core.review.decisions import SETTLED_FILE
from core.review.marks import MARKS_FILE
from core.settings import Settings
from core.stores.registry import STORE_KINDS
from tests.support.tree import hashes

CLOCK = fixed_clock(datetime(2026, 11, 25, 9, tzinfo=UTC))
OUR_FILES = (RULES_FILE, STATE_FILE, SETTLED_FILE, MARKS_FILE)


@dataclass
class Opened:
    """A kind's demo, opened: `root` holds every file of it and of ours (the demo, our data
    directory); `reopen()` is a fresh store on the same files, as the next command gets."""

    kind: StoreKind
    root: Path
    home: Path
    store: Store
    settings: Settings  # the demo's and our data directory's

    def reopen(self) -> Store:
        return open_demo(self.kind, self.home, self.settings)


def open_demo(kind: StoreKind, home: Path, settings: Settings) -> Store:
    store = kind.open(home, CLOCK, kind.demo_memory_md(home), settings)
    store.open(read=False)
    return store


def materialize(kind: StoreKind, root: Path) -> Opened:
    """The kind's demo under `root`, with our own data directory beside it."""
    settings = Settings.of(demo_dir=root / "demo", data_dir=root / "data")
    home = kind.materialize_demo(CLOCK, False, settings)
    return Opened(kind, root, home, open_demo(kind, home, settings), settings)


@pytest.fixture(params=STORE_KINDS, ids=lambda kind: kind.name)
def kind(request: pytest.FixtureRequest) -> StoreKind:
    return request.param


@pytest.fixture
def opened(kind: StoreKind, tmp_path: Path) -> Opened:
    return materialize(kind, tmp_path / "root")


@pytest.fixture
def store(opened: Opened) -> Store:
    return opened.store


def needs(store: Store, capability: str) -> None:
    """Skip, naming the capability, when the store does not declare it."""
    if not getattr(store.profile.capabilities, capability):
        pytest.skip(f"needs capability: {capability}")


def needs_not(store: Store, capability: str) -> None:
    """Skip, naming the capability, when the store declares it (a store whose applying runs
    its own program has no run of ours to take back)."""
    if getattr(store.profile.capabilities, capability):
        pytest.skip(f"needs capability: not {capability}")


def needs_part(store: Store, part: str) -> None:
    if getattr(store, part) is None:
        pytest.skip(f"needs part: {part}")


def memory_files(opened: Opened) -> dict[str, str]:
    """The hash of every file and folder of the memory itself: under its home, leaving out
    what is ours (the journal, our small files beside it, lock files) and the bytes of a
    SQLite database, which no write leaves as they were (its rows are compared through the
    store's fingerprint instead)."""
    journal = opened.store.journal
    home = opened.home.resolve()
    ours = [journal.folder.resolve()]
    if journal.home.resolve() != home:
        ours.append(journal.home.resolve())
    ours += [journal.home.resolve() / name for name in OUR_FILES]
    found = {}
    for name, digest in hashes(home).items():
        path = home / name
        if any(path == own or own in path.parents for own in ours):
            continue
        if path.name.endswith(".lock") or _sqlite(path):
            continue
        found[name] = digest
    return found


def _sqlite(path: Path) -> bool:
    """A SQLite database or one of its companion files (-wal, -shm)."""
    base = path.with_name(path.name.removesuffix("-wal").removesuffix("-shm"))
    if not base.is_file():
        return False
    with base.open("rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def everything(root: Path) -> dict[str, str]:
    """Every folder and file under `root` (the demo and our data directory), lock files left
    out."""
    return {name: digest for name, digest in hashes(root).items() if not name.endswith(".lock")}


def everything_but_databases(root: Path) -> dict[str, str]:
    """Every folder and file under `root`, lock files and SQLite databases (with their -wal
    and -shm files, which reading may make or change) left out."""
    return {name: digest for name, digest in everything(root).items() if not _sqlite(root / name)}


def every_file(root: Path) -> dict[str, str]:
    """Every file under `root` (none when it is absent), lock files and folders left out."""
    return {name: digest for name, digest in everything(root).items() if digest != "folder"}


# -- another program writing the memory's notes (the agent, the bot), as a stale plan needs ---


def _append_line(store: Store) -> None:
    """A file-backed memory: one more line at the end of the file that holds the notes."""
    with store.graph_path.open("ab") as handle:
        handle.write(b"\n")


def _bot_edits_every_row(store: Store) -> None:
    """MicroClaw's bot: every memory row's content edited, as its own writes do."""
    with sqlite3.connect(store.graph_path) as conn:
        conn.execute("UPDATE memories SET content = content || ' (edited by the bot)'")
    conn.close()


WRITERS: dict[str, Callable[[Store], None]] = {"microclaw": _bot_edits_every_row}


def another_writer(kind: StoreKind) -> Callable[[Store], None]:
    return WRITERS.get(kind.name, _append_line)
