"""Reading the purifier's files without writing or locking them: JSONL ledgers whose bad
lines are skipped and said, JSON documents, and one consistent read of all of them (read again
when the manifest changes meanwhile)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from core.errors import FileKindError, GraphError, NuggetsError
from core.safeio.file_stamp import FileStamp
from core.safeio.json_read import loads, loads_lines
from core.safeio.open_regular import GRAPH_BYTES, open_regular, read_regular
from core.stores.purifier import paths

ATTEMPTS = 3
HEAD_BYTES = 1 << 20  # a page of claims is a few kilobytes


@dataclass
class Artifacts:
    """Everything one read of a workspace found, and what it tolerated."""

    claims: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    deferred: list[dict[str, Any]] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    raw: bytes = b""  # the claims file's bytes, for the fingerprint


def read_jsonl(path: Path, notices: list[str]) -> tuple[list[dict[str, Any]], bytes]:
    """The objects of a JSONL file; a line that is not a JSON object is skipped and said."""
    try:
        data = read_regular(path, GRAPH_BYTES)
    except FileNotFoundError:
        return [], b""
    except FileKindError as exc:  # a FIFO, a device: named by the refusal itself
        notices.append(f"{exc}; left out")
        return [], b""
    except (OSError, GraphError) as exc:
        notices.append(
            f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc}); left out"
        )
        return [], b""
    rows, bad = _parsed(data)
    if bad:
        shown = ", ".join(map(str, bad[:5])) + (" …" if len(bad) > 5 else "")
        notices.append(
            f"{path}: line {shown} is not a JSON object (truncated?); skipped, the rest is shown"
        )
    return rows, data


def _parsed(data: bytes) -> tuple[list[dict[str, Any]], list[int]]:
    """The objects of the lines, and the numbers of the lines that are not one (not JSON,
    nested too deeply, not an object)."""
    read, bad = loads_lines(data)
    rows = [row for _, row in read if isinstance(row, dict)]
    bad += [number for number, row in read if not isinstance(row, dict)]
    return rows, sorted(bad)


def first_rows(path: Path, count: int, head_bytes: int = HEAD_BYTES) -> list[dict[str, Any]]:
    """The first `count` JSON objects of a JSONL file, from its first `head_bytes` read alone
    (bad lines skipped: the whole read says them); none when it is not a readable regular file
    (a pipe or a device is never opened for a blocking or endless read)."""
    try:
        descriptor = open_regular(path, GRAPH_BYTES)
    except (OSError, NuggetsError):
        return []
    try:
        head = os.read(descriptor, head_bytes)
    except OSError:
        return []
    finally:
        os.close(descriptor)
    whole = head.splitlines()[:-1] if len(head) == head_bytes else head.splitlines()
    return list(islice(_objects(iter(whole)), count))


def _objects(lines: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    for line in lines:
        try:
            row = loads(line) if line.strip() else None
        except ValueError:
            continue
        if isinstance(row, dict):
            yield row


def read_json(path: Path, notices: list[str]) -> dict[str, Any]:
    try:
        value = loads(read_regular(path, GRAPH_BYTES))
    except FileNotFoundError:
        return {}
    except (OSError, GraphError, ValueError) as exc:
        notices.append(
            f"{path}: not readable JSON ({getattr(exc, 'strerror', None) or exc}); left out"
        )
        return {}
    if not isinstance(value, dict):
        notices.append(f"{path}: not a JSON object; left out")
        return {}
    return value


def read_artifacts(workspace: Path) -> Artifacts:
    """One consistent read: the manifest's stamp is the same before and after, else again."""
    runtime = paths.runtime_dir(workspace)
    manifest_path = runtime / paths.MANIFEST
    found = Artifacts()
    for _ in range(ATTEMPTS):
        before = FileStamp.of(manifest_path)
        found = _read_once(runtime)
        if FileStamp.of(manifest_path) == before:
            return found
    found.notices.append(
        f"{manifest_path}: changed while it was read (the purifier is running?); shown as last read"
    )
    return found


def _read_once(runtime: Path) -> Artifacts:
    found = Artifacts()
    found.manifest = read_json(runtime / paths.MANIFEST, found.notices)
    found.claims, found.raw = read_jsonl(runtime / paths.CLAIMS, found.notices)
    found.contradictions, _ = read_jsonl(runtime / paths.CONTRADICTIONS, found.notices)
    found.rejected, _ = read_jsonl(runtime / paths.REJECTED, found.notices)
    found.deferred, _ = read_jsonl(runtime / paths.DEFERRED, found.notices)
    schema = str(found.manifest.get("manifestSchemaVersion") or "")
    if schema.isdigit() and int(schema) > paths.KNOWN_MANIFEST_SCHEMA:
        found.notices.append(
            f"{runtime / paths.MANIFEST}: manifest schema {schema} is newer "
            f"than this console knows ({paths.KNOWN_MANIFEST_SCHEMA}): fields "
            "it does not know are left out"
        )
    return found
