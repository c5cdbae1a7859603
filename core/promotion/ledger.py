"""What our promotion wrote into a folder another store reviews (a Claude Code memory folder's
MEMORY.md and the topic files of its own form), and what an undo of it put back: one line per
file written, in our data directory — the file's path, the sha256 of its bytes before and after
("" for no file), the run — so that the review of that folder counts the change as our run, not
as the agent's (docs/CLAUDE_CODE.md, "Promotion into this directory"). Only hashes are kept, never
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
KEEP = 5_000  # a promotion in Claude Code's form writes a line per topic file
_BYTES = 4 << 20


@dataclass(frozen=True)
class Write:
    path: str
    before: str  # sha256 of the bytes before ("" when the file was not there)
    after: str  # sha256 of the bytes written ("" when the write removed the file)
    run_id: str
    at: str


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _key(path: Path) -> str:
    return os.path.abspath(path)


def every_write(data_home: Path) -> dict[str, list[Write]]:
    """Our writes by the file's absolute path, oldest first (none when the ledger cannot be
    read)."""
    try:
        with (data_home / LEDGER).open("rb") as handle:
            data = handle.read(_BYTES)
    except OSError:
        return {}
    found: dict[str, list[Write]] = {}
    for line in data.splitlines():
        try:
            item = loads(line)
            write = Write(*(str(item[k]) for k in ("path", "before", "after", "run", "at")))
        except (ValueError, KeyError, TypeError):
            continue
        found.setdefault(write.path, []).append(write)
    return found


# One file written: where, its bytes before and after (None: no file), by which run.
Written = tuple[Path, bytes | None, bytes | None, str]


def record(
    data_home: Path, path: Path, before: bytes | None, after: bytes | None, run_id: str, at: str
) -> None:
    """Add one write (the oldest lines beyond KEEP go)."""
    record_all(data_home, [(path, before, after, run_id)], at)


def record_all(data_home: Path, written: list[Written], at: str) -> None:
    """Add the writes of one operation together (the oldest lines beyond KEEP go)."""
    ledger = data_home / LEDGER
    ledger.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(ledger.parent, 0o700)
    lines = [
        json.dumps(
            {
                "path": _key(path),
                "before": "" if before is None else digest(before),
                "after": "" if after is None else digest(after),
                "run": run_id,
                "at": at,
            }
        )
        for path, before, after, run_id in written
    ]
    try:
        kept = ledger.read_bytes().decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        kept = []
    kept = kept[max(0, len(kept) + len(lines) - KEEP) :]
    temporary = ledger.with_name(ledger.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write("\n".join([*kept, *lines]) + "\n")
    os.replace(temporary, ledger)


def ours(writes_made: list[Write], reviewed: str | None, now: str) -> list[Write]:
    """The chain of our writes that leads from the reviewed version (its sha256; None: the
    file was not there) to the file as it is now (its sha256; "": not there); empty when the
    change is not ours alone."""
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
