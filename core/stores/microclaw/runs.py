"""Journaled writes to a MicroClaw database: apply a plan, unhide, archive, undo, settle.

The journal lives outside the bot's database, under `<data dir>/runtime/nuggets-review/`, in
the same format as the Nuggets journal (core/journal/entries.py). Each run is written ahead: a
pending
entry with every row's before- and after-image, then the database transaction, then the entry
committed. After an interruption, settling reads the rows the run marked (is_archived and
archived_at) to decide whether its transaction committed.

A run's images are notes (`mc-<id>`) carrying their row under `microclaw.row`, as the read side
keeps it; supersede edges a run inserted are links of its from-row's after-image. Promotion
runs write AGENTS.md files instead (promote.py), journaled with both texts like MEMORY.md
runs. Undo never deletes a row of the bot's database, edges included: the edges a run
inserted stay (they record that the rows were judged duplicates) and the undo says so in its
summary.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from core.clock import Clock, to_iso
from core.errors import (
    NuggetsError,
    UndoConflictError,
    UnknownNoteError,
)
from core.journal.entries import JournalHeader, journal_dir, next_run_id, read_headers
from core.journal.guarded_write import directory_lock
from core.journal.history import in_effect
from core.journal.journal import Batch, Journal
from core.journal.own_files import OwnFile, OwnFiles, own_file, plain_name
from core.models import (
    HideOp,
    JournalEntry,
    JournalKind,
    KeepOp,
    LinkOp,
    Operation,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
)
from core.notes.snapshot import EMPTY_FINGERPRINT, Graph, fingerprint, json_bytes
from core.plans.kept import chosen, result_of
from core.plans.retry import retrying
from core.plans.review_rules import RULES_FILE
from core.review.decisions import SETTLED_FILE
from core.safeio.scope_folder import unsafe_component
from core.settings import DEFAULT_KEEP
from core.stores.microclaw.paths import groups_dir, nugget_of, runtime_dir
from core.stores.microclaw.rows import note_id, rfc3339, row_id, title_of
from core.stores.microclaw.schema import BUSY_TIMEOUT_S, check_file, database_error
from core.stores.microclaw.write import (
    EDGES,
    IMAGED,
    Edge,
    Row,
    RowChange,
    archived,
    columns,
    connect,
    landed,
    raised,
    read_rows,
    rescued,
    row_image,
    same,
    unarchived,
    unhide_warnings,
    write_rows,
)

T = TypeVar("T")


def row_id_of(note_id: str) -> int:
    found = row_id(note_id)
    if found is None:
        raise UnknownNoteError(f"{note_id!r} is not a MicroClaw memory id (mc-<number>)")
    return found


def nugget_of_row(row: Row) -> str:
    external = row.get("external_chat_id")
    return nugget_of(
        row.get("chat_id"), row.get("chat_channel"), None if external is None else str(external)
    )


def plan_row(note: RawNote) -> Row:
    """The row a plan's note was read from: its before-image, as the read side keeps it."""
    row = (note.get("microclaw") or {}).get("row")
    if not isinstance(row, dict):
        raise NuggetsError(f"{note.get('id')}: the plan holds no row image; plan again")
    return row_image(row)


def note_image(row_id_: int, nugget: str, row: Row, links: list[dict[str, Any]]) -> RawNote:
    """A row as a journal's note image: enough to show the change and to put it back."""
    content = row.get("content")
    content = content if isinstance(content, str) else ""
    image: RawNote = {
        "id": note_id(row_id_),
        "nuggetName": nugget,
        "title": title_of(content),
        "content": content,
        "type": str(row.get("category") or ""),
        "hidden": bool(row.get("is_archived")),
        "links": links,
        "microclaw": {"rowId": row_id_, "row": row_image(row)},
    }
    if isinstance(row.get("updated_at"), str):
        image["updatedAt"] = row["updated_at"]
    if isinstance(row.get("archived_at"), str):
        image["archivedAt"] = row["archived_at"]
    return image


def changes_of(entry: JournalEntry) -> tuple[list[RowChange], list[Edge]]:
    """The row changes and inserted edges an entry records."""
    changes, edges = [], []
    for key, after in entry.after.items():
        before = entry.before[key]
        number = row_id_of(key)
        changes.append(RowChange(number, plan_row(before), plan_row(after)))
        old = {
            (link["to"], link.get("reason", ""), link.get("createdAt", ""))
            for link in before.get("links", [])
        }
        edges += [
            Edge(number, row_id_of(to), reason, at)
            for to, reason, at in (
                (link["to"], link.get("reason", ""), link.get("createdAt", ""))
                for link in after.get("links", [])
            )
            if (to, reason, at) not in old
        ]
    return changes, edges


# The columns a run of ours may change (archive, unhide, rescue, raising confidence): an
# entry whose images differ in any other column was not written by us, and undo would write it.
WRITABLE = frozenset(
    ("is_archived", "archived_at", "updated_at", "last_seen_at", "expires_at", "confidence")
)


def tampered(entry: JournalEntry) -> str | None:
    """Why a row run's entry cannot be what our run recorded, or None: its images no longer
    hash to the fingerprints written with them, or a row's before- and after-image differ in
    a column no run of ours writes (pure)."""
    if (
        fingerprint(json_bytes(entry.before, indent=False)) != entry.base_fingerprint
        or fingerprint(json_bytes(entry.after, indent=False)) != entry.result_fingerprint
    ):
        return "its images are not the ones its run recorded"
    for key in sorted(entry.after):
        before, after = plan_row(entry.before.get(key) or {}), plan_row(entry.after[key])
        foreign = sorted(
            n
            for n in set(before) | set(after)
            if n not in WRITABLE and (n not in before or n not in after or before[n] != after[n])
        )
        if foreign:
            return f"{key} changes {', '.join(foreign)}, which no run of ours writes"
    return None


def left_as_they_are(changed: list[str]) -> str:
    """The rows a run's undo or an unhide leaves as the bot made them, in one phrase."""
    shown = ", ".join(changed[:10]) + (
        f" and {len(changed) - 10} more" if len(changed) > 10 else ""
    )
    return f"these memories changed since and were left as they are: {shown}"


AGENTS_MD = "AGENTS.md"


class MicroClawFiles:
    """The files we write in a MicroClaw data dir, as journal entries name them
    (core/journal/own_files.py): AGENTS.md files under the scope folders, `groups/AGENTS.md`
    (global),
    `groups/<channel>/AGENTS.md`, `groups/<channel>/<chat>/AGENTS.md`, `groups/<chat>/AGENTS.md`
    (see paths.py), and conflicts-settled.json and review-rules.json beside our journal."""

    def __init__(self, data_dir: Path, journal_home: Path) -> None:
        self.data_dir = data_dir
        self.journal_home = journal_home

    def named(self, name: str) -> OwnFile | None:
        if name in (SETTLED_FILE, RULES_FILE):
            return OwnFile(name, self.journal_home / name, self.journal_home)
        parts = name.split("/")
        if (
            2 <= len(parts) <= 4
            and parts[0] == groups_dir(self.data_dir).name
            and parts[-1] == AGENTS_MD
            and all(map(plain_name, parts[1:-1]))
        ):
            return OwnFile(name, runtime_dir(self.data_dir) / name, groups_dir(self.data_dir))
        return None

    def at(self, path: Path) -> OwnFile | None:
        for name in (SETTLED_FILE, RULES_FILE):
            if str(path) == os.path.abspath(self.journal_home / name):
                return self.named(name)
        relative = os.path.relpath(path, os.path.abspath(runtime_dir(self.data_dir)))
        found = self.named(relative)
        return found if found and os.path.abspath(found.path) == str(path) else None


def _summary(operations: list[Operation]) -> str:
    hidden = sum(isinstance(op, HideOp) for op in operations)
    linked = sum(isinstance(op, LinkOp) for op in operations)
    rescued = sum(isinstance(op, KeepOp) for op in operations)
    return f"{hidden} archived, {linked} linked" + (f", {rescued} rescued" if rescued else "")


class MicroClawRuns:
    """The write side of a MicroClaw store (its database `db`, its journal under
    `journal_home`, keeping its newest `keep` runs); `notices` is the store's list, for the
    front ends to tell."""

    def __init__(
        self,
        db: Path,
        journal_home: Path,
        clock: Clock,
        notices: list[str],
        busy_timeout: float = BUSY_TIMEOUT_S,
        keep: int = DEFAULT_KEEP,
    ) -> None:
        self.db = db
        self.keep = keep
        self.busy_timeout = busy_timeout
        self.journal_home = journal_home
        self.clock = clock
        self.notices = notices
        # The database is <data dir>/runtime/microclaw.db (paths.py).
        self.files: OwnFiles = MicroClawFiles(db.parent.parent, journal_home)
        self.journal = Journal(
            journal_home, self.files, db, RowsTarget(self), notices, clock, keep=keep
        )

    def now(self) -> str:
        """A run's time, as the journal records it."""
        return to_iso(self.clock())

    def stamp(self) -> str:
        """The time written into rows, as the bot writes it (RFC 3339)."""
        return rfc3339(self.clock())

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Our own writers of this data dir, one at a time (the bot is held off by SQLite):
        a lock on the database's folder itself, so that taking it makes nothing (a write
        refused under it leaves no folder of ours behind). A data dir without its database is
        refused before any lock."""
        check_file(self.db)
        self._refuse_linked_journal()
        with directory_lock(self.db):
            yield

    def _refuse_linked_journal(self) -> None:
        """Our folder sits in the bot's data dir, whose owner must not choose where our journal,
        lock and files go: a link (or a non-directory) on the way to the journal refuses every
        write in one line (docs/MICROCLAW_WRITES.md)."""
        why = unsafe_component(self.db.parent, journal_dir(self.journal_home) / "entry")
        if why is not None:
            raise NuggetsError(
                f"{why}: our journal in the bot's data dir is never written "
                "through a link, so nothing was written"
            )

    # -- apply --------------------------------------------------------------------------------

    def apply(self, plan: Plan, accepted: Iterable[int] | None = None) -> JournalEntry | None:
        """Write the accepted operations (when None: all but those the plan leaves out by
        default), if every row they touch is still as the plan saw it; StalePlanError and
        nothing written otherwise."""
        kept = plan.default_kept() if accepted is None else set(accepted)
        operations = [op for op in plan.operations if op.id in kept]
        with self.exclusive():
            self.journal.settle_leftovers()
            return self._apply_locked(plan, operations, kept)

    def _apply_locked(
        self, plan: Plan, operations: list[Operation], kept: set[int]
    ) -> JournalEntry | None:
        seen = {d.note_id: d.before for d in plan.notes}
        now = self.stamp()
        before: dict[int, Row] = {}
        after: dict[int, Row] = {}
        edges: list[Edge] = []

        def touch(key: str) -> int:
            number = row_id_of(key)
            if key not in seen:
                raise NuggetsError(f"{key}: not in the plan's rows; plan again")
            before.setdefault(number, plan_row(seen[key]))
            after.setdefault(number, dict(before[number]))
            return number

        for op in operations:
            if isinstance(op, HideOp):
                number = touch(op.note_id)
                after[number] = archived(after[number], now)
            elif isinstance(op, KeepOp):  # the rescue of a row the bot would delete
                number = touch(op.note_id)
                after[number] = rescued(after[number])
            elif isinstance(op, LinkOp):
                # the kept row is not written: the edge needs only that it still exists
                edges.append(Edge(touch(op.note_id), row_id_of(op.other_id), op.reason, now))
            else:
                raise NuggetsError(f"a {op.type} is not something a MicroClaw plan does")
        if edges and not self._has_edges_table():
            self.notices.append(
                f"{self.db} has no supersede edges table (an older schema): "
                "duplicates are archived without an edge"
            )
            edges = []
        nuggets = {
            row_id_of(i): str(n.get("nuggetName", ""))
            for i, n in seen.items()
            if row_id(i) is not None
        }
        result = result_of(plan.result, kept)
        return self._commit(
            plan.kind,
            before,
            after,
            edges,
            nuggets,
            self.now(),
            operations=operations,
            result=result,
            summary=_summary(operations),
        )

    def reflect(
        self,
        make_plan: Callable[[], Plan],
        also: Collection[str] = (),
        choose: Callable[[Plan], set[int]] | None = None,
    ) -> tuple[Plan, JournalEntry | None]:
        """Plan and apply in one go, planning again while the bot keeps the plan stale;
        `also`: rows whose changes left out by default (a rescue) are applied too; `choose`:
        which changes to apply instead."""

        def attempt() -> tuple[Plan, JournalEntry | None]:
            plan = make_plan()
            return plan, self.apply(plan, choose(plan) if choose else chosen(plan, also))

        return retrying(attempt, str(self.db))

    # -- unhide, archive ----------------------------------------------------------------------

    def unhide(self, note_ids: Iterable[str], raise_to: float | None = None) -> JournalEntry | None:
        """Bring archived rows back (is_archived 0, archived_at NULL, updated_at and
        last_seen_at now), and with `raise_to` their confidence raised to it in the same run;
        a notice names those the bot's prompt skips (low confidence)."""
        return self._set_archived(note_ids, to=False, raise_to=raise_to)

    def archive(self, note_ids: Iterable[str]) -> JournalEntry | None:
        """Archive rows by hand, exactly as the plan's archive does."""
        return self._set_archived(note_ids, to=True)

    def _set_archived(
        self, note_ids: Iterable[str], to: bool, raise_to: float | None = None
    ) -> JournalEntry | None:
        ids = list(dict.fromkeys(note_ids))
        row_ids = [row_id_of(i) for i in ids]

        def attempt() -> JournalEntry | None:
            with self.exclusive():
                self.journal.settle_leftovers()
                rows = self._read(row_ids)
                unknown = [f"mc-{i}" for i in row_ids if i not in rows]
                if unknown and len(unknown) == len(row_ids):
                    raise UnknownNoteError(f"no memory {', '.join(unknown)} in {self.db}")
                if unknown:  # the bot deleted them since they were listed: the others go on
                    self.notices.append(
                        f"no memory {', '.join(unknown)} in {self.db} any more "
                        "(the bot deletes expired rows): left out"
                    )
                change = archived if to else unarchived
                before = {
                    i: rows[i]
                    for i in row_ids
                    if i in rows and bool(rows[i].get("is_archived")) != to
                }
                after = {i: change(row, self.stamp()) for i, row in before.items()}
                if raise_to is not None:
                    after = {i: raised(row, raise_to) for i, row in after.items()}
                lifted = [
                    f"mc-{i}" for i in after if not same(after[i], before[i], ("confidence",))
                ]
                if not to:
                    self.notices += unhide_warnings(after)
                nuggets = {i: nugget_of_row(rows[i]) for i in row_ids if i in rows}
                kind: JournalKind = "archive" if to else "unhide"
                verb = "archived " if to else "unhid "
                also = (
                    f"; confidence raised to {raise_to} for {', '.join(lifted)}" if lifted else ""
                )
                return self._commit(
                    kind,
                    before,
                    after,
                    [],
                    nuggets,
                    self.now(),
                    summary=verb + ", ".join(ids) + also,
                )

        return retrying(attempt, str(self.db))

    def _has_edges_table(self) -> bool:
        return bool(self._reading(lambda conn: columns(conn, EDGES)))

    def _read(self, row_ids: list[int]) -> dict[int, Row]:
        return self._reading(lambda conn: read_rows(conn, row_ids))

    def _reading(self, read: Callable[[sqlite3.Connection], T]) -> T:
        conn = connect(self.db, self.busy_timeout)
        try:
            return read(conn)
        except sqlite3.Error as exc:  # locked, not a database, ...
            raise database_error(self.db, exc) from None
        finally:
            conn.close()

    # -- undo ---------------------------------------------------------------------------------

    def undo(self, run_id: str) -> JournalEntry:
        """Restore the rows a run changed to their before-images, if none changed since."""
        return self.journal.undo(run_id)

    def undo_blockers(self, run_id: str) -> tuple[JournalEntry, list[str]]:
        """The run, and its rows changed since when that is every row it changed (undo then
        refuses); rows the bot changed or deleted beside others are skipped by undo, named."""
        return self.journal.blockers(run_id)

    def blocking_rows(self, entry: JournalEntry) -> list[str]:
        """The run's rows changed since, when that is every row it changed."""
        changes, _ = changes_of(entry)
        changed = self._changed_since(changes)
        return changed if changed and len(changed) == len(changes) else []

    def _changed_since(self, changes: list[RowChange]) -> list[str]:
        """The rows no longer as the run left them, the deleted ones marked so."""
        rows = self._read([c.row_id for c in changes])
        return [
            f"mc-{c.row_id}" + ("" if c.row_id in rows else " (deleted)")
            for c in changes
            if not same(rows.get(c.row_id), c.after, IMAGED)
        ]

    def undo_rows(self, entry: JournalEntry) -> JournalEntry:
        """Put back the rows a run changed, journaled as its undo (under the lock)."""
        run_id = entry.run_id
        why = tampered(entry)
        if why:
            raise NuggetsError(
                f"cannot undo {run_id}: its journal entry was edited ({why}); nothing was written"
            )
        changes, edges = changes_of(entry)
        changed = self._changed_since(changes)
        if changed and len(changed) == len(changes):
            raise UndoConflictError(
                f"cannot undo {run_id}: these memories changed since: {', '.join(changed)}",
                [c.split()[0] for c in changed],
            )
        # A row the bot changed or deleted since keeps what the bot did; the others go back.
        skipped = {row_id_of(c.split()[0]) for c in changed}
        before = {c.row_id: c.after for c in changes if c.row_id not in skipped}
        after = {c.row_id: c.before for c in changes if c.row_id not in skipped}
        nuggets = {row_id_of(i): str(n.get("nuggetName", "")) for i, n in entry.after.items()}
        summary = f"undid {run_id}"
        if changed:
            said = left_as_they_are(changed)
            summary += f"; {said}"
            self.notices.append(f"undo of {run_id}: {said}")
        if edges:
            summary += f"; its {len(edges)} supersede edges stay (rows are never deleted)"
        links = {row_id_of(i): list(n.get("links", [])) for i, n in entry.after.items()}
        committed = self._commit(
            "undo",
            before,
            after,
            [],
            nuggets,
            self.now(),
            undoes=run_id,
            summary=summary,
            links=links,
        )
        if committed is None:
            raise NuggetsError(f"run {run_id} changed nothing; there is nothing to undo")
        return committed

    # -- the journaled write ------------------------------------------------------------------

    def _commit(
        self,
        kind: JournalKind,
        before: dict[int, Row],
        after: dict[int, Row],
        edges: list[Edge],
        nuggets: dict[int, str],
        at: str,
        operations: list[Operation] | None = None,
        result: ReflectionResult | None = None,
        undoes: str | None = None,
        summary: str = "",
        links: dict[int, list[dict[str, Any]]] | None = None,
    ) -> JournalEntry | None:
        """Journal ahead, write the rows in one transaction, commit the entry."""
        if not edges and all(same(after[i], before[i], IMAGED) for i in before):
            return None
        links = links or {}
        added: dict[int, list[dict[str, Any]]] = {}
        for edge in edges:
            added.setdefault(edge.from_id, []).append(
                {"to": f"mc-{edge.to_id}", "reason": edge.reason, "createdAt": edge.created_at}
            )
        images_before = {
            f"mc-{i}": note_image(i, nuggets.get(i, ""), row, links.get(i, []))
            for i, row in before.items()
        }
        images_after = {
            f"mc-{i}": note_image(
                i, nuggets.get(i, ""), after[i], links.get(i, []) + added.get(i, [])
            )
            for i in before
        }
        seq, run_id = next_run_id(self.journal_home, at)
        entry = JournalEntry.model_construct(
            run_id=run_id,
            seq=seq,
            kind=kind,
            at=at,
            base_fingerprint=fingerprint(json_bytes(images_before, indent=False)),
            result_fingerprint=fingerprint(json_bytes(images_after, indent=False)),
            operations=operations or [],
            result=result,
            before=images_before,
            after=images_after,
            undoes=undoes,
            summary=summary,
            side_file_edits=[],
            files=[],
        )
        changes = [RowChange(i, before[i], after[i]) for i in before]
        return self.journal.commit(
            entry, self.db, lambda landing: write_rows(self.db, changes, edges, self.busy_timeout)
        )

    # -- AGENTS.md --------------------------------------------------------------------------

    def promote(
        self, plan: PromotionPlan, check: Callable[[], None] = lambda: None
    ) -> JournalEntry | None:
        """Write one planned AGENTS.md over the version it was planned from, journaled; None
        when it changes nothing or its directory does not exist. `check` raises when the
        file may not be written any more (core/safeio/scope_folder.py): it runs under the lock."""
        if not plan.changes_file:
            return None
        path = Path(plan.path)
        before = None if plan.base_fingerprint == EMPTY_FINGERPRINT else plan.before_text
        with self.exclusive(), directory_lock(path):
            check()
            self.journal.settle_leftovers()
            return self.journal.replace(
                path,
                before,
                plan.after_text,
                plan.base_fingerprint,
                "promote",
                f"promoted to {path}: {plan.added} added",
                promoted=[e for e in plan.entries if e.action != "same"],
            )

    def write_file(
        self, path: Path, before: str | None, after: str, kind: JournalKind, summary: str
    ) -> JournalEntry:
        """Replace a small file of ours (read as `before`, None when absent), journaled."""
        return self.journal.write_file(path, before, after, kind, summary)

    # -- settling -----------------------------------------------------------------------------

    @property
    def settled_file(self) -> Path:
        """Our file of contradiction groups let stand (core/review/decisions.py)."""
        return self.journal_home / SETTLED_FILE

    def recover(self) -> list[str]:
        """Settle what an interrupted run left: a pending entry becomes the run's journal
        entry exactly when its transaction committed; says what it did."""
        return self.journal.recover()

    # -- reading the journal ------------------------------------------------------------------

    def run(self, run_id: str) -> JournalEntry:
        return self.journal.run(run_id)

    def log(self) -> list[JournalHeader]:
        return self.journal.log()

    def promoted_to(self, path: Path) -> set[str]:
        """The rows our promotions still in effect wrote to this AGENTS.md."""
        headers, _ = read_headers(self.journal_home, self.files)
        found: set[str] = set()
        for header in headers:
            if (
                header.kind != "promote"
                or header.file_name is None
                or not in_effect(headers, header.run_id)
            ):
                continue
            with contextlib.suppress(OSError, NuggetsError):  # log and undo say what is wrong
                if own_file(header.file_name, self.files).path == path:
                    found |= {e.note_id for e in self.run(header.run_id).promoted or []}
        return found


class RowsTarget:
    """What the journal (core/journal/journal.py) writes in a MicroClaw data dir: rows of the
    bot's database in one transaction, whose landing its marks tell (is_archived,
    archived_at; else its edges); AGENTS.md files and our small files beside the journal."""

    def __init__(self, runs: MicroClawRuns) -> None:
        self.runs = runs

    def lock(self) -> contextlib.AbstractContextManager[None]:
        return self.runs.exclusive()

    def files(self) -> list[Path]:
        return [self.runs.settled_file, self.runs.journal_home / RULES_FILE]

    def folders(self) -> list[Path]:
        return []

    def landed(self, entry: JournalEntry) -> bool | None:
        return landed(self.runs.db, *changes_of(entry))

    def discard(self, entry: JournalEntry) -> None:
        return None  # one transaction: nothing else was written

    def restore(self, journal: Journal, entry: JournalEntry, batch: Batch | None) -> JournalEntry:
        """Checked again while the bot keeps changing the rows (bounded)."""
        if entry.file_name is not None:  # an AGENTS.md or a file of ours, no rows
            return retrying(lambda: journal.undo_file(entry, batch), str(self.runs.db))
        return retrying(lambda: self.runs.undo_rows(entry), str(self.runs.db))

    def blockers(self, entry: JournalEntry, graph: Graph | None) -> list[str]:
        return self.runs.blocking_rows(entry)  # read afresh: `graph` is not needed

    def undone(self) -> None:
        return None
