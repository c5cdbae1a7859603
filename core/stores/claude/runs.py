"""The only writes into a Claude Code memory directory: putting back the reviewed version of a
change left out (apply), a deleted topic file with its index line (unhide), and undoing such a
run. Each file is one journaled run (core/journal/journaled_write.py), written only if the file
is still as it was read (a file the agent changed meanwhile is never overwritten); the runs of
one operation share a batch, undone together. The journal lives outside the directory."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from core.errors import NuggetsError
from core.journal.entries import pending_entries, remove_temp_files
from core.journal.guarded_write import directory_lock, has_leftovers, settle
from core.journal.journaled_write import Batch, FileRuns, settle_file_run
from core.journal.own_files import OwnFile, plain_name
from core.models import JournalEntry
from core.notes.snapshot import EMPTY_FINGERPRINT, current_fingerprint, fingerprint
from core.settings import DEFAULT_KEEP
from core.stores.claude import index
from core.stores.claude.budget import Proposal
from core.stores.claude.directory import text_of
from core.stores.claude.merge import Merge
from core.stores.claude.notes import Gone
from core.stores.claude.paths import INDEX

REVERT = "put back the reviewed version of"  # a revert's summary: its undo is the agent's again


class ClaudeFiles:
    """The files a run may write: `*.md` files directly in the memory directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def named(self, name: str) -> OwnFile | None:
        if plain_name(name) and name.endswith(".md"):
            return OwnFile(name, self.directory / name, self.directory)
        return None

    def at(self, path: Path) -> OwnFile | None:
        found = self.named(path.name)
        if found and os.path.abspath(found.path) == str(path):
            return found
        return None


def index_line(gone: Gone, earlier: index.Entry | None) -> str:
    if earlier is not None:
        return earlier.text
    name = gone.version.name
    return f"- [{name.removesuffix('.md')}]({name})"


class ClaudeRuns:
    """`batch`: the operation the runs written through here belong to (an apply, an unhide,
    an undo of one): undone together. `keep`: the runs the journal keeps."""

    def __init__(self, directory: Path, journal_home: Path, files: ClaudeFiles,
                 notices: list[str], now: Callable[[], str], batch: Batch | None = None,
                 keep: int = DEFAULT_KEEP) -> None:
        self.directory, self.journal_home, self.files = directory, journal_home, files
        self.notices, self.now, self.batch, self.keep = notices, now, batch, keep

    @property
    def file_runs(self) -> FileRuns:
        return FileRuns(self.journal_home, self.files, self.directory, self.notices, self.batch,
                        self.keep)

    def restore(self, gone: list[Gone], earlier: dict[str, index.Entry]) -> JournalEntry | None:
        """Each file back as last seen (one run each), then the index lines it lost (one run)."""
        texts = {}
        for item in gone:
            try:
                texts[item.version.name] = item.data.decode("utf-8")
            except UnicodeDecodeError:
                raise NuggetsError(f"{item.version.name}: its last version is not UTF-8 text; "
                                   "nothing was restored") from None
        last = None
        with directory_lock(self.directory / INDEX):
            for item in gone:
                name = item.version.name
                last = self.file_runs.write(self.directory / name, None, texts[name],
                                            EMPTY_FINGERPRINT, "unhide", self.now(),
                                            summary=f"put back {name} as last seen "
                                                    f"{item.version.at}")
            last = self._relink(gone, earlier) or last
        if last is None:
            return None
        # what the front ends count as brought back (the journal holds the files' texts)
        return last.model_copy(update={"after": {
            g.version.name: {"id": g.version.name, "title": g.version.name} for g in gone}})

    def _relink(self, gone: list[Gone], earlier: dict[str, index.Entry]) -> JournalEntry | None:
        path = self.directory / INDEX
        before_bytes = path.read_bytes() if path.is_file() else None
        before = text_of(before_bytes) if before_bytes is not None else None
        listed = {index.topic_name(e.target) for e in index.entries(before or "")}
        missing = [index_line(g, earlier.get(g.version.name)) for g in gone
                   if g.version.name not in listed]
        if not missing:
            return None
        head = before or ""
        after = head + ("" if not head or head.endswith("\n") else "\n") + "\n".join(missing) + "\n"
        base = EMPTY_FINGERPRINT if before_bytes is None else fingerprint(before_bytes)
        names = ", ".join(g.version.name for g in gone)
        return self.file_runs.write(path, before, after, base, "unhide", self.now(),
                                    summary=f"put back the index lines of {names}")

    def revert(self, files: list[tuple[str, bytes | None, bytes | None]]) -> JournalEntry | None:
        """Put each file (name, as it is, as reviewed) back as reviewed, one run each."""
        texts = []
        for name, now, reviewed in files:
            try:
                texts.append((name, now, None if now is None else now.decode("utf-8"),
                              None if reviewed is None else reviewed.decode("utf-8")))
            except UnicodeDecodeError:
                raise NuggetsError(f"{name}: not UTF-8 text; nothing was put back") from None
        last = None
        with directory_lock(self.directory / INDEX):
            for name, now, before, after in texts:
                base = EMPTY_FINGERPRINT if now is None else fingerprint(now)
                last = self.file_runs.write(self.directory / name, before, after, base,
                                            "reflect", self.now(),
                                            summary=f"{REVERT} {name}")
        return last

    def merge(self, merge: Merge, kept_now: bytes, removed_now: bytes) -> JournalEntry:
        """A merge: the kept file with the other one's lines folded in, then the other file
        removed, one run each (its index lines go with MEMORY.md's own run)."""
        with directory_lock(self.directory / INDEX):
            self.file_runs.write(self.directory / merge.kept, kept_now.decode("utf-8"),
                                 merge.text, fingerprint(kept_now), "reflect", self.now(),
                                 summary=f"merged {merge.removed} into {merge.kept}")
            return self.file_runs.write(self.directory / merge.removed,
                                        removed_now.decode("utf-8"), None,
                                        fingerprint(removed_now), "reflect", self.now(),
                                        summary=f"removed {merge.removed}, merged into "
                                                f"{merge.kept}")

    def rewrite_index(self, index_now: bytes, text: str, proposal: Proposal | None,
                      fixes: int, merges: int = 0) -> JournalEntry:
        """Our own edit of MEMORY.md (hygiene fixes, merges, the budget proposal): the
        proposal's new topic file first, then MEMORY.md, one run each."""
        after = proposal.index_text if proposal else text
        what = [f"{fixes} hygiene fix(es)"] if fixes else []
        what += [f"the entries of {merges} merged file(s) removed"] if merges else []
        with directory_lock(self.directory / INDEX):
            if proposal is not None:
                what.append("brought into its budget")
                self.file_runs.write(self.directory / proposal.detail_name, None,
                                     proposal.detail_text, EMPTY_FINGERPRINT, "reflect",
                                     self.now(), summary=f"moved {proposal.moved} lines of "
                                                         f"{INDEX} to {proposal.detail_name}")
            return self.file_runs.write(self.directory / INDEX, text_of(index_now), after,
                                        fingerprint(index_now), "reflect", self.now(),
                                        summary=f"{INDEX}: {', '.join(what)}")

    def undo(self, entry: JournalEntry) -> JournalEntry:
        return self.file_runs.undo(entry, self.now())

    def blockers(self, entry: JournalEntry) -> list[str]:
        """The file the run wrote (its note id), when it changed since."""
        path = self.directory / (entry.file_name or "")
        if current_fingerprint(path) != entry.result_fingerprint:
            return [entry.file_name or ""]
        return []

    def recover(self) -> list[str]:
        """Settle what an interrupted run left: a pending journal entry becomes the run's entry
        exactly when its file landed, and leftovers beside the directory's files are settled."""
        said = remove_temp_files(self.journal_home) if self.journal_home.is_dir() else []
        pending = pending_entries(self.journal_home, self.files)
        targets = {self.directory / p.entry.file_name for p in pending
                   if p.entry is not None and p.entry.file_name
                   and self.files.named(p.entry.file_name)}
        decided = [settle_file_run(p, self.files) for p in pending]
        with contextlib.suppress(OSError):  # a file being created: its pending entry names it
            targets |= {p for p in self.directory.iterdir() if p.name.endswith(".md")}
        for path in sorted(targets):
            if has_leftovers(path):
                with directory_lock(path):
                    said += settle(path)
        said += decided
        self.notices += said
        return said

