"""The operator's marks on notes, for decisions a memory system has no input for (a claim
"reviewed" or "disputed"): kept by us in a small file beside the store's journal
(`<journal home>/note-marks.json`), never in the system's own files, written as a journaled run of
the store (kind "decide") that undo takes back. A store offers them when it declares the
`marks` capability (docs/STORES.md); its notes then carry their mark under `mark`.

API:
- `read_marks(journal_home, notices=None) -> dict[str, str]` (note id -> mark)
- `read_marks_and_texts(journal_home, notices=None) -> (marks, texts)`: the marks, and note id ->
  hash of the text it was marked on, from one read of the file
- `marked(notes, marks, texts={})`: each note with a mark gets it under `mark`, and
  `markOnEarlierText: true` when its text changed since it was marked
- `mark_notes(store, note_ids, mark, texts={}) -> JournalEntry | None` (`mark` None: cleared; None
  when nothing changes; `texts`: the notes' texts now, note id -> text)

A mark is keyed on the note's id: a note the system rewrites under the same id keeps its mark
(flagged as on an earlier text); one it rewrites under a new id leaves the mark on the old note.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from core.contract.store import Store
from core.errors import NuggetsError
from core.journal.entries import journal_dir
from core.models import JournalEntry, RawNote
from core.safeio.json_read import JsonReadError, loads
from core.safeio.open_regular import read_regular

Mark = Literal["reviewed", "disputed"]
MARKS: tuple[Mark, ...] = ("reviewed", "disputed")
MARKS_FILE = "note-marks.json"
MARKS_BYTES = 16 * 1024 * 1024
MARKS_DEPTH = 2  # {"marks": {"<note id>": "<mark>"}, "texts": {"<note id>": "<text hash>"}}


def marks_path(journal_home: Path) -> Path:
    return journal_dir(journal_home).parent / MARKS_FILE


def read_marks(journal_home: Path, notices: list[str] | None = None) -> dict[str, str]:
    """The marks (none when the file is absent): read_marks_and_texts' first half."""
    return read_marks_and_texts(journal_home, notices)[0]


def read_marks_and_texts(
    journal_home: Path,
    notices: list[str] | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The marks and the hash of the text each note was marked on (none when the file is
    absent). With `notices`, a file that cannot be read is said there in one line and read as
    no marks; without, it is an error (marking is then refused: the file is never written
    over)."""
    try:
        marks, _, texts = _read(marks_path(journal_home))
    except NuggetsError as exc:
        if notices is None:
            raise
        notices.append(f"{exc}; no note is shown marked until then")
        return {}, {}
    return marks, texts


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _read(path: Path) -> tuple[dict[str, str], str | None, dict[str, str]]:
    """The marks, the file's text (None: no file) and the hashes of the marked texts."""
    try:
        data = read_regular(path, MARKS_BYTES)
    except FileNotFoundError:
        return {}, None, {}
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
        stored = loads(text, MARKS_DEPTH)
        found, texts = stored["marks"], stored.get("texts", {})
        if not isinstance(found, dict) or not isinstance(texts, dict):
            raise TypeError("marks is not an object")
        return (
            {str(k): str(v) for k, v in found.items() if v in MARKS},
            text,
            {str(k): str(v) for k, v in texts.items()},
        )
    except (ValueError, KeyError, TypeError) as exc:
        why = f" ({exc})" if isinstance(exc, JsonReadError) else ""
        raise NuggetsError(f"{path}: not a file of note marks{why}; move it aside") from None


def marked(
    notes: Iterable[RawNote], marks: Mapping[str, str], texts: Mapping[str, str] | None = None
) -> None:
    """Give each note its mark (under `mark`), in place; flag a mark given to an earlier text."""
    if not marks:
        return
    for note in notes:
        mark = marks.get(note["id"])
        if mark is None:
            continue
        note["mark"] = mark
        was = (texts or {}).get(note["id"])
        if was is not None and was != text_hash(str(note.get("content") or "")):
            note["markOnEarlierText"] = True


def mark_notes(
    store: Store, note_ids: Iterable[str], mark: Mark | None, texts: Mapping[str, str] | None = None
) -> JournalEntry | None:
    """Mark the notes (None: clear their marks) as a journaled run of the store, with the
    hash of each one's text in `texts`; None when every one is already so."""
    ids, texts = list(dict.fromkeys(note_ids)), texts or {}
    path = marks_path(store.journal.home)
    marks, before, hashes = _read(path)
    after_marks = {i: m for i, m in marks.items() if i not in ids}
    after_hashes = {i: h for i, h in hashes.items() if i not in ids}
    if mark is not None:
        after_marks.update(dict.fromkeys(ids, mark))
        after_hashes.update({i: text_hash(texts[i]) for i in ids if i in texts})
    if after_marks == marks and after_hashes == hashes:
        return None
    content: dict[str, Any] = {"marks": dict(sorted(after_marks.items()))}
    if after_hashes:
        content["texts"] = dict(sorted(after_hashes.items()))
    after = json.dumps(content, indent=2) + "\n"
    what = f"marked {mark}" if mark else "cleared the mark of"
    shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    return store.journal.write_file(path, before, after, "decide", f"{what}: {shown}")
