"""The graph store: read with validation, write atomically, fingerprint the bytes."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .atomic import atomic_write
from .errors import GraphError
from .gcpause import paused_gc
from .jsonfmt import dumps_indented
from .models import RawNote
from .validate import document_problem

EMPTY_FINGERPRINT = "absent"


def graph_path(home: Path) -> Path:
    return home / "graph" / "graph.json"


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Graph:
    """One snapshot of the graph file: the document as read and the fingerprint of its bytes."""

    path: Path
    doc: dict[str, Any]
    fingerprint: str
    index: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.index = {note["id"]: i for i, note in enumerate(self.notes)}

    @property
    def notes(self) -> list[RawNote]:
        return self.doc["notes"]

    def get(self, note_id: str) -> RawNote | None:
        position = self.index.get(note_id)
        return None if position is None else self.notes[position]

    def with_notes(self, notes: list[RawNote]) -> dict[str, Any]:
        """The document with its notes replaced; every other top-level key kept."""
        return {**self.doc, "notes": notes}


def parse_graph(path: Path, data: bytes) -> Graph:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GraphError(f"{path}: not valid UTF-8 at byte {exc.start}") from None
    try:
        with paused_gc():
            doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GraphError(
            f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise GraphError(f"{path}: JSON nested too deeply to read") from None
    with paused_gc():
        problem = document_problem(doc)
    if problem:
        raise GraphError(f"{path}: {problem}")
    return Graph(path=path, doc=doc, fingerprint=fingerprint(data))


def read_graph(path: Path) -> Graph:
    """Read and check the graph file. A missing file is an empty graph; anything unreadable is
    a GraphError naming the file, and the file is left as it is."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Graph(path=path, doc={"version": 3, "notes": []}, fingerprint=EMPTY_FINGERPRINT)
    except IsADirectoryError:
        raise GraphError(f"{path}: is a directory, not a graph file") from None
    except OSError as exc:
        raise GraphError(f"{path}: cannot be read: {exc.strerror}") from None
    return parse_graph(path, data)


def current_fingerprint(path: Path) -> str:
    try:
        return fingerprint(path.read_bytes())
    except FileNotFoundError:
        return EMPTY_FINGERPRINT
    except OSError as exc:
        raise GraphError(f"{path}: cannot be read: {exc.strerror}") from None


def dump_graph(doc: dict[str, Any]) -> bytes:
    """The graph as the json module writes it with indent=2 (a faster encoder, same bytes)."""
    with paused_gc():
        return (dumps_indented(doc) + "\n").encode("utf-8")


def write_graph(path: Path, doc: dict[str, Any]) -> str:
    """Write the document atomically; returns the new fingerprint."""
    data = dump_graph(doc)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        raise GraphError(f"{path}: cannot be written: {exc.strerror or exc}") from None
    return fingerprint(data)
