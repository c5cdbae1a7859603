"""What the bot did since to the rows our runs wrote (core/journal/aftermath.py).

The bot keeps working after a run of ours: its reflector DELETEs expired rows, archives stale
and over-cap ones, and, when a memory it extracts matches a row, rewrites that row and sets
`is_archived = 0` on it, archived or not (MicroClaw's `apply_reflector_extractions` and
`update_memory_with_metadata`). Each row is compared with the after-image of the newest run
of ours that wrote it: what differs is the bot's doing, told for that run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from core.journal.aftermath import Aftermath
from core.journal.entries import JournalHeader
from core.stores.microclaw.write import IMAGED, Row, same

SHOWN = 10  # row ids named in one line per kind

# What the bot did to a row, as the line and the note's detail say it.
_LINE = {
    "deleted": "deleted {ids} (an undo cannot bring them back)",
    "restored": "brought back {ids} (a memory its reflector extracted matched them)",
    "archived": "archived again {ids} (its stale step or a cap)",
    "changed": "changed {ids}",
}
_NOTE = {
    "restored": "Brought back by the bot since run {run} archived it: a memory its reflector "
    "extracted matched this one, and the bot un-archives the row it matches.",
    "archived": "Archived again by the bot since run {run} left it visible (its stale step "
    "or a cap).",
    "changed": "Changed by the bot since run {run}: {columns}.",
}


def newest_images(
    headers: Sequence[JournalHeader],
    images_of: Callable[[str], Mapping[int, Row] | None],
) -> dict[int, tuple[str, Row]]:
    """Each row any of these runs wrote (headers newest first): the newest run's id and the
    row as it left it. A file run writes no row; a run that cannot be read is skipped."""
    latest: dict[int, tuple[str, Row]] = {}
    for header in headers:
        if header.file_name is not None:
            continue
        for number, row in (images_of(header.run_id) or {}).items():
            latest.setdefault(number, (header.run_id, row))
    return latest


def what_became(row: Row | None, image: Row) -> tuple[str, list[str]] | None:
    """What the bot did to a row a run left as `image`, and the columns it changed (pure)."""
    if row is None:
        return "deleted", []
    was = bool(image.get("is_archived"))
    now = bool(row.get("is_archived", was))
    changed = [n for n in IMAGED if n in row and n in image and not same(row, image, (n,))]
    if was and not now:
        return "restored", changed
    if now and not was:
        return "archived", changed
    return ("changed", changed) if changed else None


def aftermaths(
    latest: Mapping[int, tuple[str, Row]], current: Mapping[int, Row], newest: str | None = None
) -> dict[str, Aftermath]:
    """Each run whose rows the bot changed since, by run id; `newest`: the journal's newest
    run (pure)."""
    found: dict[str, dict[str, list[str]]] = {}
    notes: dict[str, dict[str, str]] = {}
    for number, (run_id, image) in sorted(latest.items()):
        became = what_became(current.get(number), image)
        if became is None:
            continue
        kind, columns = became
        note = f"mc-{number}"
        found.setdefault(run_id, {}).setdefault(kind, []).append(note)
        if kind in _NOTE:
            notes.setdefault(run_id, {})[note] = _NOTE[kind].format(
                run=run_id, columns=", ".join(columns)
            )
    return {
        run_id: Aftermath(
            run_id,
            deleted=tuple(kinds.get("deleted", ())),
            archived=tuple(kinds.get("archived", ())),
            restored=tuple(kinds.get("restored", ())),
            changed=tuple(kinds.get("changed", ())),
            line=said(kinds),
            notes=notes.get(run_id, {}),
            newest=run_id == newest,
        )
        for run_id, kinds in found.items()
    }


def said(kinds: Mapping[str, list[str]]) -> str:
    """One line: what the bot did since, kind by kind."""
    parts = []
    for kind, template in _LINE.items():
        ids = kinds.get(kind) or []
        if ids:
            shown = ", ".join(ids[:SHOWN]) + (
                f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else ""
            )
            parts.append(template.format(ids=shown))
    return "since this run the bot " + "; ".join(parts)
