"""What happened to a run's notes after it, done by the memory's own program rather than us.

A memory system whose own program keeps writing its notes (MicroClaw's bot deletes expired rows,
archives stale ones, un-archives a row a new extraction matches) changes what our runs left. A
store that can tell says so per run (`Store.aftermath`); the front ends show it beside the run
(`nuggets log`, the run history) and the main screen tells the newest run's. Each note is
counted for the newest run of ours that wrote it: a later run of ours (an undo, an unhide) is
no news about the earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Aftermath:
    """One run's notes as another program left them since: note ids by what was done."""

    run_id: str
    deleted: tuple[str, ...] = ()  # gone: an undo cannot bring them back
    archived: tuple[str, ...] = ()  # archived again after the run left them visible
    restored: tuple[str, ...] = ()  # visible again after the run archived them (not by us)
    changed: tuple[str, ...] = ()  # otherwise changed
    line: str = ""  # how the store says all of it, one line in its own words
    # per note, what the store says of it (for the note's detail)
    notes: dict[str, str] = field(default_factory=dict)
    newest: bool = False  # the run is the newest of the journal

    def to_json(self) -> dict[str, list[str] | str]:
        return {
            "deleted": list(self.deleted),
            "archived": list(self.archived),
            "restored": list(self.restored),
            "changed": list(self.changed),
            "said": self.line,
        }
