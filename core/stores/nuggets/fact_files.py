"""Fact files, mirrored: what a change to a fact note means for the agent's `<name>.donna.json`.

The agent keeps each nugget's facts in `<home>/<name>.donna.json` (older: `.nugget.json`) and,
every time it starts, re-creates each fact's note from its fact: un-archived, content = value,
hits = the fact's hits. A change the engine makes to a fact note survives only if the fact says
the same: archiving or merging away a fact note removes its fact; rewriting its content sets the
value; a merge's summed hits go to the winner's fact; unhiding puts the fact back.

Deciding (`fact_edits`, `edited_doc`, `undo_edits`) is pure; reading and the bytes a write puts
on disk are here too, so that the agent reads back exactly what it writes itself (compact JSON,
no newline). The file names its nugget in its `name` field, as the agent reads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import NuggetsError
from core.models import FactEdit, RawNote
from core.notes import fields
from core.notes.snapshot import fingerprint, json_bytes
from core.safeio.json_read import loads
from core.safeio.open_regular import GRAPH_BYTES, read_regular

SUFFIXES = (".donna.json", ".nugget.json")  # the agent's current name first


@dataclass(repr=False)
class FactFile:
    path: Path
    doc: dict[str, Any]
    fingerprint: str
    text: str = ""  # as read: put back as it was if a run never lands

    @property
    def name(self) -> str | None:
        name = self.doc.get("name")
        return name if isinstance(name, str) else None

    @property
    def facts(self) -> list[dict[str, Any]]:
        facts = self.doc.get("facts")
        return facts if isinstance(facts, list) else []


def fact_file_paths(home: Path) -> list[Path]:
    if not home.is_dir():
        return []
    return sorted(p for suffix in SUFFIXES for p in home.glob("*" + suffix) if p.is_file())


def read_fact_file(path: Path) -> FactFile | None:
    """The file as the agent reads it; None when the agent could not read it either (it skips
    such a file, and so do we: there is no fact in it to keep in step)."""
    try:
        data = read_regular(path, GRAPH_BYTES)  # a pipe or device by that name is refused
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        doc = loads(data.decode("utf-8"))
    except ValueError:  # not UTF-8, not JSON, nested past what a parser follows
        return None
    if not isinstance(doc, dict):
        return None
    return FactFile(path, doc, fingerprint(data), data.decode("utf-8"))


def read_fact_files(home: Path, nuggets: Iterable[str] | None = None) -> list[FactFile]:
    """The readable fact files of the home (of these nuggets only, when named)."""
    wanted = None if nuggets is None else set(nuggets)
    found = []
    for path in fact_file_paths(home):
        file = read_fact_file(path)
        if file is not None and file.name is not None and (wanted is None or file.name in wanted):
            found.append(file)
    return found


def dump_fact_doc(doc: dict[str, Any]) -> bytes:
    """As the agent's `JSON.stringify(data)`: compact, no trailing newline."""
    return json_bytes(doc, indent=False)[:-1]  # numbers as read, strict JSON


def _key(note: RawNote) -> str | None:
    key = note.get("sourceKey")
    if note.get("kind") != "fact" or not isinstance(key, str) or not key:
        return None
    return key


def fact_of(facts: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    """The fact of this key (keys match whatever their case, as the agent's do); None: none."""
    position = _find(facts, key)
    return None if position is None else facts[position]


def _find(facts: list[dict[str, Any]], key: str) -> int | None:
    lower = key.lower()
    for position, fact in enumerate(facts):
        if (
            isinstance(fact, dict)
            and isinstance(fact.get("key"), str)
            and fact["key"].lower() == lower
        ):
            return position
    return None


def _updated(fact: dict[str, Any], before: RawNote, after: RawNote) -> dict[str, Any]:
    new = dict(fact)
    if fields.text(before, "content") != fields.text(after, "content"):
        new["value"] = fields.text(after, "content")
    if fields.hits(before) != fields.hits(after):
        new["hits"] = fields.hits(after)
    return new


def _restored(note: RawNote, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "value": fields.text(note, "content"),
        "hits": fields.hits(note),
        "last_hit_session": fields.text(note, "lastHitSession"),
    }


def fact_edits(changes: Iterable[tuple[RawNote, RawNote]], files: list[FactFile]) -> list[FactEdit]:
    """The fact edits that keep the fact files in step with these note changes (before, after).

    A nugget may have both a `.donna.json` and an older `.nugget.json` (the agent reads both):
    a fact is removed or updated wherever it stands, and put back only in the first file.
    """
    by_nugget: dict[str, list[FactFile]] = {}
    for file in files:
        by_nugget.setdefault(file.name or "", []).append(file)
    facts = {file.path: list(file.facts) for file in files}
    edits: list[FactEdit] = []
    new: dict[str, Any] | None  # the fact as the edit leaves it; None: removed
    for before, after in changes:
        key = _key(after)
        if key is None:
            continue
        visible = not fields.hidden(after)
        if not visible and fields.hidden(before):
            continue  # still archived: the fact (if any) stays as the agent has it
        for number, file in enumerate(by_nugget.get(fields.nugget(after), [])):
            current = facts[file.path]
            position = _find(current, key)
            if position is None:
                if not (visible and fields.hidden(before) and number == 0):
                    continue
                new, position = _restored(after, key), len(current)
                current.append(new)
                old = None
            else:
                old = current[position]
                new = _updated(old, before, after) if visible else None
                if new == old:
                    continue
                if new is None:
                    current.pop(position)
                else:
                    current[position] = new
            edits.append(
                FactEdit(
                    path=file.path.name,
                    note_id=after["id"],
                    key=key,
                    before=old,
                    after=new,
                    position=position,
                )
            )
    return edits


def edited_doc(doc: dict[str, Any], edits: Iterable[FactEdit]) -> dict[str, Any]:
    """The fact file with the edits made in order (each as `fact_edits` decided it)."""
    facts = list(doc.get("facts") or [])
    for edit in edits:
        position = _find(facts, edit.key)
        if edit.after is None:
            if position is not None:
                facts.pop(position)
        elif position is None:
            facts.insert(min(edit.position, len(facts)), edit.after)
        else:
            facts[position] = edit.after
    return {**doc, "facts": facts}


def undo_edits(edits: list[FactEdit]) -> list[FactEdit]:
    """The edits that put each fact back as it was, newest first."""
    return [
        edit.model_copy(update={"before": edit.after, "after": edit.before})
        for edit in reversed(edits)
    ]


def changed_facts(doc: dict[str, Any], edits: Iterable[FactEdit]) -> list[str]:
    """Keys of the facts that no longer stand as the edits left them (for undo)."""
    facts = list(doc.get("facts") or [])
    changed = []
    for edit in edits:
        position = _find(facts, edit.key)
        now = None if position is None else facts[position]
        if now != edit.after:
            changed.append(edit.key)
    return changed


def describe(edit: FactEdit) -> str:
    """One line for a person: what the edit does to the fact file."""
    name = Path(edit.path).name
    if edit.after is None:
        return f"fact {edit.key!r} removed from {name} (else the agent restores the note)"
    if edit.before is None:
        return f"fact {edit.key!r} put back in {name}"
    parts = [
        f"{field} -> {edit.after.get(field)!r}"
        for field in ("value", "hits")
        if edit.after.get(field) != edit.before.get(field)
    ]
    return f"fact {edit.key!r} in {name}: " + ", ".join(parts)


def nugget_file_names(home: Path) -> list[str]:
    """Names of the fact files (<name>.donna.json, <name>.nugget.json): nuggets too."""
    if not home.is_dir():
        return []
    return sorted(
        {
            p.name[: -len(suffix)]
            for p in fact_file_paths(home)
            for suffix in SUFFIXES
            if p.name.endswith(suffix)
        }
    )
