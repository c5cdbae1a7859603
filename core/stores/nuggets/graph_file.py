"""The Nuggets graph file (`<home>/graph/graph.json`): read with validation, written atomically."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import GraphError
from core.gc_pause import paused_gc
from core.notes.checks import document_problem
from core.notes.json_numbers import NotJsonConstant, number_hooks
from core.notes.json_writer import NotFiniteError
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, fingerprint, json_bytes
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import GRAPH_BYTES, read_regular

BOM = b"\xef\xbb\xbf"
# A JSON string, or one of the words json.loads reads as a number and JSON does not have.
_STRING_OR_CONSTANT = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(-?Infinity|NaN)')


def graph_path(home: Path) -> Path:
    return home / "graph" / "graph.json"


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
        body = data[len(BOM) :]
        warnings.append(
            f"{path}: starts with a byte-order mark; read without it (a write leaves it out)"
        )
    recorder = _KeyRecorder()
    wait: Callable[[], str] = (lambda: digest) if digest is not None else _digest_aside(data)
    with paused_gc():
        doc = _loads(path, body, recorder, len(data) - len(body))
        problem = document_problem(doc)
    if problem:
        raise GraphError(f"{path}: {problem}")
    warnings += [
        f"{path}: {r}; the last value is used (as JavaScript reads it) and a write "
        "keeps only that one"
        for r in recorder.repeated[:3]
    ]
    if len(recorder.repeated) > 3:
        warnings.append(f"{path}: {len(recorder.repeated) - 3} more objects repeat a key")
    return Graph(path=path, doc=doc, fingerprint=wait(), warnings=warnings)


# The json module's messages that end in "at" (the position follows in ours, not in them).
_JSON_PROBLEMS = {
    "Unterminated string starting at": "a string with no closing quote (a cut-off file?)",
    "Invalid control character at": "a control character inside a string",
    "Extra data": "more text after the end of the JSON document",
}


def _loads(path: Path, body: bytes, recorder: _KeyRecorder, skipped: int) -> Any:
    """The document of `body`, the file's bytes after the `skipped` of a byte-order mark."""
    try:
        return loads(body, object_pairs_hook=recorder, **number_hooks())
    except UnicodeDecodeError as exc:
        raise GraphError(f"{path}: not valid UTF-8 at byte {exc.start + skipped}") from None
    except NotJsonConstant as exc:
        line, column = _constant_position(body.decode("utf-8"))
        raise GraphError(
            f"{path}: not valid JSON at line {line} column {column}: {exc} is not a JSON number "
            "(a strict parser such as the agent's refuses it)"
        ) from None
    except json.JSONDecodeError as exc:
        problem = _JSON_PROBLEMS.get(exc.msg, exc.msg[:1].lower() + exc.msg[1:])
        raise GraphError(
            f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {problem}"
        ) from None
    except JsonReadError as exc:
        raise GraphError(f"{path}: JSON {exc}") from None


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
            raise GraphError(
                f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist"
            ) from None
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


def dump_graph(doc: dict[str, Any], path: Path | None = None) -> bytes:
    """The graph as the json module writes it with indent=2 (a faster encoder, same bytes),
    numbers as read; a GraphError when a note holds a number strict JSON cannot."""
    try:
        with paused_gc():
            return json_bytes(doc)
    except NotFiniteError as exc:
        where = next(
            (
                f"note {n.get('id')!r}"
                for n in doc.get("notes", ())
                if isinstance(n, dict) and _holds_not_finite(n)
            ),
            "the document",
        )
        raise GraphError(
            f"{path or 'graph.json'}: not written: {where} holds {exc.number}, "
            "which strict JSON (the agent's JSON.parse) cannot read"
        ) from None


def _holds_not_finite(value: Any) -> bool:
    try:
        json_bytes(value)
    except NotFiniteError:
        return True
    return False
