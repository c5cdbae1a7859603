"""memory-purifier's store: the store contract (core/contract/) over an OpenClaw
workspace (docs/PURIFIER.md). Reading takes no lock and writes nothing in the workspace; every
write to its notes refuses in one line (ReadOnlyError) before touching anything. The plan
previews the purifier's own next run and applying it runs the purifier itself
(core/stores/purifier/acting.py). Our own runs (the operator's marks: both stand, reviewed,
disputed; a candidate restored into a source file) are journaled in our data directory, outside
the workspace (journal.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Literal

from core.browse.shelf import Shelf
from core.clock import Clock, system_clock
from core.contract.parts import (
    AftermathTeller,
    ByHand,
    Decider,
    Doctor,
    Foresight,
    Promoter,
    Restorer,
    SelfKeeper,
    SideFiles,
    UnhideOutlook,
    VersionKeeper,
)
from core.contract.profile import Profile
from core.contract.store import Opened
from core.errors import NuggetsError
from core.gc_pause import paused_gc
from core.journal.entries import JournalHeader
from core.journal.journal import Journal
from core.models import (
    JournalEntry,
    JournalKind,
    RawNote,
)
from core.notes.snapshot import Graph, fingerprint
from core.review.contradictions import TopicRules
from core.review.decisions import SETTLED_FILE
from core.review.marks import MARKS_FILE, marked, read_marks_and_texts
from core.safeio.file_stamp import FileStamp
from core.settings import DEFAULTS, Settings
from core.stores.purifier import paths, presentation, restore, runner
from core.stores.purifier.acting import PurifierActing
from core.stores.purifier.artifacts import Artifacts, first_rows, read_artifacts
from core.stores.purifier.health import health_lines
from core.stores.purifier.journal import ReviewFiles, ReviewTarget, review_home
from core.stores.purifier.notes import (
    claim_note,
    join_contradictions,
    provenance_problems,
    purifier_notes,
)
from core.stores.purifier.runs import PurifierRun, read_runs
from core.stores.purifier.topics import outdated_groups, purifier_tokens, purifier_topic


class ReadOnlyError(NuggetsError):
    """A write asked of a store that never writes its system's files."""


def refuse(what: str) -> ReadOnlyError:
    return ReadOnlyError(f"{what}: {presentation.READ_ONLY}")


class PurifierStore(PurifierActing):
    """The store contract (core/contract/store.py): it restores rejected and deferred
    candidates; it promotes nothing and takes no decision of ours (the purifier decides)."""

    @property
    def profile(self) -> Profile:
        """Its labels; the cost of a plan names the purifier's code that would run (found
        again after each read, not on every use: a listing asks for it per row)."""
        if self._profile is None or self._profile[0] != self.purifier_scripts:
            self._profile = (
                self.purifier_scripts,
                replace(
                    presentation.PROFILE,
                    plan_cost=runner.announcement(self.home, self.purifier_scripts),
                ),
            )
        return self._profile[1]

    restore_prompt = presentation.RESTORE_PROMPT
    _profile: tuple[Path | None, Profile] | None = None  # the scripts named, its profile
    promoter: Promoter | None = None
    decider: Decider | None = None
    versions: VersionKeeper | None = None
    aftermaths: AftermathTeller | None = None  # the purifier's runs are its own
    foresight: Foresight | None = None  # the purifier runs itself only when asked
    doctor: Doctor | None = None

    def __init__(
        self, workspace: Path, clock: Clock = system_clock, settings: Settings = DEFAULTS
    ) -> None:
        self.home = workspace
        self.clock = clock
        self.settings = settings
        self.notices: list[str] = []
        self._opened: Graph | None = None
        self._profile = None
        self._read: tuple[Hashable, Artifacts] | None = None  # the last read, by its stamp
        home = review_home(workspace, settings.data_home)
        files = ReviewFiles(home, restore.SourceFiles(workspace))
        self.journal = Journal(
            home,
            files,
            home,
            ReviewTarget(home, files),
            self.notices,
            clock,
            program=PurifierLog(self),
            keep=settings.journal_keep,
        )
        self.by_hand: ByHand = self
        self.restorer: Restorer | None = self
        self.keeper: SelfKeeper | None = self
        # the views the previewed run would rewrite (acting.py): no words of their own
        self.side_files: SideFiles | None = SideFiles(
            "", "", "", self.side_file_lines, self.side_file_names
        )

    @property
    def graph_path(self) -> Path:
        return paths.runtime_dir(self.home) / paths.CLAIMS

    @property
    def journal_home(self) -> Path:
        """Ours, outside the workspace (journal.py)."""
        return self.journal.home

    # -- reading ------------------------------------------------------------------------------

    def artifacts(self) -> Artifacts:
        """The workspace's files, read again only when one of them changed since (opening
        asks for them twice: the health lines and the notes); a mark of ours is no reason."""
        stamp = self._workspace_stamp()
        if self._read is not None and self._read[0] == stamp:
            return self._read[1]
        with paused_gc():  # millions of objects, no cycles (core/gc_pause.py)
            found = read_artifacts(self.home)
        self._read = (stamp, found)
        return found

    def runs(self) -> list[PurifierRun]:
        return read_runs(self.home, self.notices)

    def read(self) -> Graph:
        graph, self._opened = self._opened, None
        self._profile = None
        if graph is not None:
            return graph
        found = self.artifacts()
        with paused_gc():
            notes = purifier_notes(found)
        join_contradictions(notes, found.contradictions)
        self.notices += found.notices + provenance_problems(notes, self.home)
        marked(notes, *read_marks_and_texts(self.journal_home, self.notices))
        return Graph(self.graph_path, {"notes": notes}, fingerprint(found.raw))

    def topic_rules(self) -> TopicRules:
        """The purifier's own contradictions: a claim and the claim it contests; those one of
        whose claims is superseded or retired since are listed apart, outdated."""
        return TopicRules(
            purifier_topic,
            purifier_tokens,
            promotion=False,
            outdated=outdated_groups,
            recorded=True,
        )

    def shelf(self) -> Shelf:
        return Shelf(self.read())

    def stamp(self) -> Hashable:
        ours = tuple(FileStamp.of(self.journal_home / name) for name in (MARKS_FILE, SETTLED_FILE))
        return ours + self._workspace_stamp()

    def _workspace_stamp(self) -> tuple[FileStamp | None, ...]:
        runtime = paths.runtime_dir(self.home)
        return tuple(
            FileStamp.of(runtime / name)
            for name in (
                paths.MANIFEST,
                paths.CLAIMS,
                paths.REJECTED,
                paths.DEFERRED,
                paths.CONTRADICTIONS,
            )
        )

    def first_notes(self, count: int) -> list[RawNote]:
        """The first claims of the claims file, read alone while the whole of it is read."""
        return [
            claim_note(c)
            for c in first_rows(self.graph_path, count)
            if isinstance(c.get("id"), str)
        ]

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The purifier's views (a home's own view), or the ledger of rejected/deferred."""
        runtime = paths.runtime_dir(self.home)
        if nugget in ("rejected", "deferred"):
            return [runtime / f"{nugget}-candidates.jsonl"]
        if nugget in paths.VIEWS:
            return [self.home / nugget]
        return [self.home / view for view in paths.VIEWS if (self.home / view).exists()]

    def health(self) -> list[str]:
        """The purifier's silent failures, one line each with what to do."""
        return health_lines(self.artifacts(), self.runs(), self.home, self.clock())

    def take_notices(self) -> list[str]:
        taken = list(dict.fromkeys(self.notices))
        self.notices.clear()  # the list our journal tells too
        return taken

    def recover(self) -> list[str]:
        """What our own journal settled; the health warnings go to the notices."""
        settled = self.journal.recover()
        self.notices += self.health()
        return settled

    def open(self, read: bool = True) -> Opened:
        """Settle our journal; the purifier's health; with `read`, the workspace read once for
        the command (and what that read skipped)."""
        if read:
            return Opened(self.startup_messages() + self.take_notices())
        self.recover()
        return Opened(self.take_notices())

    def startup_messages(self) -> list[str]:
        self.recover()
        with contextlib.suppress(NuggetsError, OSError):
            self._opened = self.read()
        return self.take_notices()

    # -- the journal: our marks' runs, then the purifier's; writes to its notes refused --------

    def log(self) -> list[JournalHeader]:
        """Our own runs (marks, both stand: undoable), newest first, then the purifier's runs
        from the shared memory-log, newest first (never undone here)."""
        return self.journal.log()

    def purifier_log(self) -> list[JournalHeader]:
        return [
            JournalHeader(
                run_id=r.run_id,
                seq=i,
                kind="reflect",
                at=r.at,
                base_fingerprint="",
                result_fingerprint="",
                notes=int(r.details.get("claims_total") or 0),
                summary=r.summary,
                outcome=r.status or r.event or "started",
            )
            for i, r in reversed(list(enumerate(self.runs(), start=1)))
        ]

    def run(self, run_id: str) -> JournalEntry:
        return self.journal.run(run_id)

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        return self.journal.lock()

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        return UnhideOutlook()  # nothing is unhidden here

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        raise refuse("archive")

    def undo(self, run_id: str) -> JournalEntry:
        """Undo a run of ours (a mark); the purifier's own runs are never undone here."""
        return self.journal.undo(run_id)

    def undo_blockers(
        self, run_id: str, graph: Graph | None = None
    ) -> tuple[JournalEntry, list[str]]:
        return self.journal.blockers(run_id, graph)

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """A small file of ours beside our journal, outside the workspace (journal.py)."""
        return self.journal.write_file(path, before, after, kind, summary)


class PurifierLog:
    """The purifier's own runs, from the shared memory-log: our journal lists them after ours
    (core/journal/journal.py), and never shows one whole nor takes it back."""

    def __init__(self, store: PurifierStore) -> None:
        self.store = store

    def headers(self) -> list[JournalHeader]:
        return self.store.purifier_log()

    def refused(self, run_id: str, asked: Literal["run", "undo"]) -> NuggetsError:
        if asked == "run":
            return NuggetsError(f"{run_id}: a purifier run holds no journal of notes; see `log`")
        return refuse(f"undo {run_id} (a run of the purifier's own)")
