"""Claude Code's store: the store contract (core/contract/) over an auto-memory
directory (docs/CLAUDE_CODE.md). Every read first records what it sees beside our journal,
outside the directory (seen.py); the plan is the agent's changes since the last review
(changes.py). The directory itself is written only by an apply, an unhide or an undo the
operator asked for (runs.py), journaled and checked at the last moment."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Collection, Hashable, Iterable
from pathlib import Path

from core.clock import Clock, system_clock, to_iso
from core.contract.parts import (
    AftermathTeller,
    ByHand,
    Decider,
    Doctor,
    Foresight,
    KeptVersion,
    Promoter,
    Restorer,
    SelfKeeper,
    SideFiles,
    UnhideOutlook,
    VersionKeeper,
)
from core.contract.profile import Profile
from core.contract.store import Chooser, Opened
from core.errors import NuggetsError, StalePlanError
from core.journal.entries import JournalHeader
from core.journal.journal import Batch, Journal
from core.models import (
    JournalEntry,
    JournalKind,
    Plan,
    RawNote,
    RewriteOp,
    operation_note_ids,
)
from core.notes.snapshot import Graph
from core.progress import Progress
from core.promotion import ledger
from core.promotion.claude_folder import memory_folder
from core.review.contradictions import TopicRules, token_set
from core.safeio.atomic_write import TEMP_SUFFIX
from core.safeio.file_stamp import FileStamp
from core.safeio.private import make_folder
from core.settings import DEFAULTS, Settings
from core.stores.claude import index, presentation
from core.stores.claude.budget import Proposal, propose
from core.stores.claude.changes import (
    add_budget_proposal,
    add_fixes,
    add_merges,
    changes_plan,
    changes_since,
    file_note,
    files_fingerprint,
    lines_of,
    merged_index,
)
from core.stores.claude.directory import Files, read_files, text_of, walk
from core.stores.claude.dream import Dream, read_dream, wait_out
from core.stores.claude.hygiene import Fix, fixed, fixes
from core.stores.claude.merge import Merge, merges
from core.stores.claude.notes import INDEX_NUGGET, Gone, read_notes
from core.stores.claude.paths import INDEX, record_home
from core.stores.claude.runs import REVERT, ClaudeFiles, ClaudeRuns, ClaudeTarget
from core.stores.claude.seen import SeenRecord, State, sha


class RefusedError(NuggetsError):
    """A write this store does not make."""


def refuse(what: str) -> RefusedError:
    return RefusedError(f"{what}: {presentation.PROFILE.refusal}")


class ClaudeStore:
    """The store contract (core/contract/store.py): it keeps every version seen and writes
    other files with a change (hygiene, the budget, merges); it promotes nothing (the agent
    writes MEMORY.md) and takes no decision of ours on contradictions."""

    profile: Profile = presentation.PROFILE
    side_files: SideFiles | None = presentation.OTHER_FILES
    promoter: Promoter | None = None
    restorer: Restorer | None = None
    decider: Decider | None = None
    aftermaths: AftermathTeller | None = None  # what the agent changed since is the next plan
    foresight: Foresight | None = None  # Claude Code has no pass of its own
    keeper: SelfKeeper | None = None
    doctor: Doctor | None = None
    first_notes: Callable[[int], list[RawNote]] | None = None

    def __init__(
        self,
        directory: Path,
        clock: Clock = system_clock,
        record_root: Path | None = None,
        settings: Settings = DEFAULTS,
    ) -> None:
        self.home = directory
        self.clock = clock
        self.settings = settings
        self.notices: list[str] = []
        self._root = record_root or record_home(directory, settings.data_home)
        self.seen = SeenRecord(self._root / "seen")
        self.files = ClaudeFiles(directory)
        self._opened: Graph | None = None
        self._warnings: list[str] = []
        target = ClaudeTarget(
            directory, self.seen, self._accept_undone, self.look, lambda: self.may_write("undone")
        )
        self.journal = Journal(
            self._root,
            self.files,
            directory,
            target,
            self.notices,
            clock,
            refusal=presentation.PROFILE.refusal,
            keep=settings.journal_keep,
        )
        self.by_hand: ByHand = self
        self.versions: VersionKeeper | None = self

    @property
    def graph_path(self) -> Path:
        return self.home / INDEX

    @property
    def journal_home(self) -> Path:
        return self._root

    def now(self) -> str:
        return to_iso(self.clock())

    # -- reading: every read records what it saw ------------------------------------------------

    def side_file_lines(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return presentation.side_file_lines(plan, note_ids)

    def side_file_names(self, plan: Plan, note_ids: set[str]) -> list[str]:
        return presentation.side_file_names(plan, note_ids)

    def look(self) -> Files:
        """The directory's files as they are, recorded first (a failure to record is said,
        never fatal: the directory is still shown)."""
        files = read_files(self.home)
        self.notices += files.notices
        if self.home.is_dir():
            try:
                self.seen.record(files.data, self.now())
            except OSError as exc:
                self.notices.append(
                    f"what was seen could not be recorded in {self._root}: {exc.strerror or exc}"
                )
        return files

    def gone(self, files: Files, states: list[State]) -> list[Gone]:
        """Each file seen before and absent now, with its last version's bytes."""
        found = []
        for name, version in sorted(self.seen.last_versions(states).items()):
            if name in files.data or name in files.links or name in files.unread or name == INDEX:
                continue
            data = self.seen.blob(version.digest)
            if data is None:
                self.notices.append(f"{name} was seen but its copy is missing or damaged")
                continue
            found.append(Gone(version, data))
        return found

    def earlier_lines(self, states: list[State]) -> dict[str, index.Entry]:
        """The index lines earlier versions of MEMORY.md had, newest first wins."""
        found: dict[str, index.Entry] = {}
        digests = list(dict.fromkeys(s.files[INDEX] for s in reversed(states) if INDEX in s.files))
        for digest in digests[:50]:
            data = self.seen.blob(digest)
            for entry in index.entries(text_of(data)) if data else []:
                name = index.topic_name(entry.target)
                if name:
                    found.setdefault(name, entry)
        return found

    def read(self) -> Graph:
        graph, self._opened = self._opened, None
        return graph if graph is not None else self._graph(self.look())

    def _graph(self, files: Files) -> Graph:
        states = self.seen.states()
        self.seen.reviewed()  # a baseline the review cannot read is said when the notes are
        reading = read_notes(files, self.gone(files, states), self.earlier_lines(states))
        self._warnings = reading.warnings
        return Graph(self.graph_path, {"notes": reading.notes}, files_fingerprint(files))

    def hygiene(self) -> list[str]:
        """What reading found wrong with the directory, one line each."""
        if not self._warnings:
            self.read()
        return list(self._warnings)

    def topic_rules(self) -> TopicRules:
        return TopicRules(lambda note: None, token_set, promotion=False)

    def stamp(self) -> Hashable:
        with contextlib.suppress(OSError):
            names = walk(self.home)[0]
            return (
                FileStamp.of(self.home),
                tuple(FileStamp.of(self.home / name) for name in names),
            )
        return None

    def scope_files(self, nugget: str | None) -> list[Path]:
        """MEMORY.md, the always-loaded text."""
        return [self.home / INDEX]

    def take_notices(self) -> list[str]:
        taken = list(dict.fromkeys(self.notices + self.seen.take_problems()))
        self.notices.clear()  # the list the journal tells too
        return taken

    def recover(self) -> list[str]:
        """Settle an interrupted apply, unhide or undo (the journal's recovery, over
        runs.py's target); record what is seen (the daily command and every command open
        through here)."""
        settled = self.journal.recover()
        self.look()
        return settled

    def open(self, read: bool = True) -> Opened:
        """Settle an interrupted run and record what is seen; with `read`, the directory read
        once for the command (and its hygiene)."""
        if read:
            return Opened(self.startup_messages() + self.take_notices())
        self.recover()
        self._tell_dream()
        return Opened(self.take_notices())

    # -- Claude Code's consolidation: said on opening, and nothing written under it ------------

    def dream(self) -> Dream:
        return read_dream(self.home, self.clock())

    def _tell_dream(self) -> None:
        """When the last consolidation ran and whether one is due (a directory Claude Code
        never consolidated, with no session saved beside it, says nothing)."""
        dream = self.dream()
        if dream.last is not None or dream.sessions:
            self.notices.append(dream.line(self.clock()))

    def may_write(self, what: str) -> None:
        """Before any write of ours (apply, unhide, undo): refused in one line while Claude
        Code's consolidation holds the directory (waiting for it first, up to the
        `dream_wait` setting), or when the record cannot be written (else the directory would
        be written and its record not)."""
        wait_out(self.home, self.clock, self.settings.dream_wait, what)
        for folder in (self._root, self.seen.root, self.seen.blobs):
            try:
                make_folder(folder)
                fd, probe = tempfile.mkstemp(prefix=".written", suffix=TEMP_SUFFIX, dir=folder)
                os.close(fd)
                os.unlink(probe)
            except OSError as exc:
                raise NuggetsError(
                    f"{folder}: cannot be written ({exc.strerror or exc}); nothing was {what}"
                ) from None

    def _folder_notices(self) -> list[str]:
        """A line when Claude Code does not use this directory now: its auto memory is off in
        this environment (the directory is still reviewed)."""
        folder = memory_folder(self.settings)
        if folder.off and os.path.abspath(self.home) == os.path.abspath(folder.path):
            return [
                f"{self.home}: Claude Code's auto memory is off here ({folder.off}): it "
                "neither loads nor writes this directory now"
            ]
        return []

    def startup_messages(self) -> list[str]:
        self.notices += self._folder_notices()
        self.journal.recover()
        self._tell_dream()
        files = self.look()  # as recover() does, and read once: the graph is made from it
        with contextlib.suppress(NuggetsError, OSError):
            self._opened = self._graph(files)
            self.notices += self._warnings
        return self.take_notices()

    # -- the plan: the agent's changes since the last review ------------------------------------

    def _count_our_promotions(self, files: Files) -> None:
        """MEMORY.md and the topic files as our own promotion (or its undo) left them
        (core/promotion/ledger.py) are ours, not the agent's change: the reviewed baseline moves
        to them, and one line says so."""
        baseline = self.seen.reviewed()
        if baseline is None:
            return
        made = ledger.every_write(self.settings.data_home)
        reviewed, chains = dict(baseline.files), {}
        for name in sorted(baseline.files.keys() | files.data.keys()):
            path = os.path.abspath(self.home / name)
            data = files.data.get(name)
            if path not in made or name in files.unread:
                continue  # never written by us: not hashed again
            now = "" if data is None else sha(data)
            if (baseline.files.get(name) or "") == now:
                continue
            chain = ledger.ours(made[path], baseline.files.get(name), now)
            if chain:
                chains[name] = chain
                if data is None:
                    del reviewed[name]
                else:
                    reviewed[name] = now
        if not chains:
            return
        self.seen.set_reviewed(State(self.now(), reviewed))
        self.notices.append(_ours_line(chains))

    def plan(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        files = self.look()
        self._count_our_promotions(files)
        baseline = self.seen.reviewed() or State(self.now(), {})
        changes, missing = changes_since(baseline, files, self.seen.blob)
        self.notices += missing
        if nugget_name is not None:
            changes = [
                c for c in changes if self._nugget_of(c.name, c.after or c.before) == nugget_name
            ]
        plan = changes_plan(
            changes, files_fingerprint(files), self.now(), baseline.at, len(files.data)
        )
        changed = {c.name for c in changes}
        if nugget_name in (None, INDEX_NUGGET):
            proposal = self._proposal(files, changed)
            if proposal is not None:
                add_budget_proposal(plan, files.data[INDEX], proposal, self.now())
            add_fixes(plan, self._fixes(files, changed), self.now())
        add_merges(
            plan,
            [
                m
                for m in self._merges(files, changed)
                if nugget_name in (None, self._nugget_of(m.kept, files.data[m.kept]))
            ],
            files,
            self.now(),
        )
        return plan

    @staticmethod
    def _merges(files: Files, changed: set[str]) -> list[Merge]:
        """The near-duplicate merges, once the agent's own changes to MEMORY.md and to the
        files merged are reviewed."""
        if INDEX not in files.data or INDEX in changed:
            return []
        return merges(files, changed)

    @staticmethod
    def _fixes(files: Files, changed: set[str]) -> list[Fix]:
        """The hygiene fixes, once the agent's own change to MEMORY.md is reviewed."""
        if INDEX not in files.data or INDEX in changed:
            return []
        return fixes(files.data, files.links, set(files.unread))

    def _proposal(self, files: Files, changed: set[str]) -> Proposal | None:
        """The budget proposal, when MEMORY.md is past its budget and the agent's own change
        to it (reviewed first) is not pending."""
        if INDEX not in files.data or INDEX in changed:
            return None
        return propose(text_of(files.data[INDEX]), files.data, self.now(), changed)

    @staticmethod
    def _nugget_of(name: str, data: bytes | None) -> str:
        return str(file_note(name, data or b"", "").get("nuggetName"))

    def is_stale(self, plan: Plan) -> bool:
        return files_fingerprint(read_files(self.home)) != plan.base_fingerprint

    # -- the journal: an apply, unhide and undo write; the rest is refused ----------------------

    def _runs(self, batch: Batch | None = None) -> ClaudeRuns:
        """`batch`: one operation's runs, undone together (an apply, an unhide)."""
        return ClaudeRuns(self.home, self.journal, batch)

    def log(self) -> list[JournalHeader]:
        return self.journal.log()

    def run(self, run_id: str) -> JournalEntry:
        """The run, its summary saying which runs it was written with (as `log` does)."""
        return self.journal.run(run_id)

    def kept_versions(self) -> list[KeptVersion]:
        """The versions of each file the record holds (docs/CLAUDE_CODE.md, "What was seen")."""
        return [
            KeptVersion(name, v.at, self.seen.size(v.digest), v.digest)
            for name, versions in sorted(self.seen.versions().items())
            for v in versions
        ]

    def version_text(self, version: KeptVersion) -> str | None:
        data = self.seen.blob(version.digest)
        return None if data is None else text_of(data)

    def _merged_index(self, baseline: State, files: Files, kept: set[int]) -> bytes:
        reviewed = self.seen.blob(baseline.files[INDEX]) or b""
        before, after = lines_of(reviewed) or [], lines_of(files.data[INDEX]) or []
        return merged_index(before, after, kept).encode("utf-8")

    def _kept_merges(
        self, plan: Plan, kept: set[int], files: Files, changed: set[str]
    ) -> tuple[set[int], list[Merge]]:
        """The plan's merges, and those kept; refused when one is no longer what the directory
        offers (the same bytes, but the other file is now the newer)."""
        offered = {m.kept: m for m in self._merges(files, changed)}
        ours = [
            op
            for op in plan.operations
            if isinstance(op, RewriteOp) and plan.change_for(op.id).type == "merge"
        ]
        if any(op.note_id not in offered or op.content != offered[op.note_id].text for op in ours):
            raise StalePlanError(
                "the memory directory changed since this plan was made; plan again"
            )
        return {op.id for op in ours}, [offered[op.note_id] for op in ours if op.id in kept]

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        return self.journal.lock()

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Accept the kept changes (the reviewed baseline moves to them) and put back the
        reviewed version of each change left out, one journaled run per file; refused whole
        when the directory changed since the plan."""
        if not plan.operations:
            return None
        kept = plan.default_kept() if accepted is None else set(accepted)
        files = self.look()
        if files_fingerprint(files) != plan.base_fingerprint:
            raise StalePlanError(
                "the memory directory changed since this plan was made; plan again"
            )
        baseline = self.seen.reviewed() or State(self.now(), {})
        changed = {c.name for c in changes_since(baseline, files, self.seen.blob)[0]}
        reviewed = dict(baseline.files)
        rejected = []
        budget_kept = False
        kept_fixes = {f.note_id: f for f in self._fixes(files, changed)}
        chosen = [
            kept_fixes[i]
            for op in plan.operations
            if op.id in kept
            for i in operation_note_ids(op)
            if i in kept_fixes
        ]
        ours, merging = self._kept_merges(plan, kept, files, changed)
        hunks: dict[int, bool] = {}
        for op in plan.operations:
            name = operation_note_ids(op)[0]
            if op.id in ours:
                continue  # ours: a merge, chosen above
            elif name.startswith(f"{INDEX}:"):  # a run of index lines the agent changed
                hunks[int(name.split(":")[1])] = op.id in kept
            elif name in kept_fixes:
                continue  # ours: a hygiene fix, chosen above
            elif name == INDEX and INDEX not in changed:  # ours: the budget proposal
                budget_kept = op.id in kept
            elif op.id in kept:
                if name in files.data:
                    reviewed[name] = sha(files.data[name])
                else:
                    reviewed.pop(name, None)
            else:
                digest = baseline.files.get(name)
                rejected.append(
                    (name, files.data.get(name), self.seen.blob(digest) if digest else None)
                )
        if hunks:
            merged = self._merged_index(baseline, files, {n for n, k in hunks.items() if k})
            reviewed[INDEX] = sha(merged)
            if merged != files.data[INDEX]:
                rejected.append((INDEX, files.data[INDEX], merged))
        self.may_write("applied")
        runs = self._runs(Batch())  # one apply: its runs are undone together
        last = runs.revert(rejected) if rejected else None
        for merge in merging:
            last = runs.merge(merge, files.data[merge.kept], files.data[merge.removed])
            reviewed[merge.kept] = sha(merge.text.encode())
            reviewed.pop(merge.removed, None)
        removed = {m.removed for m in merging}
        # an entry for a file a merge removes is not added
        chosen = [f for f in chosen if f.note_id.removeprefix(f"{INDEX}+") not in removed]
        drop = {e.line for m in merging for e in m.index_lines}
        if budget_kept or chosen or drop:
            text = fixed(text_of(files.data[INDEX]), chosen, drop)
            # brought into the budget after the fixes
            proposal = (
                propose(text, files.data, self.now(), changed | {m.kept for m in merging} | removed)
                if budget_kept
                else None
            )
            last = runs.rewrite_index(files.data[INDEX], text, proposal, len(chosen), len(merging))
            final = proposal.index_text if proposal else text
            reviewed[INDEX] = sha(final.encode())
            for moved in proposal.files if proposal else ():
                reviewed[moved.name] = sha(moved.after.encode())
        self.seen.set_reviewed(State(self.now(), reviewed))
        self.look()
        return last

    def reflect(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        also: Collection[str] = (),
        choose: Chooser | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        plan = self.plan(nugget_name, limit, uncapped)
        if plan.operations:
            self.notices.append(
                "the agent's changes are kept or put back only in a review "
                "(the console): nothing was applied"
            )
        return plan, None

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        return UnhideOutlook()  # a file put back is read by the agent as it is

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Put deleted topic files back byte for byte, with their index lines."""
        files = self.look()
        states = self.seen.states()
        gone = {g.version.name: g for g in self.gone(files, states)}
        wanted = list(dict.fromkeys(note_ids))
        unknown = [i for i in wanted if i not in gone]
        if unknown:
            raise NuggetsError(
                f"{', '.join(unknown)}: not a deleted topic file seen before (see `notes --hidden`)"
            )
        lines = self.earlier_lines(states)
        reviewed = self.seen.reviewed() or State(self.now(), {})
        index_was_reviewed = INDEX in files.data and reviewed.files.get(INDEX) == sha(
            files.data[INDEX]
        )
        self.may_write("restored")
        entry = self._runs(Batch()).restore([gone[i] for i in wanted], lines)
        # What the operator brought back is reviewed: not the agent's change to review again.
        accepted = dict(reviewed.files, **{i: gone[i].version.digest for i in wanted})
        now = self.look()
        if index_was_reviewed and INDEX in now.data:
            accepted[INDEX] = sha(now.data[INDEX])
        self.seen.set_reviewed(State(self.now(), accepted))
        return entry

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        raise refuse("archive")

    def undo(self, run_id: str) -> JournalEntry:
        """Take a run back, with every run written together with it (one apply, one unhide),
        newest first: all of them when none of their files changed since, else none (the
        journal's undo)."""
        return self.journal.undo(run_id)

    def _accept_undone(self, entry: JournalEntry) -> None:
        """Once a file's run is undone: the file of one of our own edits (unhide, hygiene, the
        budget, a merge) goes back to being reviewed as it was; a revert's undo brings the
        agent's version back as a change to review again."""
        reviewed = self.seen.reviewed()
        name = entry.file_name or ""
        left = None if entry.file_after is None else sha(entry.file_after.encode("utf-8"))
        if (
            reviewed is not None
            and not entry.summary.startswith(REVERT)
            and reviewed.files.get(name) == left
        ):  # a file of ours removed: not there
            files = dict(reviewed.files)
            if entry.file_before is None:
                files.pop(name, None)
            else:
                files[name] = sha(entry.file_before.encode("utf-8"))
            self.seen.set_reviewed(State(self.now(), files))

    def undo_blockers(
        self, run_id: str, graph: Graph | None = None
    ) -> tuple[JournalEntry, list[str]]:
        return self.journal.blockers(run_id, graph)

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        return self.journal.write_file(path, before, after, kind, summary)  # refused: no file


def _ours_line(chains: dict[str, list[ledger.Write]]) -> str:
    """What our promotion (or its undo) changed, counted as reviewed."""
    ids = sorted({w.run_id for chain in chains.values() for w in chain})
    runs = ", ".join(ids) if len(ids) < 4 else f"{ids[0]} to {ids[-1]}, {len(ids)} runs"
    topics = len(chains) - (INDEX in chains)
    changed = " and ".join(
        ([INDEX] if INDEX in chains else []) + ([f"{topics} topic file(s)"] if topics else [])
    )
    said = (
        f"{changed} changed by our own promotion (run {runs}), not by the agent: counted as "
        "reviewed."
    )
    if topics:
        return said
    return (
        f"{said[:-1]}. Claude Code reads such entries as memory written into its index, which "
        "its model is told never to do; its consolidation may move them into topic files"
    )
