"""The only writes into a Claude Code memory directory: putting back the reviewed version of a
change left out (apply), a deleted topic file with its index line (unhide), and undoing such a
run. Each file is one journaled run of the journal (core/journal/journal.py), written only if
the file is still as it was read (a file the agent changed meanwhile is never overwritten); the
runs of one operation share a batch, undone together. The journal lives outside the directory,
beside the record of what was seen (`ClaudeTarget`: what the journal settles and undoes here)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from core.clock import shown_time
from core.errors import NuggetsError
from core.journal.guarded_write import directory_lock, graph_lock
from core.journal.journal import Batch, FileTarget, Journal
from core.journal.own_files import OwnFile, plain_name
from core.models import JournalEntry, JournalKind
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, current_fingerprint, fingerprint
from core.stores.claude import index
from core.stores.claude.budget import Proposal
from core.stores.claude.directory import is_memory_path, text_of, walk
from core.stores.claude.merge import Merge
from core.stores.claude.notes import Gone
from core.stores.claude.paths import INDEX
from core.stores.claude.seen import STATES, SeenRecord

REVERT = "put back the reviewed version of"  # a revert's summary: its undo is the agent's again


class ClaudeFiles:
    """The files a run may write: the memory files of the directory (MEMORY.md, the topic
    files beside it and in its subfolders), by their path in it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def named(self, name: str) -> OwnFile | None:
        if all(plain_name(part) for part in name.split("/")) and is_memory_path(name):
            return OwnFile(name, self.directory / name, self.directory)
        return None

    def at(self, path: Path) -> OwnFile | None:
        relative = os.path.relpath(path, os.path.abspath(self.directory))
        found = self.named(relative.replace(os.sep, "/"))
        if found and os.path.abspath(found.path) == str(path):
            return found
        return None


def index_line(gone: Gone, earlier: index.Entry | None) -> str:
    if earlier is not None:
        return earlier.text
    return index.entry_line(gone.version.name, "")


class ClaudeRuns:
    """The runs of one operation on the directory (an apply, an unhide), written through the
    journal as one `batch`: undone together."""

    def __init__(self, directory: Path, journal: Journal, batch: Batch | None = None) -> None:
        self.directory, self.journal, self.batch = directory, journal, batch

    def write(
        self,
        name: str,
        before: str | None,
        after: str | None,
        base: str,
        summary: str,
        kind: JournalKind = "reflect",
    ) -> JournalEntry:
        """One file of the directory replaced (`after` None: removed), one run of the batch."""
        if after is not None:  # a file put back into a folder the agent removed
            (self.directory / name).parent.mkdir(parents=True, exist_ok=True)
        return self.journal.replace(
            self.directory / name, before, after, base, kind, summary, batch=self.batch
        )

    def restore(self, gone: list[Gone], earlier: dict[str, index.Entry]) -> JournalEntry | None:
        """Each file back as last seen (one run each), then the index lines it lost (one run)."""
        texts = {}
        for item in gone:
            try:
                texts[item.version.name] = item.data.decode("utf-8")
            except UnicodeDecodeError:
                raise NuggetsError(
                    f"{item.version.name}: its last version is not UTF-8 text; nothing was restored"
                ) from None
        last = None
        with directory_lock(self.directory / INDEX):
            for item in gone:
                name = item.version.name
                last = self.write(
                    name,
                    None,
                    texts[name],
                    EMPTY_FINGERPRINT,
                    f"put back {name} as last seen {shown_time(item.version.at)}",
                    "unhide",
                )
            last = self._relink(gone, earlier) or last
        if last is None:
            return None
        # what the front ends count as brought back (the journal holds the files' texts)
        return last.model_copy(
            update={
                "after": {
                    g.version.name: {"id": g.version.name, "title": g.version.name} for g in gone
                }
            }
        )

    def _relink(self, gone: list[Gone], earlier: dict[str, index.Entry]) -> JournalEntry | None:
        path = self.directory / INDEX
        before_bytes = path.read_bytes() if path.is_file() else None
        before = text_of(before_bytes) if before_bytes is not None else None
        listed = index.Names(
            name for e in index.entries(before or "") if (name := index.topic_name(e.target))
        )
        missing = [
            index_line(g, earlier.get(g.version.name)) for g in gone if g.version.name not in listed
        ]
        if not missing:
            return None
        head = before or ""
        after = head + ("" if not head or head.endswith("\n") else "\n") + "\n".join(missing) + "\n"
        base = EMPTY_FINGERPRINT if before_bytes is None else fingerprint(before_bytes)
        names = ", ".join(g.version.name for g in gone)
        return self.write(
            INDEX, before, after, base, f"put back the index lines of {names}", "unhide"
        )

    def revert(self, files: list[tuple[str, bytes | None, bytes | None]]) -> JournalEntry | None:
        """Put each file (name, as it is, as reviewed) back as reviewed, one run each."""
        texts = []
        for name, now, reviewed in files:
            try:
                texts.append(
                    (
                        name,
                        now,
                        None if now is None else now.decode("utf-8"),
                        None if reviewed is None else reviewed.decode("utf-8"),
                    )
                )
            except UnicodeDecodeError:
                raise NuggetsError(f"{name}: not UTF-8 text; nothing was put back") from None
        last = None
        with directory_lock(self.directory / INDEX):
            for name, now, before, after in texts:
                base = EMPTY_FINGERPRINT if now is None else fingerprint(now)
                last = self.write(name, before, after, base, f"{REVERT} {name}")
        return last

    def merge(self, merge: Merge, kept_now: bytes, removed_now: bytes) -> JournalEntry:
        """A merge: the kept file with the other one's lines folded in, then the other file
        removed, one run each (its index lines go with MEMORY.md's own run)."""
        with directory_lock(self.directory / INDEX):
            self.write(
                merge.kept,
                kept_now.decode("utf-8"),
                merge.text,
                fingerprint(kept_now),
                f"merged {merge.removed} into {merge.kept}",
            )
            return self.write(
                merge.removed,
                removed_now.decode("utf-8"),
                None,
                fingerprint(removed_now),
                f"removed {merge.removed}, merged into {merge.kept}",
            )

    def rewrite_index(
        self, index_now: bytes, text: str, proposal: Proposal | None, fixes: int, merges: int = 0
    ) -> JournalEntry:
        """Our own edit of MEMORY.md (hygiene fixes, merges, the budget proposal): the topic
        files the proposal writes first, then MEMORY.md, one run each."""
        after = proposal.index_text if proposal else text
        what = [f"{fixes} hygiene fix(es)"] if fixes else []
        what += [f"the entries of {merges} merged file(s) removed"] if merges else []
        with directory_lock(self.directory / INDEX):
            if proposal is not None:
                what.append("brought into its budget")
            for moved in proposal.files if proposal else ():
                self.write(
                    moved.name,
                    moved.before,
                    moved.after,
                    EMPTY_FINGERPRINT
                    if moved.before is None
                    else fingerprint(moved.before.encode("utf-8")),
                    f"moved {moved.lines} lines of {INDEX} to {moved.name}",
                )
            return self.write(
                INDEX,
                text_of(index_now),
                after,
                fingerprint(index_now),
                f"{INDEX}: {', '.join(what)}",
            )


class ClaudeTarget(FileTarget):
    """What the journal (core/journal/journal.py) writes for a Claude Code directory: its
    `*.md` files, one whole file a run; our record of what was seen is ours to clear.
    `accepted`: the store's step once a run is undone (the reviewed baseline follows it);
    `look`: the store's record of the directory as it now is."""

    def __init__(
        self,
        directory: Path,
        seen: SeenRecord,
        accepted: Callable[[JournalEntry], None],
        look: Callable[[], object],
        may_write: Callable[[], None] = lambda: None,
    ) -> None:
        self.directory, self.seen, self.accepted, self.look = directory, seen, accepted, look
        self.may_write = may_write  # refuses an undo the directory cannot take now

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The directory's writers (its folder locked, nothing added to it), then the record's
        (a record being written keeps its temporary files)."""
        with contextlib.ExitStack() as stack:
            if self.directory.is_dir():
                stack.enter_context(directory_lock(self.directory / INDEX))
            stack.enter_context(graph_lock(self.seen.root / STATES))
            yield

    def files(self) -> list[Path]:
        # a file being created: its pending entry names it
        names = walk(self.directory)[0]
        return [self.directory / INDEX] + [self.directory / n for n in names if n != INDEX]

    def folders(self) -> list[Path]:
        return [self.seen.root, self.seen.blobs]

    def restore(self, journal: Journal, entry: JournalEntry, batch: Batch | None) -> JournalEntry:
        self.may_write()
        if entry.file_before is not None and ClaudeFiles(self.directory).named(
            entry.file_name or ""
        ):  # a file put back into a folder removed since
            (self.directory / (entry.file_name or "")).parent.mkdir(parents=True, exist_ok=True)
        done = journal.undo_file(entry, batch)
        self.accepted(entry)
        return done

    def blockers(self, entry: JournalEntry, graph: Graph | None) -> list[str]:
        """The file the run wrote (its note id), when it changed since."""
        path = self.directory / (entry.file_name or "")
        if current_fingerprint(path) != entry.result_fingerprint:
            return [entry.file_name or ""]
        return []

    def undone(self) -> None:
        self.look()
