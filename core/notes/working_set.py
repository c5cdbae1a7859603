"""A copy-on-write working set of notes, and the one function that replays each operation.

The pass decides an operation and replays it here; apply replays the same operations on the
stored graph. One code path for both is what makes "apply the whole plan" equal the plan.
"""

from __future__ import annotations

from core.models import HideOp, LinkOp, MergeOp, Operation, RawNote, RetagOp, RewriteOp, SupersedeOp
from core.notes import fields, vectors


class Workspace:
    def __init__(self, notes: list[RawNote]) -> None:
        self.original = notes
        self.notes = list(notes)
        self.index = {note["id"]: i for i, note in enumerate(notes)}
        self._copied: set[int] = set()
        self._backrefs: dict[str, set[int]] | None = None
        self._new_links: list[tuple[str, str]] = []  # (source, target) not yet in _backrefs

    def get(self, note_id: str) -> RawNote:
        return self.notes[self.index[note_id]]

    def edit(self, note_id: str) -> RawNote:
        """The note, copied on first edit, so the notes as read stay untouched."""
        position = self.index[note_id]
        if position not in self._copied:
            self._copied.add(position)
            # Shallow is enough: every edit assigns new lists and new link dicts.
            self.notes[position] = dict(self.notes[position])
        return self.notes[position]

    def put(self, note_id: str, note: RawNote) -> None:
        """Replace a note whole (undo restores before-images this way)."""
        position = self.index[note_id]
        self._copied.add(position)
        self.notes[position] = note

    def touched_positions(self) -> list[int]:
        return sorted(p for p in self._copied if self.notes[p] != self.original[p])

    def refresh_vectors(self) -> list[int]:
        """Give every changed note the vector the agent would compute for it
        (core/notes/vectors.py);
        returns the changed positions. Called once the operations are replayed."""
        touched = self.touched_positions()
        for position in touched:
            vectors.refresh(self.notes[position])
        return touched

    def referrers(self, note_id: str) -> set[int]:
        """Positions of notes that may link to `note_id` (a superset; check the links)."""
        if self._backrefs is None:
            backrefs: dict[str, set[int]] = {}
            for position, note in enumerate(self.notes):
                for link in note.get("links") or ():  # fields.links, inlined: every note
                    found = backrefs.get(link["to"])
                    if found is None:
                        backrefs[link["to"]] = {position}
                    else:
                        found.add(position)
            self._backrefs = backrefs
        for source_id, target_id in self._new_links:
            self._backrefs.setdefault(target_id, set()).add(self.index[source_id])
        self._new_links.clear()
        return self._backrefs.get(note_id, set())

    def _note_link(self, source_id: str, target_id: str) -> None:
        # Noted now, filed when a merge next asks: a plan's links come after its merges.
        if self._backrefs is not None:
            self._new_links.append((source_id, target_id))


def _stamp(note: RawNote, now: str, rewritten: bool = False) -> None:
    if rewritten:
        note["lastRewrittenAt"] = now
    note["updatedAt"] = now


def hide(ws: Workspace, note_id: str, now: str) -> None:
    note = ws.edit(note_id)
    note["hidden"] = True
    note["archivedAt"] = now
    _stamp(note, now)


def unhide(ws: Workspace, note_id: str, now: str) -> None:
    note = ws.edit(note_id)
    note["hidden"] = False
    note.pop("archivedAt", None)
    _stamp(note, now)


def rewrite(ws: Workspace, note_id: str, content: str, now: str) -> None:
    note = ws.edit(note_id)
    note["content"] = content
    _stamp(note, now, rewritten=True)


def retag(ws: Workspace, note_id: str, tags: list[str], now: str) -> None:
    note = ws.edit(note_id)
    note["tags"] = list(tags)
    _stamp(note, now, rewritten=True)


def add_link(ws: Workspace, source_id: str, target_id: str, reason: str, now: str) -> None:
    """Link source -> target unless that link exists; stamps the source when it changes."""
    for link in fields.links(ws.get(source_id)):
        if link["to"] == target_id:
            return
    note = ws.edit(source_id)
    note["links"] = [*fields.links(note), {"to": target_id, "reason": reason, "createdAt": now}]
    ws._note_link(source_id, target_id)
    _stamp(note, now)


def supersede(ws: Workspace, note_id: str, winner_id: str, now: str) -> None:
    """Archive a note with a link to the note that stands instead (the link stamped first, so
    archiving leaves the same stamp)."""
    add_link(ws, note_id, winner_id, f"superseded by {winner_id}", now)
    hide(ws, note_id, now)


def merged_content(winner: str, loser: str) -> str:
    """The winner's lines, then the loser's non-blank lines not already present (stripped)."""
    lines = winner.split("\n") if winner else []
    present = {line.strip() for line in lines}
    for line in loser.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        key = line.strip()
        if key and key not in present:
            present.add(key)
            lines.append(line.rstrip())
    return "\n".join(lines)


def merge(ws: Workspace, winner_id: str, loser_id: str, now: str) -> None:
    winner, loser = ws.edit(winner_id), ws.edit(loser_id)
    content = merged_content(fields.text(winner, "content"), fields.text(loser, "content"))
    winner["content"] = content
    winner["tags"] = list(dict.fromkeys([*fields.tags(winner), *fields.tags(loser)]))
    kept = [link for link in fields.links(winner) if link["to"] != loser_id]
    targets = {link["to"] for link in kept}
    for link in fields.links(loser):
        if link["to"] not in targets and link["to"] not in (winner_id, loser_id):
            kept.append(link)
            targets.add(link["to"])
            ws._note_link(winner_id, link["to"])
    winner["links"] = kept
    winner["hits"] = fields.hits(winner) + fields.hits(loser)
    _stamp(winner, now, rewritten=True)

    loser["hidden"] = True
    loser["archivedAt"] = now
    loser["links"] = [link for link in fields.links(loser) if link["to"] != winner_id] + [
        {"to": winner_id, "reason": f"merged into {winner_id}", "createdAt": now}
    ]
    ws._note_link(loser_id, winner_id)
    _stamp(loser, now)
    _redirect_links(ws, winner_id, loser_id, now)


def _redirect_links(ws: Workspace, winner_id: str, loser_id: str, now: str) -> None:
    """Every other note's link to the loser now points at the winner (one per target)."""
    for position in sorted(ws.referrers(loser_id)):
        note_id = ws.notes[position]["id"]
        if note_id in (winner_id, loser_id):
            continue
        if loser_id not in fields.link_targets(ws.notes[position]):
            continue
        note = ws.edit(note_id)
        has_winner = winner_id in fields.link_targets(note)
        redirected = []
        for link in fields.links(note):
            if link["to"] == loser_id:
                if has_winner:
                    continue
                link = {**link, "to": winner_id}
                has_winner = True
            redirected.append(link)
        note["links"] = redirected
        ws._note_link(note_id, winner_id)
        _stamp(note, now)


def replay(ws: Workspace, op: Operation, now: str) -> None:
    """Replay one operation of a plan on the working set."""
    # The most frequent kinds first: a plan of 100k notes holds ~100k retags and ~50k links.
    if isinstance(op, RetagOp):
        retag(ws, op.note_id, op.tags, now)
    elif isinstance(op, LinkOp):
        add_link(ws, op.note_id, op.other_id, op.reason, now)
        add_link(ws, op.other_id, op.note_id, op.reason, now)
    elif isinstance(op, RewriteOp):
        rewrite(ws, op.note_id, op.content, now)
    elif isinstance(op, MergeOp):
        merge(ws, op.winner_id, op.loser_id, now)
    elif isinstance(op, HideOp):
        hide(ws, op.note_id, now)
    elif isinstance(op, SupersedeOp):
        supersede(ws, op.note_id, op.winner_id, now)
    # a KeepOp changes none of the note's own fields
