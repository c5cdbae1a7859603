"""The Nuggets store: a home's graph.json (and its fact files, MEMORY.md) and everything a front
end does to it: plan, apply, unhide, undo, promote. It implements the store contract
(core/contract/store.py).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

from core.browse.shelf import Shelf
from core.clock import Clock, system_clock, to_iso
from core.contract.parts import (
    AftermathTeller,
    ByHand,
    Decider,
    Doctor,
    Foresight,
    Promoter,
    PromotionForm,
    Restorer,
    SelfKeeper,
    SideFiles,
    UnhideOutlook,
    VersionKeeper,
)
from core.contract.profile import Profile
from core.contract.store import Chooser, Opened
from core.errors import (
    GraphError,
    NuggetsError,
    StalePlanError,
    UndoConflictError,
    UnknownNoteError,
    UnsettledWriteError,
)
from core.gc_pause import paused_gc
from core.journal.aftermath import Aftermath
from core.journal.entries import JournalHeader, next_run_id, read_headers
from core.journal.guarded_write import (
    directory_lock,
    graph_lock,
    replace_if_unchanged,
    swap_outcome,
)
from core.journal.history import last_file_run, undo_blockers
from core.journal.journal import Batch, Journal
from core.journal.own_files import OwnFile, OwnFiles, own_file, plain_name
from core.models import (
    FactEdit,
    FileImage,
    JournalEntry,
    JournalKind,
    NoteDiff,
    Operation,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
)
from core.notes import fields
from core.notes.agent_normalize import unchanged_since
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, current_fingerprint, fingerprint
from core.notes.working_set import Workspace, hide, replay, unhide
from core.plans.kept import chosen, result_of
from core.plans.retry import retrying as _retrying
from core.plans.review_rules import RULES_FILE
from core.progress import Progress
from core.promotion import ledger
from core.promotion.budget import claude_code_budget
from core.promotion.candidates import (
    DEFAULT_THRESHOLD,
    agent_rule_notice,
    claude_code_notice,
    last_entries,
    plan_promotion,
    qualifies,
    refused_plan,
    resolve_memory_md,
)
from core.promotion.claude_dream import wait_out
from core.promotion.claude_topics import ENTRIES, TOPIC_FILES, Held, plan_topic_files, topic_names
from core.promotion.lost_lines import lost_lines
from core.promotion.memory_md import read_memory_md
from core.reflection.reflect import plan_pass
from core.reflection.select_phase import resolve_limit
from core.review.contradictions import TopicRules, token_set
from core.review.decisions import SETTLED_FILE, read_settled, standing_apart
from core.review.queue import promotion_queue
from core.review.topics import nuggets_topic
from core.safeio.file_stamp import FileStamp
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular
from core.safeio.scope_folder import PromotionRefused, refusal
from core.settings import DEFAULTS, Settings
from core.stores.nuggets import presentation
from core.stores.nuggets.agent_gate import AgentGate
from core.stores.nuggets.agent_pass import NUGGET as AGENT_NUGGET
from core.stores.nuggets.agent_pass import agent_pass
from core.stores.nuggets.fact_files import SUFFIXES as FACT_SUFFIXES
from core.stores.nuggets.fact_files import (
    FactFile,
    changed_facts,
    dump_fact_doc,
    edited_doc,
    fact_edits,
    fact_file_paths,
    fact_of,
    nugget_file_names,
    read_fact_file,
    read_fact_files,
    undo_edits,
)
from core.stores.nuggets.first_notes import first_notes
from core.stores.nuggets.graph_file import dump_graph, graph_path, read_graph
from core.stores.nuggets.home import left_home_refusal, live_home
from core.stores.nuggets.outlook import (
    AGENT_PASS_MOST,
    LIVE_SECONDS,
    live_lines,
    pass_lines,
    too_big,
)
from core.stores.nuggets.since import Images, aftermaths

RECENT = 20  # the runs whose notes `aftermath` compares: the newest that wrote notes
MEMORY_MD_NAME = "MEMORY.md"  # a promotion's file in its journal entry: the store's MEMORY.md
dream_pause = time.sleep  # how a promotion waits a second for Claude Code's dream (tests: theirs)
PROMOTED = "promoted/"  # + a topic file's name: one written beside that MEMORY.md
FORMS = (
    PromotionForm(ENTRIES, "entries in MEMORY.md (the Nuggets agent's format)"),
    PromotionForm(TOPIC_FILES, "a topic file per fact and an index line (Claude Code's form)"),
)


class NuggetsFiles:
    """The files a Nuggets store writes besides the graph, as journal entries name them
    (core/journal/own_files.py): its MEMORY.md, wherever it is configured when the entry is read;
    conflicts-settled.json, review-rules.json and the agent's fact files, by name inside the
    home.

    The agent moves a home by copying it (~/.nuggets to ~/.donna, journal included), and the
    copy of a fact file `<nugget>.nugget.json` is named `<nugget>.donna.json`: an entry made
    before the move names the old name, which means the copy when only the copy is there."""

    def __init__(self, home: Path, memory_md: Callable[[], Path]) -> None:
        self.home = home
        self.memory_md = memory_md

    def named(self, name: str) -> OwnFile | None:
        if name == MEMORY_MD_NAME:
            try:
                return OwnFile(name, self.memory_md(), None)
            except (OSError, RuntimeError):  # no home to resolve it against
                return None
        if name.startswith(PROMOTED):
            return self._promoted(name)
        if name in (SETTLED_FILE, RULES_FILE):
            return OwnFile(name, self.home / name, self.home)
        if plain_name(name) and name.endswith(FACT_SUFFIXES):
            return OwnFile(name, self._fact_file(name), self.home)
        return None

    def _promoted(self, name: str) -> OwnFile | None:
        """A topic file promotion wrote beside MEMORY.md, never a link out of that folder."""
        file = name[len(PROMOTED) :]
        if not plain_name(file) or not file.endswith(".md") or file == MEMORY_MD_NAME:
            return None
        try:
            folder = self.memory_md().parent
        except (OSError, RuntimeError):
            return None
        return OwnFile(name, folder / file, folder)

    def _fact_file(self, name: str) -> Path:
        path = self.home / name
        current, legacy = FACT_SUFFIXES
        if name.endswith(legacy) and not os.path.lexists(path):
            copied = self.home / (name[: -len(legacy)] + current)
            if os.path.lexists(copied):
                return copied
        return path

    def at(self, path: Path) -> OwnFile | None:
        for name in (MEMORY_MD_NAME, path.name, PROMOTED + path.name):
            found = self.named(name)
            if found is not None and os.path.abspath(found.path) == str(path):
                return found
        return None


class NuggetsStore:
    """The store contract (core/contract/store.py): it promotes and decides itself; its side
    files are the agent's fact files; it keeps no versions, and tells what the agent did since
    to the notes and facts of our runs (since.py)."""

    profile: Profile = presentation.PROFILE
    side_files: SideFiles | None = presentation.FACT_FILES
    restorer: Restorer | None = None
    versions: VersionKeeper | None = None
    keeper: SelfKeeper | None = None

    def __init__(
        self,
        home: Path,
        clock: Clock = system_clock,
        memory_md: Path | None = None,
        settings: Settings = DEFAULTS,
    ) -> None:
        self.home = home
        self.clock = clock
        self.settings = settings
        self.memory_md = memory_md or settings.memory_md
        self.notices: list[str] = []
        self.promotion_run: JournalEntry | None = None  # the last `promote`'s journal entry
        self.promotion_runs: list[JournalEntry] = []  # the same, as a list (one MEMORY.md)
        self.allow_contact = settings.allow_contact  # promote contact details
        self.promotion_forms: tuple[PromotionForm, ...] = FORMS
        self.promotion_form = ENTRIES
        self._opened: Graph | None = None  # read by startup_messages, for the command to take
        self._seen: tuple[FileStamp | None, Graph] | None = None  # the last read, its stat
        self._runs_read: dict[str, JournalEntry | None] = {}  # for `aftermath`: runs never change
        self.force_home = False  # --force-home: write even to a home the agent left
        self.doctor: Doctor | None = AgentGate(
            home, settings.agent_dir, lambda: read_graph(self.graph_path)
        )
        self.journal = Journal(
            home,
            self.files,
            graph_path(home),
            NuggetsTarget(self),
            self.notices,
            clock,
            keep=settings.journal_keep,
            home_is_ours=False,
            guard=self._home_guard,
        )
        self.by_hand: ByHand = self
        self.promoter: Promoter | None = self
        self.decider: Decider | None = self
        self.aftermaths: AftermathTeller | None = self
        self.foresight: Foresight | None = self

    @property
    def graph_path(self) -> Path:
        return graph_path(self.home)

    @property
    def journal_home(self) -> Path:
        return self.home

    def topic_rules(self) -> TopicRules:
        # subject and title, and the groups promotion would shadow
        return TopicRules(nuggets_topic, token_set)

    @property
    def files(self) -> OwnFiles:
        """The files besides the graph this store writes, as its journal names them."""
        return NuggetsFiles(self.home, self.promotion_target)

    def read(self) -> Graph:
        """The graph file: the snapshot `startup_messages` just read (taken once, so a retry
        reads afresh), else read now. A command thus reads and checks the file once."""
        graph, self._opened = self._opened, None
        graph = graph or self._read_now()
        graph.groups = nugget_file_names(self.home)
        return graph

    def _read_now(self) -> Graph:
        """The graph file read now, kept with its stat for `aftermath` (which reads it only
        when it changed since)."""
        stamp = FileStamp.of(self.graph_path)
        graph = read_graph(self.graph_path)
        self._seen = (stamp, graph)
        return graph

    def _graph_now(self) -> Graph:
        """The graph as last read, when the file has not changed since; else read now."""
        if self._seen is not None and self._seen[0] == FileStamp.of(self.graph_path):
            return self._seen[1]
        return self._read_now()

    def stamp(self) -> Hashable:
        return FileStamp.of(self.graph_path)

    def scope_files(self, nugget: str | None) -> list[Path]:
        """MEMORY.md (the agent's always-loaded memory), then the nugget's fact files."""
        files = []
        with contextlib.suppress(OSError, RuntimeError):  # no home to resolve MEMORY.md against
            files.append(self.promotion_target())
        names = None if nugget is None else {nugget + suffix for suffix in FACT_SUFFIXES}
        return files + [
            path for path in fact_file_paths(self.home) if names is None or path.name in names
        ]

    def first_notes(self, count: int) -> list[RawNote]:
        """Notes from the head of the graph file, read before (and without) the whole of it."""
        return first_notes(self.graph_path, count)

    def is_stale(self, plan: Plan) -> bool:
        """Whether the graph file changed since the plan was made (its bytes' fingerprint)."""
        return current_fingerprint(self.graph_path) != plan.base_fingerprint

    def shelf(self) -> Shelf:
        return Shelf(self.read())

    def now(self) -> str:
        return to_iso(self.clock())

    # -- reflection ---------------------------------------------------------------------------

    def plan(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        """The pass computed on the current file; writes nothing. `should_stop`, `progress`:
        see plan_pass.
        Notes the operator let stand together (a contradiction's "both stand") are never
        merged together."""
        graph = graph or self.read()
        capped = resolve_limit(limit, self.settings.max_notes)
        settled = read_settled(self.journal_home, self.notices)
        apart = standing_apart(graph.notes, self.topic_rules(), settled)
        outcome = plan_pass(
            graph.notes, self.clock(), nugget_name, capped, uncapped, should_stop, apart, progress
        )
        return self._plan_of(
            graph,
            outcome.workspace,
            outcome.result,
            outcome.operations,
            nugget_name,
            capped,
            uncapped,
        )

    def plan_operations(
        self, operations: list[Operation], result: ReflectionResult, graph: Graph | None = None
    ) -> Plan:
        """A plan of operations decided elsewhere (a contradiction's decision, acting on
        verdicts), replayed on the current file as apply will; journaled as kind "decide".
        Writes nothing."""
        graph = graph or self.read()
        ws = Workspace(graph.notes)
        for op in operations:
            replay(ws, op, result.ran_at)
        plan = self._plan_of(graph, ws, result, operations, None, len(operations), True)
        plan.kind = "decide"
        return plan

    def _plan_of(
        self,
        graph: Graph,
        ws: Workspace,
        result: ReflectionResult,
        operations: list[Operation],
        nugget_name: str | None,
        limit: int,
        uncapped: bool,
    ) -> Plan:
        with paused_gc():
            diffs = [
                NoteDiff(note_id=graph.notes[p]["id"], before=graph.notes[p], after=ws.notes[p])
                for p in ws.refresh_vectors()
            ]
        files = self._fact_files(diff.after for diff in diffs)
        edits = fact_edits(((d.before, d.after) for d in diffs), list(files.values()))
        # Built from the models the pass just made: validating them again (170k operations
        # and 100k diffs at 100k notes) would only check their types once more.
        plan = Plan.model_construct(
            ran_at=result.ran_at,
            base_fingerprint=graph.fingerprint,
            nugget_name=nugget_name,
            limit=limit,
            uncapped=uncapped,
            result=result,
            operations=operations,
            notes=diffs,
            side_file_edits=edits,
            side_file_fingerprints={e.path: files[e.path].fingerprint for e in edits},
        )
        plan._graph = graph
        return plan

    def _fact_files(self, notes: Iterable[RawNote]) -> dict[str, FactFile]:
        """The fact files of the nuggets these notes' facts belong to (none read when no note
        is a fact note with a key)."""
        nuggets = {
            fields.nugget(n) for n in notes if n.get("kind") == "fact" and n.get("sourceKey")
        }
        if not nuggets:
            return {}
        return {file.path.name: file for file in read_fact_files(self.home, nuggets)}

    def _mirrored(
        self, graph: Graph, ws: Workspace, touched: list[int], planned: dict[str, str] | None = None
    ) -> tuple[list[FactEdit], list[FactFile]]:
        """The fact edits for the changed notes, and the files they touch; with `planned`
        (the fingerprints a plan saw), a file changed since is a stale plan."""
        files = self._fact_files(ws.notes[p] for p in touched)
        edits = fact_edits(((graph.notes[p], ws.notes[p]) for p in touched), list(files.values()))
        used = [files[name] for name in dict.fromkeys(e.path for e in edits)]
        if planned is not None:
            for file in used:
                if planned.get(file.path.name) != file.fingerprint:
                    raise StalePlanError(
                        f"stale plan: {file.path} changed since the plan was made; plan again"
                    )
        return edits, used

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Replay the accepted operations (when None: all but those the plan leaves out by
        default) on the file the plan was made from."""
        kept = plan.default_kept() if accepted is None else set(accepted)
        with graph_lock(self.graph_path), paused_gc():
            return self._apply_locked(plan, kept)

    def _apply_locked(self, plan: Plan, kept: set[int]) -> JournalEntry | None:
        self.journal.settle_leftovers()
        graph = read_graph(self.graph_path, plan._graph)
        if graph.fingerprint != plan.base_fingerprint:
            raise StalePlanError(
                f"stale plan: {self.graph_path} changed since the plan was made; plan again"
            )
        operations = [op for op in plan.operations if op.id in kept]
        ws = Workspace(graph.notes)
        if graph is plan._graph and len(operations) == len(plan.operations):
            # The whole plan on the snapshot it was computed from: its after-images (vectors
            # included) are what replaying every operation gives.
            for diff in plan.notes:
                ws.put(diff.note_id, diff.after)
            touched = ws.touched_positions()
        else:
            for op in operations:
                replay(ws, op, plan.ran_at)
            touched = ws.refresh_vectors()
        edits, files = self._mirrored(graph, ws, touched, plan.side_file_fingerprints)
        return self._commit(
            graph,
            ws,
            plan.kind,
            operations,
            result_of(plan.result, kept),
            plan.ran_at,
            facts=(edits, files),
        )

    def reflect(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        also: Collection[str] = (),
        choose: Chooser | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        """Plan and apply in one go, planning again while another writer keeps the plan stale;
        `also`: notes whose changes left out by default are applied too; `choose`: which
        changes to apply instead."""

        def attempt() -> tuple[Plan, JournalEntry | None]:
            plan = self.plan(nugget_name, limit, uncapped)
            return plan, self.apply(plan, choose(plan) if choose else chosen(plan, also))

        return _retrying(attempt)

    # -- recovery -----------------------------------------------------------------------------

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        """What the agent will do to these notes once back (outlook.py): its next morning pass
        on the memory as the unhide leaves it, and a running agent's fact file; there is nothing
        to lift (a visible note is used as it is). Writes nothing."""
        graph = self._graph_now()
        ids = [i for i in dict.fromkeys(note_ids) if (n := graph.get(i)) and fields.hidden(n)]
        if not ids:
            return UnhideOutlook()
        ws = Workspace(graph.notes)
        now = self.now()
        for note_id in ids:
            unhide(ws, note_id, now)
        return UnhideOutlook(tuple(self._foretold(graph, ws, ids, removes=False)))

    def undo_outlook(self, run_id: str) -> tuple[str, ...]:
        """What the agent will do to a run's notes once undone (outlook.py); writes nothing.
        Nothing for a run that wrote a file."""
        entry = self.journal.run(run_id)
        if entry.file_name is not None:
            return ()
        graph = self._graph_now()
        ws = Workspace(graph.notes)
        for note_id, before in entry.before.items():
            if graph.get(note_id) is not None:
                ws.put(note_id, before)
        removes = any(e.before is None for e in entry.side_file_edits)
        return tuple(self._foretold(graph, ws, list(entry.before), removes))

    def standing_outlook(self, note_ids: Iterable[str]) -> tuple[str, ...]:
        """What the agent's next morning pass will do to these notes left as they stand (a
        change the operator rejects, a contradiction let stand); writes nothing."""
        note_ids = list(note_ids)
        if not note_ids:
            return ()
        graph = self._graph_now()
        return tuple(self._foretold(graph, Workspace(graph.notes), note_ids, False))

    def archive_outlook(self, note_ids: Iterable[str]) -> tuple[str, ...]:
        """What a running agent will do to these notes once archived (a fact note's fact comes
        back); writes nothing."""
        note_ids = list(note_ids)
        if not note_ids:
            return ()
        graph = self._graph_now()
        ws = Workspace(graph.notes)
        now = self.now()
        ids = [i for i in dict.fromkeys(note_ids) if (n := graph.get(i)) and not fields.hidden(n)]
        for note_id in ids:
            hide(ws, note_id, now)
        edits, _ = self._mirrored(graph, ws, ws.touched_positions())
        notes = {i: n for i in ids if (n := graph.get(i)) is not None}
        facts = [e.note_id for e in edits]
        return tuple(live_lines(facts, True, self._live_agent(), notes))

    def _foretold(self, graph: Graph, ws: Workspace, ids: list[str], removes: bool) -> list[str]:
        """The agent's pass on the notes as `ws` leaves them (the fact file as the write would
        leave it), told for `ids`; and a running agent's writes of their facts."""
        edits, files = self._mirrored(graph, ws, ws.touched_positions())
        facts: dict[str, dict[str, Any]] = {}
        for file in read_fact_files(self.home, [AGENT_NUGGET]):
            doc = edited_doc(file.doc, [e for e in edits if e.path == file.path.name])
            for fact in doc.get("facts") or []:
                if isinstance(fact, dict) and isinstance(fact.get("key"), str):
                    facts.setdefault(fact["key"].lower(), fact)
        notes = {n["id"]: n for n in ws.notes}
        lines = self._pass_foretold(ws.notes, ids, facts, notes)
        fact_ids = [e.note_id for e in edits if e.note_id in ids]
        return lines + live_lines(fact_ids, removes, self._live_agent(), notes)

    def _pass_foretold(
        self,
        after: list[RawNote],
        ids: list[str],
        facts: dict[str, dict[str, Any]],
        notes: dict[str, RawNote],
    ) -> list[str]:
        """What the agent's pass does to these notes, run on `after` (none asked of its nugget:
        it touches no other); too big a nugget is said, not run."""
        if not any(fields.nugget(n) == AGENT_NUGGET for i in ids if (n := notes.get(i))):
            return []
        size = sum(fields.nugget(n) == AGENT_NUGGET for n in after)
        if size > AGENT_PASS_MOST:
            return [too_big(size, AGENT_PASS_MOST)]
        return pass_lines(agent_pass(after, self.clock(), facts), ids, notes)

    def _live_agent(self) -> str | None:
        """What shows a running agent: a fact file rewritten in the last minutes, not by a run
        of ours (None: none seen)."""
        ours = self._our_fact_writes()
        now = self.clock().timestamp()
        for path in fact_file_paths(self.home):
            try:
                age = now - path.stat().st_mtime
            except OSError:
                continue
            if 0 <= age <= LIVE_SECONDS and current_fingerprint(path) not in ours:
                return f"{path.name} was rewritten {_ago(age)} ago, not by us"
        return None

    def _our_fact_writes(self) -> set[str]:
        """The fact files' fingerprints as our newest runs left them."""
        found: set[str] = set()
        for header in self.journal.log()[:5]:
            with contextlib.suppress(NuggetsError):
                found.update(image.result_fingerprint for image in self.run(header.run_id).files)
        return found

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Bring archived notes back; visible ones are left as they are (a visible note is
        used as it is: there is nothing to lift). What the agent will do to them goes to the
        notices (`unhide_outlook`)."""
        ids = list(note_ids)
        told = self.unhide_outlook(ids).warnings
        entry = self._set_archived(ids, archived=False)
        self.notices.extend(told if entry is not None else ())
        return entry

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        """Archive notes by hand, exactly as the pass's archive does (a fact note's fact leaves
        its fact file); notes already archived are left as they are. What a running agent will
        do to their facts goes to the notices (`archive_outlook`)."""
        ids = list(note_ids)
        told = self.archive_outlook(ids)
        entry = self._set_archived(ids, archived=True)
        self.notices.extend(told if entry is not None else ())
        return entry

    def _set_archived(self, note_ids: Iterable[str], archived: bool) -> JournalEntry | None:
        ids = list(dict.fromkeys(note_ids))

        def attempt() -> JournalEntry | None:
            with graph_lock(self.graph_path):
                return self._set_archived_locked(ids, archived)

        return _retrying(attempt)

    def _set_archived_locked(self, ids: list[str], archived: bool) -> JournalEntry | None:
        self.journal.settle_leftovers()
        graph = read_graph(self.graph_path)
        unknown = [i for i in ids if graph.get(i) is None]
        if unknown:
            raise UnknownNoteError(f"no note {', '.join(unknown)} in {self.graph_path}")
        ws = Workspace(graph.notes)
        now = self.now()
        change = hide if archived else unhide
        for note_id in ids:
            if fields.hidden(graph.notes[graph.index[note_id]]) != archived:
                change(ws, note_id, now)
        facts = self._mirrored(graph, ws, ws.refresh_vectors())
        kind: JournalKind = "archive" if archived else "unhide"
        verb = "archived " if archived else "unhid "
        return self._commit(
            graph, ws, kind, [], None, now, summary=verb + ", ".join(ids), facts=facts
        )

    def undo(self, run_id: str) -> JournalEntry:
        """Restore the notes a run changed, if none of them changed since (the journal's
        undo, core/journal/journal.py)."""
        return self.journal.undo(run_id)

    def _undo_notes(self, entry: JournalEntry) -> JournalEntry:
        """Put back a run's notes and facts, journaled as its undo (under the lock)."""
        graph = read_graph(self.graph_path)
        changed = undo_blockers(entry, graph)
        if changed:
            raise UndoConflictError(self._why_changed(entry.run_id, changed), changed)
        facts = self._facts_to_undo(entry.run_id, entry.side_file_edits)
        ws = Workspace(graph.notes)
        for note_id, before in entry.before.items():
            ws.put(note_id, before)
        committed = self._commit(
            graph,
            ws,
            "undo",
            [],
            None,
            self.now(),
            undoes=entry.run_id,
            summary=f"undid {entry.run_id}",
            facts=facts,
        )
        if committed is None:
            raise NuggetsError(f"run {entry.run_id} changed nothing; there is nothing to undo")
        return committed

    def _why_changed(self, run_id: str, changed: list[str]) -> str:
        """Why undo refuses: the agent's doing when it overwrote the run (since.py), else the
        notes that changed since."""
        try:
            since = self.aftermath().get(run_id)
        except NuggetsError:
            since = None
        if since is not None:
            changed_ids = f" (the notes it changed since: {', '.join(changed)})" if changed else ""
            return f"cannot undo {run_id}: {since.line}; nothing was restored{changed_ids}"
        return f"cannot undo {run_id}: these notes changed since: {', '.join(changed)}"

    def _facts_to_undo(
        self, run_id: str, edits: list[FactEdit]
    ) -> tuple[list[FactEdit], list[FactFile]]:
        """The edits that put a run's facts back, if every fact still stands as it left it."""
        # Each file the run edited, or the agent's copy of it in a moved home (NuggetsFiles).
        paths = {name: self._side_path(name) for name in dict.fromkeys(e.path for e in edits)}
        edits = [e.model_copy(update={"path": paths[e.path].name}) for e in edits]
        files, changed = [], []
        for path in paths.values():
            file = read_fact_file(path) or FactFile(path, {"facts": []}, EMPTY_FINGERPRINT)
            changed += changed_facts(file.doc, [e for e in edits if e.path == path.name])
            files.append(file)
        if changed:  # the agent recalled or edited them since (its fact file is its own)
            why = self._why_changed(run_id, [])
            raise NuggetsError(
                why
                if not why.endswith(": ")
                else f"{why}in the fact files: {', '.join(changed)}; nothing was restored"
            )
        return undo_edits(edits), files

    def _side_path(self, name: str) -> Path:
        """Where the file a journal entry names is now (the entry was checked when read)."""
        return own_file(name, self.files).path

    def undo_blockers(
        self, run_id: str, graph: Graph | None = None
    ) -> tuple[JournalEntry, list[str]]:
        """The run, and the notes that changed since it (undo refuses while there are any);
        writes nothing. An error when the run is unknown or already undone."""
        return self.journal.blockers(run_id, graph)

    def run(self, run_id: str) -> JournalEntry:
        """One applied run whole (its note images too), checked before it is trusted."""
        return self.journal.run(run_id)

    def log(self) -> list[JournalHeader]:
        """The applied runs, newest first (headers only); an entry that cannot be read is
        skipped and named in the notices."""
        return self.journal.log()

    def aftermath(self, headers: Sequence[JournalHeader] | None = None) -> dict[str, Aftermath]:
        """What the agent did since to the notes and facts of these runs (since.py): the
        newest `RECENT` runs that wrote notes, read once each, and the graph and fact files read
        once."""
        if headers is None:
            headers = read_headers(self.home, self.files)[0]
        images = Images()
        for header in [h for h in headers if h.file_name is None][:RECENT]:
            entry = self._run_read(header.run_id)
            if entry is not None:
                images.add(entry)
        if not images.notes and not images.facts:
            return {}
        graph = self._graph_now()
        notes = {note_id: note for note_id in images.notes if (note := graph.get(note_id))}
        return aftermaths(images, notes, self._facts_now(images), headers[0].run_id)

    def _run_read(self, run_id: str) -> JournalEntry | None:
        """A run whole, read once per store (None: it cannot be read; `log` names it)."""
        if run_id not in self._runs_read:
            try:
                self._runs_read[run_id] = self.journal.run(run_id)
            except NuggetsError:
                self._runs_read[run_id] = None
        return self._runs_read[run_id]

    def _facts_now(self, images: Images) -> dict[tuple[str, str], dict[str, Any] | None]:
        """Each fact the runs edited as its file holds it now (None: not in it); a file that
        cannot be read is left out."""
        found: dict[tuple[str, str], dict[str, Any] | None] = {}
        docs: dict[str, FactFile | None] = {}
        for name, key in images.facts:
            if name not in docs:
                own = self.files.named(name)
                docs[name] = None if own is None else read_fact_file(own.path)
            file = docs[name]
            if file is not None:
                found[(name, key)] = fact_of(file.facts, key)
        return found

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """Replace a small file of ours (its text as read: `before`, None when absent) with
        `after`, journaled as a run of `kind` that undo takes back; refused as stale when the
        file changed since it was read."""
        return self.journal.write_file(path, before, after, kind, summary)

    def _commit(
        self,
        graph: Graph,
        ws: Workspace,
        kind: JournalKind,
        operations: list[Operation],
        result: ReflectionResult | None,
        at: str,
        undoes: str | None = None,
        summary: str = "",
        facts: tuple[list[FactEdit], list[FactFile]] = ([], []),
    ) -> JournalEntry | None:
        """Journal (write-ahead) and write the changed notes over `graph`'s version, if any.

        The pending entry becomes the run's journal entry exactly when the graph lands; an
        interruption at any step is settled from what is on disk (see `recover`).
        """
        touched = ws.touched_positions()
        if not touched:
            return None
        data = dump_graph(graph.with_notes(ws.notes), self.graph_path)
        edits, files = facts
        writes = [
            (
                file,
                dump_fact_doc(edited_doc(file.doc, [e for e in edits if e.path == file.path.name])),
            )
            for file in files
        ]
        images = [
            FileImage(
                path=file.path.name,
                base_fingerprint=file.fingerprint,
                result_fingerprint=fingerprint(new),
                before_text=file.text,
            )
            for file, new in writes
        ]
        seq, run_id = next_run_id(self.home, at)
        # Built from data this process just made and checked: no second validation of 2 x 100k
        # note images (reading an entry back validates it).
        entry = JournalEntry.model_construct(
            run_id=run_id,
            seq=seq,
            kind=kind,
            at=at,
            base_fingerprint=graph.fingerprint,
            result_fingerprint=fingerprint(data),
            operations=operations,
            result=result,
            before={graph.notes[p]["id"]: graph.notes[p] for p in touched},
            after={ws.notes[p]["id"]: ws.notes[p] for p in touched},
            undoes=undoes,
            summary=summary or _summarize(result),
            side_file_edits=edits,
            files=images,
        )

        def write(landing: Callable[[], None]) -> None:
            """The fact files, then the graph: its landing is the run's."""
            landed = False

            def on_landed() -> None:
                nonlocal landed
                landed = True
                landing()

            written: list[FileImage] = []
            try:
                for image, (_, new) in zip(images, writes, strict=True):
                    replace_if_unchanged(
                        self.home / image.path, new, image.base_fingerprint, notices=self.notices
                    )
                    written.append(image)
                replace_if_unchanged(
                    self.graph_path, data, graph.fingerprint, on_landed, self.notices
                )
            except UnsettledWriteError:
                raise  # it may have landed: settling decides, the fact files with it
            except (NuggetsError, OSError):
                if not landed:
                    self._put_back(written)
                raise

        return self.journal.commit(entry, self.graph_path, write)

    def _put_back(self, images: list[FileImage]) -> None:
        """Files a run wrote before it failed to land go back to their old version (unless
        another program wrote them since: then its version stays, and we say so)."""
        for image in reversed(images):
            try:
                replace_if_unchanged(
                    self._side_path(image.path),
                    image.before_text.encode("utf-8"),
                    image.result_fingerprint,
                    notices=self.notices,
                )
            except NuggetsError as exc:
                self.notices.append(f"{image.path} was not put back: {exc}")

    def _home_guard(self) -> str | None:
        """Before each write: a home the agent left is refused unless forced, and a run forced
        into it records where it was written."""
        live = live_home(self.home)
        if live is None:
            return None
        if not self.force_home:
            raise NuggetsError(left_home_refusal(self.home, live))
        return os.path.abspath(self.home)

    def recover(self) -> list[str]:
        """Settle what interrupted writes left (ours or another nuggets process's); says what
        it did. Front ends call it when they open a memory; every write also does it first
        (the journal's recovery, core/journal/journal.py, over `NuggetsTarget`)."""
        return self.journal.recover()

    def take_notices(self) -> list[str]:
        """Messages from settling interrupted writes since the last call (for front ends)."""
        taken = list(self.notices)
        self.notices.clear()  # the list the journal tells too
        return taken

    def open(self, read: bool = True) -> Opened:
        """Settle leftovers; with `read`, the graph file read once for the command (and what
        that read tolerated)."""
        if read:
            return Opened(self.startup_messages() + self.take_notices())
        self.recover()
        return Opened(self.take_notices())

    def startup_messages(self) -> list[str]:
        """What a front end should tell when it opens the memory: interrupted writes settled,
        and what was read tolerantly (a byte-order mark, repeated keys). A graph that cannot
        be read is reported by the command that reads it, not here."""
        messages = self.recover()
        self.notices.clear()
        with contextlib.suppress(GraphError):
            self._opened = self._read_now()
            messages += self._opened.warnings
        return messages

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        """Hold our lock across several steps (the daily pass); writes inside still lock."""
        return self.journal.lock()

    # -- promotion ----------------------------------------------------------------------------

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        return resolve_memory_md(memory_md or self.memory_md, self.settings)

    def plan_promotion(
        self,
        memory_md: Path | None = None,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> PromotionPlan:
        """The MEMORY.md edit; entries screening or the contradiction queue holds back are
        listed as blocked unless allowed (`allow`), and the notes in `drop` are left out. Writes
        nothing. `graph`: the notes as already read (the console's), else the graph file is
        read."""
        path = self.promotion_target(memory_md)
        exists = path.parent.is_dir()
        notes = (graph or self.read()).notes
        refused = _refusal(path)
        if refused:  # not even read: a link may lead anywhere
            return refused_plan(
                path, exists, threshold, sum(qualifies(n, threshold) for n in notes), refused
            )
        before, base = read_memory_md(path) if exists else ("", EMPTY_FINGERPRINT)
        default = memory_md is None and self.memory_md is None  # the folder Claude Code uses
        if self.promotion_form == TOPIC_FILES:
            held = self._held(path, topic_names(notes, threshold)) if exists else {}
            plan = plan_topic_files(
                notes,
                path,
                before,
                exists,
                held,
                threshold,
                allow,
                base,
                drop,
                self.allow_contact,
                promotion_queue(self, notes),
            )
            plan.notices += agent_rule_notice(path) if default else []
            return plan
        last = self._last_run(path)
        plan = plan_promotion(
            notes,
            path,
            before,
            exists,
            threshold,
            allow,
            base,
            drop,
            self.allow_contact,
            None if last is None else last.file_after,
            promotion_queue(self, notes),
            last_entries(None if last is None else last.promoted),
        )
        plan.budgets = [claude_code_budget(plan.after_text, plan.entries)]
        plan.notices += agent_rule_notice(path) if default else []
        plan.notices += claude_code_notice(path, default) if plan.changes_file else []
        return plan

    def _held(self, path: Path, names: list[str]) -> dict[str, Held]:
        """What MEMORY.md's folder holds at each topic file's name, and whether it is as our
        last write left it (core/promotion/ledger.py); a link is never read."""
        made = ledger.every_write(self.settings.data_home)
        held = {}
        for name in names:
            file = path.parent / name
            try:
                data = read_regular(file, MEMORY_MD_BYTES, follow=False)
                text = data.decode("utf-8")
            except FileNotFoundError:
                held[name] = Held(None, True)
                continue
            except (OSError, NuggetsError, UnicodeDecodeError) as exc:
                why = "a symbolic link" if file.is_symlink() else "not a UTF-8 text file we read"
                held[name] = Held(None, False, f"{why} ({getattr(exc, 'strerror', None) or exc})")
                continue
            ours = made.get(os.path.abspath(file), [])
            held[name] = Held(text, bool(ours) and ours[-1].after == ledger.digest(data))
        return held

    def _last_run(self, path: Path) -> JournalEntry | None:
        """Our newest run on the store's MEMORY.md (what it left in it, the entries it wrote),
        when `path` is that file."""
        if path != self.promotion_target():
            return None
        return last_file_run(self.home, MEMORY_MD_NAME, self.files)

    def promotion_losses(self) -> list[str]:
        """A notice naming the entries MEMORY.md lost since our newest run on it (the agent's
        promotion cuts the entries it does not write itself); none when nothing was lost."""
        try:
            path = self.promotion_target()
            run = last_file_run(self.home, MEMORY_MD_NAME, self.files)
            if run is None or run.file_after is None or _refusal(path):
                return []
            lost = lost_lines(
                run.file_after, read_memory_md(path)[0], known=last_entries(run.promoted)
            )
        except (NuggetsError, OSError, RuntimeError):  # the file's own command reports it
            return []
        return [f"{path} lost lines since our run {run.run_id}: {'; '.join(lost)}"] if lost else []

    def plan_promotions(
        self,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> list[PromotionPlan]:
        return [self.plan_promotion(None, threshold, allow, graph, drop)]

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        return None  # every nugget promotes to the one MEMORY.md

    def promote_now(
        self,
        memory_md: Path | None = None,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        drop: Collection[str] = (),
    ) -> tuple[PromotionPlan, int]:
        """Plan and write promotion in one go, planning again if MEMORY.md changes under it."""

        def attempt() -> tuple[PromotionPlan, int]:
            plan = self.plan_promotion(memory_md, threshold, allow, drop=drop)
            try:
                return plan, self.promote(plan)
            except PromotionRefused as exc:  # a link planted since it was planned
                return refused_plan(
                    Path(plan.path),
                    plan.directory_exists,
                    plan.threshold,
                    plan.qualifying,
                    str(exc),
                ), 0

        return _retrying(attempt, "MEMORY.md")

    def promote(self, plan: PromotionPlan) -> int:
        """Write the planned MEMORY.md over the version it was planned from (and, in Claude
        Code's form, each topic file first), journaled as one batch (the runs are
        `promotion_runs`, the last `promotion_run`); returns the entries added. Nothing when
        its directory does not exist; refused while Claude Code's consolidation holds it."""
        self.promotion_run, self.promotion_runs = None, []
        if not plan.changes_file:
            return plan.added if plan.directory_exists else 0
        path = Path(plan.path)
        before = None if plan.base_fingerprint == EMPTY_FINGERPRINT else plan.before_text
        summary = f"promoted to MEMORY.md: {plan.added} added, {plan.updated} updated"
        files = [Path(f.path) for f in plan.topic_files]
        for file in [*files, path]:
            _refuse_link(file)
        batch = Batch() if files else None
        written: list[ledger.Written] = []
        try:
            with self.journal.lock(), directory_lock(path):
                self._wait_for_dream(path.parent, "promoted")
                for file in [*files, path]:
                    _refuse_link(file)  # again under the lock, just before the write
                self.journal.settle_leftovers()
                for topic in plan.topic_files:
                    run = self.journal.replace(
                        Path(topic.path),
                        topic.before_text,
                        topic.after_text,
                        topic.base_fingerprint,
                        "promote",
                        f"promoted to {Path(topic.path).name}",
                        promoted=[e for e in plan.entries if e.note_id == topic.note_id],
                        batch=batch,
                    )
                    self._wrote(run, Path(topic.path), topic.before_text, topic.after_text, written)
                if plan.after_text != plan.before_text:
                    run = self.journal.replace(
                        path,
                        before,
                        plan.after_text,
                        plan.base_fingerprint,
                        "promote",
                        summary,
                        promoted=[e for e in plan.entries if e.action != "same"],
                        batch=batch,
                    )
                    self._wrote(run, path, before, plan.after_text, written)
        finally:
            self._note_writes(written)
        return plan.added

    def _wrote(
        self,
        run: JournalEntry,
        path: Path,
        before: str | None,
        after: str | None,
        written: list[ledger.Written],
    ) -> None:
        self.promotion_run = run
        self.promotion_runs.append(run)
        encoded = [None if text is None else text.encode("utf-8") for text in (before, after)]
        written.append((path, encoded[0], encoded[1], run.run_id))

    def _wait_for_dream(self, folder: Path, what: str) -> None:
        """Nothing of ours is written into a Claude Code memory folder while its consolidation
        holds it (core/promotion/claude_dream.py): waited for up to `dream_wait`, else one
        line."""
        wait_out(folder, self.clock, self.settings.dream_wait, what, dream_pause)

    def _note_writes(self, written: list[ledger.Written]) -> None:
        """Our writes, for a review of the folder they landed in (core/promotion/ledger.py): a
        failure to record them is said, never fatal (the writes are journaled)."""
        if not written:
            return
        try:
            ledger.record_all(self.settings.data_home, written, to_iso(self.clock()))
        except OSError as exc:
            self.notices.append(
                f"{written[0][0]}: our promotion could not be noted for its folder's review "
                f"({exc.strerror or exc})"
            )


class NuggetsTarget:
    """What the journal (core/journal/journal.py) writes in a Nuggets home: the graph file,
    the fact files a run writes before it, MEMORY.md, and our small files beside the journal."""

    def __init__(self, store: NuggetsStore) -> None:
        self.store = store

    def lock(self) -> contextlib.AbstractContextManager[None]:
        return graph_lock(self.store.graph_path)

    def files(self) -> list[Path]:
        """The graph first, the fact files, our two small files, and MEMORY.md when its
        directory can be seen."""
        home = self.store.home
        files = [
            self.store.graph_path,
            *fact_file_paths(home),
            home / SETTLED_FILE,
            home / RULES_FILE,
        ]
        try:
            memory_md = self.store.promotion_target()
            if memory_md.parent.is_dir():
                files.append(memory_md)
        except (OSError, RuntimeError):  # no home to resolve against, or no right to look
            pass
        return files

    def folders(self) -> list[Path]:
        return []  # the home is the agent's: only the files above are settled in it

    def landed(self, entry: JournalEntry) -> bool | None:
        """The version the run replaced was swapped out (or, without an exchange, the graph is
        its result, or holds its notes as the run left them)."""
        path = self.store.graph_path
        outcome = swap_outcome(path, entry.base_fingerprint, entry.result_fingerprint)
        if outcome is not None:
            return outcome == "landed"
        now = current_fingerprint(path)
        if now == entry.result_fingerprint:
            return True
        if now in (entry.base_fingerprint, EMPTY_FINGERPRINT):
            return False
        # Another program wrote since (only possible without an atomic exchange): landed
        # when the notes are as this run left them.
        graph = read_graph(path)
        return all(unchanged_since(note, graph.get(i)) for i, note in entry.after.items())

    def discard(self, entry: JournalEntry) -> None:
        """The fact files the run wrote before its graph failed to land go back, those still
        as it left them."""
        self.store._put_back(
            [
                image
                for image in entry.files
                if current_fingerprint(self.store._side_path(image.path))
                == image.result_fingerprint
            ]
        )

    def restore(self, journal: Journal, entry: JournalEntry, batch: Batch | None) -> JournalEntry:
        """Planned again while another writer keeps changing the file (bounded)."""
        if entry.file_name is None:
            return _retrying(lambda: self.store._undo_notes(entry))
        promoted = entry.file_name == MEMORY_MD_NAME or entry.file_name.startswith(PROMOTED)
        elsewhere = (
            " (or the run wrote another MEMORY.md: name it with --memory-md)" if promoted else ""
        )
        if not promoted:
            return _retrying(lambda: journal.undo_file(entry, batch, elsewhere))
        path = own_file(entry.file_name, self.store.files).path
        self.store._wait_for_dream(path.parent, "restored")
        done = _retrying(lambda: journal.undo_file(entry, batch, elsewhere))
        # the undo is ours too: noted for the review of the folder it wrote into
        encoded = [
            None if t is None else t.encode("utf-8") for t in (done.file_before, done.file_after)
        ]
        self.store._note_writes([(path, encoded[0], encoded[1], done.run_id)])
        return done

    def blockers(self, entry: JournalEntry, graph: Graph | None) -> list[str]:
        """The notes the run wrote that changed since (a file run's file: undo says)."""
        return undo_blockers(entry, graph or read_graph(self.store.graph_path))

    def undone(self) -> None:
        return None


def _refusal(path: Path) -> str | None:
    """Why MEMORY.md may not be written: a link in its place (its folder is the scope's)."""
    return refusal("MEMORY.md", path.parent, path)


def _refuse_link(path: Path) -> None:
    refused = _refusal(path)
    if refused:
        raise PromotionRefused(refused)


def _ago(seconds: float) -> str:
    return f"{int(seconds)} s" if seconds < 120 else f"{int(seconds // 60)} min"


def _summarize(result: ReflectionResult | None) -> str:
    if result is None:
        return ""
    return (
        f"{result.rewritten} rewritten, {result.merged} merged, {result.hidden} archived, "
        f"{result.tagged} tagged, {result.linked} linked"
    )
