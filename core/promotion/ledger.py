"""What our promotion wrote into a MEMORY.md another store reviews (a Claude Code memory folder's):
one line per write, in our data directory — the file's path, the sha256 of its bytes before and
after, the run — so that the review of that folder counts the change as our run, not as the
agent's (docs/CLAUDE_CODE.md, "Promotion into this directory"). Only hashes are kept, never
text; the file is 0600 in a 0700 folder all the same, and keeps its newest `KEEP` lines.
Reading is pure over the lines; writing is thin."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from core.safeio.json_read import loads

LEDGER = Path("promotion") / "writes.jsonl"
KEEP = 500
_BYTES = 1 << 20


@dataclass(frozen=True)
class Write:
    path: str
    before: str  # sha256 of the bytes before ("" when the file was not there)
    after: str  # sha256 of the bytes written
    run_id: str
    at: str


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _key(path: Path) -> str:
    return os.path.abspath(path)


def writes(data_home: Path, path: Path) -> list[Write]:
    """Our writes of `path`, oldest first (none when the ledger cannot be read)."""
    try:
        with (data_home / LEDGER).open("rb") as handle:
            data = handle.read(_BYTES)
    except OSError:
        return []
    found = []
    for line in data.splitlines():
        try:
            item = loads(line)
            write = Write(*(str(item[k]) for k in ("path", "before", "after", "run", "at")))
        except (ValueError, KeyError, TypeError):
            continue
        if write.path == _key(path):
            found.append(write)
    return found


def record(
    data_home: Path, path: Path, before: bytes | None, after: bytes, run_id: str, at: str
) -> None:
    """Add one write (the oldest lines beyond KEEP go)."""
    ledger = data_home / LEDGER
    ledger.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(ledger.parent, 0o700)
    line = json.dumps(
        {
            "path": _key(path),
            "before": "" if before is None else digest(before),
            "after": digest(after),
            "run": run_id,
            "at": at,
        }
    )
    try:
        kept = ledger.read_bytes().decode("utf-8", "replace").splitlines()[-(KEEP - 1) :]
    except FileNotFoundError:
        kept = []
    temporary = ledger.with_name(ledger.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write("\n".join([*kept, line]) + "\n")
    os.replace(temporary, ledger)


def ours(writes_made: list[Write], reviewed: str | None, now: str) -> list[Write]:
    """The chain of our writes that leads from the reviewed version (its sha256; None: the
    file was not there) to the file as it is now; empty when the change is not ours alone."""
    at, chain = reviewed or "", []
    for _ in range(len(writes_made)):
        if at == now:
            break
        step = next((w for w in reversed(writes_made) if w.before == at), None)
        if step is None:
            return []
        chain.append(step)
        at = step.after
    return chain if at == now and chain else []
