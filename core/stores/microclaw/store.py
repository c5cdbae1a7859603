"""MicroClaw's store: the store contract (core/contract/) over a MicroClaw data dir.

Reading never writes the bot's database (see schema.py). The plan is the bot's own maintenance
(rules.py); the journal lives under `<data dir>/runtime/nuggets-review/`, outside the database.
The write side (apply, unhide, archive, undo, promotion) comes in its own module.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
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
from core.errors import GraphError, MicroClawError, NuggetsError, reason_of
from core.gc_pause import paused_gc
from core.journal.aftermath import Aftermath
from core.journal.entries import JournalHeader, read_headers
from core.journal.journal import Journal
from core.models import (
    JournalEntry,
    JournalKind,
    Operation,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
)
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph
from core.plans.retry import retrying
from core.progress import Progress
from core.promotion.candidates import refused_plan, shown_as_one
from core.promotion.memory_md import read_memory_md
from core.review.contradictions import TopicRules
from core.review.decisions import read_settled, standing_apart
from core.review.queue import promotion_queue
from core.safeio.file_stamp import FileStamp
from core.safeio.open_regular import MEMORY_MD_BYTES, read_regular
from core.safeio.scope_folder import PromotionRefused, refusal
from core.settings import DEFAULTS, Settings
from core.stores.microclaw import presentation
from core.stores.microclaw.budget import structured_budget
from core.stores.microclaw.config import BotConfig, read_config
from core.stores.microclaw.outlook import outlook
from core.stores.microclaw.paths import (
    GLOBAL_NUGGET,
    MemoryFile,
    Scope,
    agents_md_target,
    database_path,
    groups_dir,
    journal_home,
    runtime_dir,
    scope_files,
    target_problem,
)
from core.stores.microclaw.promote import DEFAULT_THRESHOLD, plan_file, promotable, targets
from core.stores.microclaw.rows import read_graph, row_id, scope_of
from core.stores.microclaw.rules import Activity, plan_decided, plan_maintenance
from core.stores.microclaw.runs import MicroClawRuns, plan_row, row_id_of, tampered
from core.stores.microclaw.schema import BUSY_TIMEOUT_S, read_only
from core.stores.microclaw.since import aftermaths, newest_images
from core.stores.microclaw.topics import ascii_lower, microclaw_tokens, microclaw_topic
from core.stores.microclaw.write import COMPARED, PROMPT_CONFIDENCE, Row, read_rows

CHUNK = 10_000


# The bot keeps no recall counts or sessions: cross_time_persistence, up to 0.88 of a Nuggets
# note's strength (docs/VERDICTS.md), is 0 for every row, so its bar is 2.0 less that.
PROMOTE_AT_WITHOUT_RECALLS = 1.12


class MicroClawStore:
    """The store contract (core/contract/store.py): it promotes (AGENTS.md), decides and tells
    what the bot did since to our runs' rows; a row's changes touch no side file."""

    profile: Profile = presentation.PROFILE
    side_files: SideFiles | None = None
    restorer: Restorer | None = None
    versions: VersionKeeper | None = None
    doctor: Doctor | None = None
    first_notes: Callable[[int], list[RawNote]] | None = None  # one read of the rows is quick

    def __init__(
        self,
        data_dir: Path,
        clock: Clock = system_clock,
        busy_timeout: float = BUSY_TIMEOUT_S,
        settings: Settings = DEFAULTS,
    ) -> None:
        self.home = data_dir
        self.clock = clock
        self.settings = settings
        self.busy_timeout = busy_timeout
        self.notices: list[str] = []
        self.promotion_run: JournalEntry | None = None
        self.promotion_runs: list[JournalEntry] = []  # the runs of the last promote_now
        self.allow_contact = settings.allow_contact  # promote contact details
        self.promotion_forms: tuple[PromotionForm, ...] = (
            PromotionForm("entries", "lines in AGENTS.md"),
        )
        self.promotion_form = "entries"
        self._opened: Graph | None = None
        self._run_rows: dict[str, Mapping[int, Row] | None] = {}  # committed runs never change
        # the write side (runs.py), with the journal it writes through
        self._runs = MicroClawRuns(
            self.graph_path,
            journal_home(data_dir),
            clock,
            self.notices,
            busy_timeout,
            settings.journal_keep,
        )
        self.journal: Journal = self._runs.journal
        self.by_hand: ByHand = self
        self.promoter: Promoter | None = self
        self.decider: Decider | None = self
        self.aftermaths: AftermathTeller | None = self
        self.foresight: Foresight | None = None  # the unhide outlook tells the bot's ticks
        self.keeper: SelfKeeper | None = None  # the bot's own runs are its scheduler's

    @property
    def graph_path(self) -> Path:
        return database_path(self.home)

    @property
    def journal_home(self) -> Path:
        return journal_home(self.home)

    # -- reading ------------------------------------------------------------------------------

    def read(self) -> Graph:
        """Every row as a note, from one consistent read of the database."""
        graph, self._opened = self._opened, None
        if graph is None:
            with paused_gc():
                graph = read_graph(self.graph_path, self.busy_timeout)
        self._tell_read(graph)
        return graph

    def _tell_read(self, graph: Graph) -> None:
        """What the read skipped, or how it had to read."""
        self._tell((graph.doc.get("microclaw") or {}).get("notices") or [])

    def _tell(self, lines: Iterable[str]) -> None:
        """Each line to the notices, once."""
        for line in lines:
            if line not in self.notices:
                self.notices.append(line)

    def _bot_view(self, graph: Graph) -> tuple[BotConfig, Activity]:
        """The bot's config (what reading it said goes to the notices) and each chat's
        activity, as the bot's rules read them."""
        config, said = read_config(self.home, self.settings.microclaw_config)
        self._tell(said)
        return config, (graph.doc.get("microclaw") or {}).get("activity") or {}

    def topic_rules(self) -> TopicRules:
        """The bot's own topic key and tokens (its rule 5); no promotion groups."""
        return TopicRules(
            microclaw_topic,
            microclaw_tokens,
            promotion=False,
            promoted=lambda notes: {n["id"] for n in notes if promotable(n)},
            promote_at=PROMOTE_AT_WITHOUT_RECALLS,
            fold=ascii_lower,
        )

    def shelf(self) -> Shelf:
        return Shelf(self.read())

    def stamp(self) -> Hashable:
        """The database and its write-ahead log: the bot's commits land in the log first."""
        path = self.graph_path
        return FileStamp.of(path), FileStamp.of(path.with_name(path.name + "-wal"))

    def scope_files(self, nugget: str | None) -> list[Path]:
        """The AGENTS.md and USER.md files of the nugget's scope that exist (global ones
        included), and the AGENTS.md a promotion would write, even before it exists."""
        try:
            scope = self.scope(nugget) if nugget else Scope(GLOBAL_NUGGET)
        except GraphError:  # the rows cannot be read: the global file memory still can
            scope = Scope(GLOBAL_NUGGET)
        found = [file.path for file in scope_files(self.home, scope)]
        target = agents_md_target(self.home, scope)
        return found if target is None or target in found else [*found, target]

    def promotion_file_for(self, nugget: str | None) -> Path | None:
        """The AGENTS.md the bot reads for the chat; a chat whose file cannot be named (no
        channel, or one no folder can have) is refused in one line, not sent to the global
        file."""
        if not nugget or nugget == GLOBAL_NUGGET:
            return None
        try:
            scope = self.scope(nugget)
        except GraphError:
            return None
        target = agents_md_target(self.home, scope)
        if target is None:
            raise MicroClawError(target_problem(scope) or f"{nugget}: not promoted")
        return target

    def now(self) -> str:
        return to_iso(self.clock())

    def memory_files(self, nugget: str, graph: Graph | None = None) -> list[MemoryFile]:
        """The AGENTS.md and USER.md files of a nugget's scope (global ones included)."""
        return scope_files(self.home, self.scope(nugget, graph))

    def scope(self, nugget: str, graph: Graph | None = None) -> Scope:
        if nugget == "global":
            return Scope(nugget)
        notes = (graph or self.read()).notes
        found = next((n for n in notes if n["nuggetName"] == nugget), None)
        if found is None:
            raise MicroClawError(f"no chat {nugget!r} in {self.graph_path}")
        return scope_of(found)

    @staticmethod
    def read_memory_file(file: MemoryFile) -> str:
        """A file memory's text, read through safeopen (shown read-only)."""
        try:
            return read_regular(file.path, MEMORY_MD_BYTES).decode("utf-8", "replace")
        except (OSError, GraphError) as exc:
            raise MicroClawError(f"{file.path}: cannot be read: {reason_of(exc)}") from None

    # -- the plan -----------------------------------------------------------------------------

    def plan(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        """What the bot will do at its next runs (its config read for the caps and its
        consolidation); writes nothing. The bot applies every step in full, so `limit` and
        `uncapped` change nothing here."""
        graph = graph or self.read()
        config, activity = self._bot_view(graph)
        settled = read_settled(self.journal_home, self.notices)
        apart = standing_apart(graph.notes, self.topic_rules(), settled)
        with paused_gc():
            return plan_maintenance(
                graph.notes, self.clock(), graph.fingerprint, nugget_name, config, activity, apart
            )

    def plan_operations(
        self, operations: list[Operation], result: ReflectionResult, graph: Graph | None = None
    ) -> Plan:
        """Operations decided elsewhere (a contradiction's decision, acting on verdicts) as a
        plan of this database's writes; journaled as kind "decide". Writes nothing."""
        graph = graph or self.read()
        plan = plan_decided(graph.notes, operations, result, self.clock(), graph.fingerprint)
        plan.kind = "decide"
        return plan

    def is_stale(self, plan: Plan) -> bool:
        """Whether a row the plan touches changed since (its before-image no longer holds)."""
        images = {
            d.note_id: {c: v for c, v in d.before["microclaw"]["row"].items() if c in COMPARED}
            for d in plan.notes
        }
        return bool(self.changed_rows(images))

    def changed_rows(self, images: dict[str, dict[str, Any]]) -> list[str]:
        """The note ids whose row no longer equals its image (or is gone), in one read."""
        if not images:
            return []
        ids = {row_id(i): i for i in images}
        columns = sorted({c for image in images.values() for c in image})
        numbers = [n for n in ids if n is not None]
        current: dict[int | None, dict[str, Any]] = {}
        with read_only(self.graph_path, self.busy_timeout) as conn:
            for start in range(0, len(numbers), CHUNK):  # SQLite bounds a query's parameters
                chunk = numbers[start : start + CHUNK]
                query = (
                    f"SELECT id, {', '.join(columns)} FROM memories "
                    f"WHERE id IN ({','.join('?' * len(chunk))})"
                )
                current.update(
                    (r[0], dict(zip(columns, r[1:], strict=True)))
                    for r in conn.execute(query, chunk)
                )
        changed = []
        for number, note_id in ids.items():
            row = current.get(number)
            image = images[note_id]
            if row is None or any(row[c] != v for c, v in image.items()):
                changed.append(note_id)
        return changed

    # -- journal ------------------------------------------------------------------------------

    def run(self, run_id: str) -> JournalEntry:
        return self.journal.run(run_id)

    def log(self) -> list[JournalHeader]:
        return self.journal.log()

    def aftermath(
        self,
        headers: Sequence[JournalHeader] | None = None,
    ) -> dict[str, Aftermath]:
        """What the bot did since to the rows of these runs (since.py), in one read of those
        rows; each run's rows are read from the journal once per store."""
        if headers is None:
            headers = read_headers(self.journal_home, self._runs.files)[0]
        latest = newest_images(headers, self._rows_of)
        if not latest:
            return {}
        with read_only(self.graph_path, self.busy_timeout) as conn:
            current = read_rows(conn, list(latest))
        return aftermaths(latest, current, headers[0].run_id)

    def _rows_of(self, run_id: str) -> Mapping[int, Row] | None:
        """The rows a run left, as its journal entry says (None: it cannot be read, or was
        edited since, so it says nothing true)."""
        if run_id not in self._run_rows:
            try:
                entry = self._runs.run(run_id)
                rows = (
                    None
                    if tampered(entry)
                    else {row_id_of(key): plan_row(after) for key, after in entry.after.items()}
                )
            except NuggetsError:
                rows = None
            self._run_rows[run_id] = rows
        return self._run_rows[run_id]

    def recover(self) -> list[str]:
        """Settle what an interrupted run left (the journal's recovery over runs.py's
        target); says what it did."""
        return self.journal.recover()

    def take_notices(self) -> list[str]:
        taken = list(self.notices)
        self.notices.clear()  # the list the journal and the write side tell too
        return taken

    def open(self, read: bool = True) -> Opened:
        """Settle leftovers; with `read`, the rows read once for the command (and the schema
        they were read in)."""
        if read:
            return Opened(self.startup_messages() + self.take_notices())
        self.recover()
        return Opened(self.take_notices())

    def startup_messages(self) -> list[str]:
        """What a front end tells when it opens the data dir: settled writes, the schema read.
        A database that cannot be read is reported by the command that reads it."""
        messages = self.recover()
        self.notices.clear()
        with contextlib.suppress(GraphError):
            self._opened = read_graph(self.graph_path, self.busy_timeout)
            info = self._opened.doc["microclaw"]
            if info["schemaVersion"] < 43:
                messages.append(
                    f"{self.graph_path}: schema version {info['schemaVersion']} "
                    "(older than 43): columns it lacks are left out"
                )
        return messages

    def exclusive(self) -> contextlib.AbstractContextManager[None]:
        """Our own writers of this data dir, one at a time, across several steps (the daily
        pass); the database itself is never held while the operator reviews."""
        return self.journal.lock()

    # -- writing (runs.py) ---------------------------------------------------------------------

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        return self._runs.apply(plan, accepted)

    def reflect(
        self,
        nugget_name: str | None = None,
        limit: int | None = None,
        uncapped: bool = False,
        also: Collection[str] = (),
        choose: Chooser | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        return self._runs.reflect(lambda: self.plan(nugget_name, limit, uncapped), also, choose)

    def unhide(self, note_ids: Iterable[str], lift: bool = False) -> JournalEntry | None:
        """Bring rows back (`lift`: their confidence raised to the prompt's 0.45 in the same
        run); what the bot's next ticks will do to them goes to the notices."""
        ids = list(note_ids)
        told = self.unhide_outlook(ids, lift).warnings
        entry = self._runs.unhide(ids, PROMPT_CONFIDENCE if lift else None)
        self._tell(told)
        return entry

    def unhide_outlook(self, note_ids: Iterable[str], lift: bool = False) -> UnhideOutlook:
        """Rows below the prompt's confidence (the lift offered), and what the bot's rules
        would do to the rows once back (outlook.py); writes nothing."""
        graph = self.read()
        config, activity = self._bot_view(graph)
        return outlook(graph.notes, note_ids, self.clock(), config, activity, lift)

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        return self._runs.archive(note_ids)

    def undo(self, run_id: str) -> JournalEntry:
        return self.journal.undo(run_id)

    def undo_blockers(
        self, run_id: str, graph: Graph | None = None
    ) -> tuple[JournalEntry, list[str]]:
        """The run, and its rows changed since (read afresh: `graph` is not needed)."""
        return self.journal.blockers(run_id, graph)

    # -- promotion to AGENTS.md (promote.py) ---------------------------------------------------

    def promotion_target(self, memory_md: Path | None = None) -> Path:
        """The AGENTS.md a single-file promotion writes: the one named, else the global one."""
        return memory_md or groups_dir(self.home) / "AGENTS.md"

    def plan_promotions(
        self,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> list[PromotionPlan]:
        """Every scope's AGENTS.md edit, one plan per file (global first); writes nothing.
        `threshold`: the confidence, in percent, a row needs."""
        notes = (graph or self.read()).notes
        rows_by_file, skipped = targets(self.home, notes, threshold)
        # The global file always, so that "nothing qualifies" is a plan to show, not silence.
        found = {self.promotion_target(): [], **rows_by_file}
        ordered = sorted(
            found.items(), key=lambda item: (item[0] != self.promotion_target(), str(item[0]))
        )
        queued = promotion_queue(self, notes)
        plans = [
            self._budgeted(self._plan_file(path, rows, threshold, allow, drop, queued), rows, notes)
            for path, rows in ordered
        ]
        groups = groups_dir(self.home)
        return plans + [
            refused_plan(
                groups,
                groups.is_dir(),
                threshold,
                sum(n["nuggetName"] == nugget for n in notes),
                line,
            )
            for nugget, line in sorted(skipped.items())
        ]

    def plan_promotion(
        self,
        memory_md: Path | None = None,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        graph: Graph | None = None,
        drop: Collection[str] = (),
    ) -> PromotionPlan:
        """One AGENTS.md's edit (the global one unless named): the rows of its scope."""
        path = self.promotion_target(memory_md)
        notes = (graph or self.read()).notes
        found, _ = targets(self.home, notes, threshold)
        rows = next(
            (r for p, r in found.items() if os.path.abspath(p) == os.path.abspath(path)), []
        )
        queued = promotion_queue(self, notes)
        return self._budgeted(
            self._plan_file(path, rows, threshold, allow, drop, queued), rows, notes
        )

    def _budgeted(
        self, plan: PromotionPlan, rows: list[RawNote], notes: list[RawNote]
    ) -> PromotionPlan:
        """The plan with the bot's budget for the structured memories of its scope (a chat's
        rows and the global ones; the global file: the global rows)."""
        if plan.refused:
            return plan
        chat_id = (rows[0].get("microclaw") or {}).get("chatId") if rows else None
        scope = (
            "structured memories of the global scope"
            if chat_id is None
            else f"structured memories of {rows[0]['nuggetName']} and the global scope"
        )
        config, _ = read_config(self.home, self.settings.microclaw_config)
        budget = structured_budget(notes, chat_id, scope, self.clock(), config.memory_tokens)
        return plan.model_copy(update={"budgets": [budget]})

    def _plan_file(
        self,
        path: Path,
        rows: list[RawNote],
        threshold: int,
        allow: Collection[str],
        drop: Collection[str],
        queued: Mapping[str, str],
    ) -> PromotionPlan:
        nuggets = [r["nuggetName"] for r in rows]
        try:
            exists = path.parent.is_dir()
            refused = self._refusal(path, nuggets)
            if refused:  # not even read: a link may lead anywhere
                return refused_plan(path, exists, threshold, len(rows), refused)
            before, base = read_memory_md(path) if exists else ("", EMPTY_FINGERPRINT)
        except (OSError, NuggetsError) as exc:  # this scope only: every other one goes on
            scope = nuggets[0] if nuggets else GLOBAL_NUGGET
            return refused_plan(
                path, False, threshold, len(rows), f"{scope}: {reason_of(exc)}; not promoted"
            )
        plan = plan_file(
            rows, path, before, exists, threshold, allow, base, drop, self.allow_contact, queued
        )
        return plan.model_copy(update={"notices": self._erased(path, plan)})

    def _erased(self, path: Path, plan: PromotionPlan) -> list[str]:
        """Rows a promotion of ours wrote to this file that are no longer in it and are
        planned again: the bot's write_memory rewrote the file (a global or bot file whole, a
        chat's `## Person:` section to the next one or the end)."""
        again = {e.note_id for e in plan.entries if e.action == "add"}
        gone = self._runs.promoted_to(path) & again
        if not gone:
            return []
        return [
            f"{path}: {len(gone)} promoted row(s) no longer in it, removed by a later "
            f"write (the bot's write_memory rewrites the file): {', '.join(sorted(gone))}; "
            "planned again"
        ]

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """See NuggetsStore.write_file: a small file of ours, journaled, undoable."""
        return self.journal.write_file(path, before, after, kind, summary)

    def promotion_losses(self) -> list[str]:
        return []  # a section the bot erased is reported by the plan itself

    def promote(self, plan: PromotionPlan) -> int:
        """Write one planned AGENTS.md, journaled (the run is `promotion_run`); the entries
        added. Nothing when its directory does not exist."""
        path = Path(plan.path)
        nuggets = [e.nugget_name for e in plan.entries]

        def refuse_link() -> None:
            refused = self._refusal(path, nuggets)
            if refused:
                raise PromotionRefused(refused)

        if plan.changes_file:
            refuse_link()
        self.promotion_run = self._runs.promote(plan, refuse_link)
        return plan.added if plan.directory_exists else 0

    def _refusal(self, path: Path, nuggets: list[str]) -> str | None:
        """Why this AGENTS.md may not be written: a link from the bot's runtime folder down
        (its groups, a channel's or chat's folder, the file), or a path out of it. A file
        named outside the data dir (--memory-md) is looked at in its own folder."""
        runtime = runtime_dir(self.home)
        inside = os.path.abspath(path).startswith(os.path.abspath(runtime) + os.sep)
        folder = runtime if inside else path.parent
        scope = (
            nuggets[0]
            if nuggets
            else (
                GLOBAL_NUGGET
                if os.path.abspath(path) == os.path.abspath(self.promotion_target())
                else str(path)
            )
        )
        return refusal(scope, folder, path)

    def promote_now(
        self,
        memory_md: Path | None = None,
        threshold: int = DEFAULT_THRESHOLD,
        allow: Collection[str] = (),
        drop: Collection[str] = (),
    ) -> tuple[PromotionPlan, int]:
        """Plan and write in one go, planning a file again if it changes under us: the named
        AGENTS.md, else every scope's (each file its own run, in `promotion_runs`); the plans
        shown as one and the entries added."""
        self.promotion_runs = []

        def one(path: Path) -> tuple[PromotionPlan, int]:
            def attempt() -> tuple[PromotionPlan, int]:
                plan = self.plan_promotion(path, threshold, allow, drop=drop)
                try:
                    return plan, self.promote(plan)
                except PromotionRefused as exc:  # a link planted since: this scope only
                    return refused_plan(
                        path, plan.directory_exists, plan.threshold, plan.qualifying, str(exc)
                    ), 0

            plan, added = retrying(attempt, str(path))
            if self.promotion_run is not None:
                self.promotion_runs.append(self.promotion_run)
            return plan, added

        if memory_md is not None:
            return one(memory_md)
        done = [
            (p, 0) if p.refused else one(Path(p.path))
            for p in self.plan_promotions(threshold, allow, drop=drop)
        ]
        if self.promotion_runs:
            self.promotion_run = self.promotion_runs[-1]
        plans = [p for p, _ in done]
        return shown_as_one(plans, groups_dir(self.home), threshold), sum(n for _, n in done)
