"""The graph store: read with validation, write atomically, fingerprint the bytes."""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .atomic import atomic_write
from .errors import GraphError
from .gcpause import paused_gc
from .jsonfmt import NotFiniteError, dumps_compact, dumps_indented
from .jsonnumbers import NotJsonConstant, any_spelled, number_hooks
from .models import RawNote
from .safeopen import GRAPH_BYTES, read_regular
from .validate import document_problem

EMPTY_FINGERPRINT = "absent"
BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# A JSON string, or one of the words json.loads reads as a number and JSON does not have.
_STRING_OR_CONSTANT = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(-?Infinity|NaN)')


def graph_path(home: Path) -> Path:
    return home / "graph" / "graph.json"


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(repr=False)
class Graph:
    """One snapshot of the graph file: the document as read and the fingerprint of its bytes."""

    path: Path
    doc: dict[str, Any]
    fingerprint: str
    warnings: list[str] = field(default_factory=list)
    index: dict[str, int] = field(init=False)

    def __repr__(self) -> str:  # not the whole document: workers and logs print this
        return f"Graph({str(self.path)!r}, {len(self.notes)} notes, {self.fingerprint[:12]})"

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


class _KeyRecorder:
    """Builds JSON objects like json.loads does (the last of repeated keys wins, as in
    JavaScript) and remembers which keys repeated, so a read can say so."""

    def __init__(self) -> None:
        self.repeated: list[str] = []

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            owner = obj.get("id")
            where = f"note {owner!r}" if isinstance(owner, str) else "an object"
            self.repeated.append(f"{where} has the key {_first_repeat(pairs)!r} more than once")
        return obj


def _first_repeat(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    return ""


def parse_graph(path: Path, data: bytes, digest: str | None = None) -> Graph:
    """`data` read and checked; `digest`, when the caller already has it, is its fingerprint."""
    warnings = []
    body = data
    if data.startswith(BOM):
        body = data[len(BOM):]
        warnings.append(f"{path}: starts with a byte-order mark; read without it (a write "
                        "leaves it out)")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = exc.start + len(data) - len(body)
        raise GraphError(f"{path}: not valid UTF-8 at byte {at}") from None
    recorder = _KeyRecorder()
    wait = (lambda: digest) if digest is not None else _digest_aside(data)
    with paused_gc():
        doc = _loads(path, text, recorder)
        problem = document_problem(doc)
    if problem:
        raise GraphError(f"{path}: {problem}")
    warnings += [f"{path}: {r}; the last value is used (as JavaScript reads it) and a write "
                 "keeps only that one" for r in recorder.repeated[:3]]
    if len(recorder.repeated) > 3:
        warnings.append(f"{path}: {len(recorder.repeated) - 3} more objects repeat a key")
    return Graph(path=path, doc=doc, fingerprint=wait(), warnings=warnings)


# The json module's messages that end in "at" (the position follows in ours, not in them).
_JSON_PROBLEMS = {
    "Unterminated string starting at": "a string with no closing quote (a cut-off file?)",
    "Invalid control character at": "a control character inside a string",
    "Extra data": "more text after the end of the JSON document",
}


def _loads(path: Path, text: str, recorder: _KeyRecorder) -> Any:
    try:
        return json.loads(text, object_pairs_hook=recorder, **number_hooks())
    except NotJsonConstant as exc:
        line, column = _constant_position(text)
        raise GraphError(
            f"{path}: not valid JSON at line {line} column {column}: {exc} is not a JSON number "
            "(a strict parser such as the agent's refuses it)"
        ) from None
    except json.JSONDecodeError as exc:
        problem = _JSON_PROBLEMS.get(exc.msg, exc.msg[:1].lower() + exc.msg[1:])
        raise GraphError(
            f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {problem}"
        ) from None
    except RecursionError:
        raise GraphError(f"{path}: JSON nested too deeply to read") from None


def _constant_position(text: str) -> tuple[int, int]:
    """Line and column (1-based) of the first NaN or Infinity outside a string."""
    for found in _STRING_OR_CONSTANT.finditer(text):
        if found.group(1):
            start = found.start()
            return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)
    return 1, 1


def _digest_aside(data: bytes) -> Callable[[], str]:
    """The fingerprint of `data`, computed on another thread while this one parses (hashlib
    lets go of the interpreter while it hashes: ~0.1 s of a 150 MB read); call to wait for it."""
    found: list[str] = []
    worker = threading.Thread(target=lambda: found.append(fingerprint(data)), daemon=True)
    worker.start()

    def wait() -> str:
        worker.join()
        return found[0]

    return wait


def read_graph(path: Path, known: Graph | None = None) -> Graph:
    """Read and check the graph file. A missing file is an empty graph; anything unreadable is
    a GraphError naming the file, and the file is left as it is. `known`, a snapshot read
    earlier, is returned as it is when the file still holds the very bytes it was read from:
    only the fingerprint is computed, not the parse and checks (~1.5x json.load)."""
    try:
        data = _read_regular_file(path)
    except FileNotFoundError:
        if path.is_symlink():
            raise GraphError(f"{path}: is a symbolic link to {os.readlink(path)}, which does "
                             "not exist") from None
        return Graph(path=path, doc={"version": 3, "notes": []}, fingerprint=EMPTY_FINGERPRINT)
    if known is None or known.path != path:
        return parse_graph(path, data)
    digest = fingerprint(data)
    return known if digest == known.fingerprint else parse_graph(path, data, digest)


def _read_regular_file(path: Path) -> bytes:
    """The file's bytes; a GraphError when it is not a readable regular file of bounded size
    (a directory, a pipe, a device, no permission). FileNotFoundError passes through."""
    try:
        return read_regular(path, GRAPH_BYTES)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise GraphError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def current_fingerprint(path: Path, limit: int = GRAPH_BYTES) -> str:
    try:
        return fingerprint(read_regular(path, limit))
    except FileNotFoundError:
        return EMPTY_FINGERPRINT
    except OSError as exc:
        raise GraphError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def json_bytes(value: Any, indent: bool = True) -> bytes:
    """JSON in UTF-8, indented as json.dumps(indent=2) writes it (by a faster encoder), or
    compact. A lone surrogate (legal in JSON text as an escape, not in UTF-8) is written as
    its escape again, and a number as its file spelled it, so what was read is written back.
    A NaN or infinity computed here is a NotFiniteError: strict JSON has no such number."""
    if indent:
        text = dumps_indented(value)
    elif any_spelled():  # the json module would write a spelled number its own way
        text = dumps_compact(value)
    else:  # the json module's C encoder: fast, for journal entries of a whole graph
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:
            text = dumps_compact(value)  # raises the NotFiniteError that names the number
    return utf8_json(text + "\n")


def utf8_json(text: str) -> bytes:
    """JSON text in UTF-8; a lone surrogate (legal in JSON as an escape, not in UTF-8) is written
    as its escape again, as it was read."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


def dump_graph(doc: dict[str, Any], path: Path | None = None) -> bytes:
    """The graph as the json module writes it with indent=2 (a faster encoder, same bytes),
    numbers as read; a GraphError when a note holds a number strict JSON cannot."""
    try:
        with paused_gc():
            return json_bytes(doc)
    except NotFiniteError as exc:
        where = next((f"note {n.get('id')!r}" for n in doc.get("notes", ())
                      if isinstance(n, dict) and _holds_not_finite(n)), "the document")
        raise GraphError(f"{path or 'graph.json'}: not written: {where} holds {exc.number}, "
                         "which strict JSON (the agent's JSON.parse) cannot read") from None


def _holds_not_finite(value: Any) -> bool:
    try:
        json_bytes(value)
    except NotFiniteError:
        return True
    return False


def write_graph(path: Path, doc: dict[str, Any]) -> str:
    """Write the document atomically; returns the new fingerprint."""
    data = dump_graph(doc, path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        raise GraphError(f"{path}: cannot be written: {exc.strerror or exc}") from None
    return fingerprint(data)
