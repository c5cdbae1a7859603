"""What the agent will do to notes after a write of ours, told before it (docs/RUNS.md, "What
the agent did since, and will do").

Two things undo what the operator decided, and neither keeps any decision of the operator's:

- the agent's own morning pass (agent_pass.py), run here on the memory as the write would leave
  it: the notes it would archive, merge or rewrite among those the write is about are told;
- a running agent: each of its processes keeps the facts it loaded and rewrites the whole fact
  file from them at its next `remember` (every file it reads), until it restarts. A fact the
  write removes comes back, and one it puts back is dropped again. Whether one is running is
  seen from outside: the fact file was rewritten lately, and not by a run of ours.

Deciding is pure; the store reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from core.models import RawNote
from core.notes import fields
from core.safeio.inert_text import one_line
from core.stores.nuggets.agent_pass import (
    ABSORBS,
    ARCHIVED,
    BROUGHT_BACK,
    MERGED_INTO,
    REWRITTEN,
    AgentPass,
)

LIVE_SECONDS = 15 * 60  # a fact file rewritten this lately, not by us: an agent is running
# The agent's pass walks every note of its nugget; past this many, a confirmation would wait
# for it too long (seconds at 20,000), and it is said instead of run.
AGENT_PASS_MOST = 20_000
PASS = "the agent's next morning pass"
_DOES = {
    ARCHIVED: PASS + " archives it again (a low-value note by its rules)",
    MERGED_INTO: PASS + " merges it into {other} (it keeps no decision of yours)",
    ABSORBS: PASS + " merges {other} into it (it keeps no decision of yours)",
    REWRITTEN: PASS + " rewrites it: blank and repeated lines dropped",
    BROUGHT_BACK: "the agent's next start brings it back (its fact is still in the fact file)",
}


def name(note_id: str, notes: Mapping[str, RawNote]) -> str:
    """“title” (id), or the id alone for a note without a title or not in the memory."""
    note = notes.get(note_id)
    title = fields.text(note, "title") if note else ""
    return f"“{one_line(title)}” ({one_line(note_id)})" if title else one_line(note_id)


def too_big(size: int, most: int = AGENT_PASS_MOST) -> str:
    return (
        f"{PASS} is not foretold here: its nugget “memory” holds {size:,} notes (more than "
        f"{most:,}); it may archive or merge these notes again, whatever you decide"
    )


def pass_lines(told: AgentPass, note_ids: Iterable[str], notes: Mapping[str, RawNote]) -> list[str]:
    """One line per thing the agent's pass does to these notes (its retagging is left out: it
    retags on its own whatever we decide)."""
    lines = []
    asked = dict.fromkeys(note_ids)
    for note_id in asked:
        for what, detail in told.of(note_id):
            if what == ABSORBS and detail in asked:
                continue  # told once, as the loser's
            if what in _DOES:
                does = _DOES[what].format(other=name(detail, notes) if detail else "")
                lines.append(f"{name(note_id, notes)}: {does}")
    return lines


def live_lines(
    fact_ids: Iterable[str], removes: bool, live: str | None, notes: Mapping[str, RawNote]
) -> list[str]:
    """What a running agent does to the facts of these fact notes, when one runs (`live`:
    what shows it; None: none seen). `removes`: the write takes their facts out (an archive,
    a merge away), else it puts them back or changes them (an unhide, an undo)."""
    ids = list(dict.fromkeys(fact_ids))
    if live is None or not ids:
        return []
    shown = ", ".join(name(i, notes) for i in ids)
    if removes:
        does = (
            "writes their facts back into the fact file at its next file read, and its "
            "next start brings the notes back"
        )
    else:
        does = (
            "writes the fact file back as it loaded it at its next file read: the facts "
            "this puts there are dropped or set back, the notes stay with no fact or the old one"
        )
    return [
        f"a running agent ({live}) {does}, until it restarts after this write: {shown}",
    ]
