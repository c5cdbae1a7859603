"""The main screen: nuggets, the notes table, the selected note, and an overview of the memory."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList, Static
from textual.worker import get_current_worker

from core.browse.overview_stats import Overview, overview
from core.browse.shelf import NuggetSummary, Shelf
from core.browse.sort_orders import LABELS, NoteOrder, OrderedNotes, next_order
from core.clock import shown_time
from core.contract.parts import Restorer, SystemRun, UnhideOutlook
from core.contract.store import Store
from core.errors import NuggetsError, UndoConflictError
from core.journal.aftermath import Aftermath
from core.journal.history import last_undoable
from core.models import JournalEntry, Plan, RawNote
from core.notes import fields
from core.notes.snapshot import Graph
from core.progress import Stopped
from core.review.marks import MARKS, Mark, mark_notes
from core.review.service import ReviewService
from core.review.verdicts import VERDICTS, Verdict
from core.safeio.inert_text import one_line

from ..foretold import afterwards, foretold
from ..safe import block, counted, join, line, notify, restored_words, shown_path
from ..since import News, news_kept, news_of, since_text
from ..widgets.busy import Busy
from ..widgets.footer import Footer
from ..widgets.note_detail import NoteDetailPane
from ..widgets.note_table import SCORING, UNSCORED, NoteTable
from ..widgets.nugget_list import NuggetList
from ..widgets.overview import OverviewPanel
from ..widgets.secret_mark import SecretMarks
from ..widgets.virtual_table import VirtualTable
from .base import ConsoleScreen
from .confirm import ChoiceScreen, ConfirmScreen, if_yes, plan_asked
from .from_worker import to_screen

BLOCKERS_SHOWN = 20  # notes named in the dialog when an undo is blocked
CHANGED_SHOWN = 5  # notes a run changed, named in its undo's confirmation
FIRST_PAGE = 100  # notes read from the head of the file to show while the rest is read
# nugget (None: all), archived, filter, order, verdict (None: any)
View = tuple[str | None, bool, str, NoteOrder, str | None]
VERDICT_FILTERS: tuple[str | None, ...] = (None, *VERDICTS)
Then = Callable[[], None] | None  # what follows a flow once it is done (None: nothing)
Show = Callable[[str], None] | None  # where a note an undo is blocked by is shown (None: here)


@dataclass
class Loaded:
    shelf: Shelf
    nuggets: list[NuggetSummary]
    stamp: Hashable
    view: View
    rows: list[RawNote]
    health: list[str]  # what the system gets wrong silently, shown while it holds


class MainScreen(ConsoleScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "slash",
            "filter",
            "Filter",
            key_display="/",
            id="main.filter",
            tooltip="Filter the notes as you type (title, content and tags)",
        ),
        Binding(
            "s",
            "sort",
            "Sort",
            id="main.sort",
            tooltip="Sort the notes: file order, hits ↓, updated ↓, title (selection stays)",
        ),
        Binding(
            "h",
            "toggle_hidden",
            "Archived",
            id="main.hidden",
            tooltip="Show or hide archived notes (marked A)",
        ),
        Binding(
            "r",
            "review",
            "Review",
            id="main.review",
            tooltip="Review a dry run of the reflection pass on this nugget (or all)",
        ),
        Binding(
            "u",
            "unhide",
            "Unhide",
            id="main.unhide",
            tooltip="Bring the selected archived note back",
        ),
        Binding(
            "x",
            "archive",
            "Archive",
            id="main.archive",
            tooltip="Archive the selected note by hand, after confirming (ctrl+z undoes it)",
        ),
        Binding(
            "ctrl+z",
            "undo",
            "Undo",
            id="main.undo",
            tooltip="Undo the last applied run, after confirming",
        ),
        Binding(
            "p",
            "promote",
            "Promote",
            id="main.promote",
            tooltip="Promote durable notes to the file the agent always loads, after a diff",
        ),
        Binding(
            "g",
            "graph",
            "Graph",
            id="main.graph",
            tooltip="Walk the link graph from the selected note",
        ),
        Binding(
            "l",
            "history",
            "Runs",
            id="main.history",
            tooltip="Every applied run with what it changed; undo any of them",
        ),
        Binding(
            "f",
            "files",
            "Files",
            id="main.files",
            tooltip="The memory files the agent keeps beside this nugget, read-only",
        ),
        Binding(
            "c",
            "conflicts",
            "Conflicts",
            id="main.conflicts",
            tooltip="The contradiction queue: notes of one topic that disagree; decide "
            "which stands, merge them, or let both stand",
        ),
        Binding(
            "v",
            "verdict_filter",
            "Verdict",
            id="main.verdict",
            tooltip="Show only the notes of one verdict: all, reject, defer, compress, "
            "merge, promote (the detail pane explains each score); scores them "
            "if scoring was stopped",
        ),
        Binding(
            "m",
            "mark",
            "Mark",
            show=False,
            id="main.mark",
            tooltip="Mark the selected note reviewed or disputed, or clear its mark: our own "
            "mark, never in the system's files (ctrl+z undoes it); where the system "
            "keeps marks",
        ),
        Binding(
            "V",
            "versions",
            "Versions",
            show=False,
            id="main.versions",
            tooltip="The versions kept of the selected note, each with its text and its "
            "diff against the note now, read-only; where the system keeps them",
        ),
        Binding(
            "R",
            "system_run",
            "Run it",
            show=False,
            id="main.system_run",
            tooltip="Start a run of the system's own program (a reconciliation, an upgrade "
            "acknowledged), after saying what it does, with its health lines; where the "
            "system runs itself",
        ),
        Binding(
            "d",
            "dismiss_since",
            "Hide news",
            show=False,
            id="main.dismiss_since",
            tooltip="Hide the since-your-last-visit header (the next opening tells only what "
            "happens after)",
        ),
        Binding(
            "ctrl+b",
            "toggle_sidebar",
            "Sidebar",
            show=False,
            id="main.sidebar",
            tooltip="Hide the sidebar (the groups and their counts) to give the notes the "
            "whole width, or show it again",
        ),
        Binding(
            "escape",
            "clear_filter",
            "Clear filter",
            show=False,
            id="main.clear",
            tooltip="Clear the filter and go back to the table; while verdicts are "
            "scored, stop scoring (v scores them)",
        ),
    ]
    # The keys a narrow footer keeps first (the rest as room allows; `?` lists them all): the
    # review, undo, the link graph, promotion, the queue and the runs, then how to quit.
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = (
        "main.review",
        "main.undo",
        "main.graph",
        "main.promote",
        "main.conflicts",
        "main.history",
        "app.quit",
        "main.filter",
        "main.archive",
    )

    def __init__(
        self, memory: Store, watch_interval: float = 1.0, told: Sequence[str] = ()
    ) -> None:
        """`told`: what the command line had to say about the memory, said when it opens."""
        super().__init__()
        self.memory = memory
        self.told = list(told)
        self.shelf: Shelf | None = None
        self.nugget: str | None = None
        self.show_hidden = False
        self.query_text = ""
        self.order: NoteOrder = "file"
        self.verdict_filter: str | None = None
        self.verdicts: dict[str, Verdict] | None = None  # by note id, once scored after a load
        self._ordered = OrderedNotes()
        self.stamp: Hashable = None
        self.watch_interval = watch_interval
        self._pending_select: str | None = None
        self._filtering = 0  # which refilter the table shows, so a slower older one can't win
        self._opened = False
        self._reading = True  # the first whole read of the file is under way
        self._keys_state: tuple[bool, bool] = (False, False)
        self.prepared_plan: Plan | None = None  # the capped dry run of every nugget, made ahead
        self.review_at: str | None = None  # the change the review's cursor was last left on
        # what the memory's own program did since to our runs' notes: per note, and the line
        # last told about the newest run (told once)
        self.since_notes: dict[str, str] = {}
        self._since_told = ""

    def compose(self) -> ComposeResult:
        home = shown_path(self.memory.home)
        yield Static(
            join(line(self.memory.profile.system, "bold"), "  ", line(home)), id="title-bar"
        )
        with Horizontal():
            with Vertical(id="sidebar"):
                yield NuggetList(self.memory.profile, id="nuggets")
                yield OverviewPanel(self.memory.profile, id="overview")
            with Vertical(id="content"):
                yield Input(placeholder="/ filter by title, content or tags", id="filter")
                yield Static("", id="problem")
                yield Static("", id="health")
                yield Static("", id="since-visit")
                promoter = self.memory.promoter
                secrets = SecretMarks(promoter is not None and promoter.allow_contact)
                yield NoteTable(self.memory.profile.columns, id="notes", secrets=secrets)
                pane = NoteDetailPane(id="detail")
                pane.secrets = secrets
                pane.columns = self.memory.profile.columns
                if self.memory.versions is not None:
                    pane.hint = "V: the versions kept of it, with diffs"
                yield pane
        yield Busy()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(NoteTable).focus()
        self._show_since()
        self.reload()
        self.set_interval(self.watch_interval, self._check_file)

    # -- loading ------------------------------------------------------------------------------

    def reload(self, quiet: bool = False) -> None:
        """Read the memory again, showing progress unless `quiet`."""
        if not quiet:
            self.query_one(Busy).start("Loading the memory…")
        self._load(quiet)

    @work(thread=True, exclusive=True, group="load", description="reload")
    def _load(self, quiet: bool) -> None:
        """Read the memory and show it at once; then, in the same background thread, build the
        search and backlink indexes, the overview, and the capped dry run `r` will show."""
        call = partial(to_screen, self)
        stamp = self.memory.stamp()
        if self.shelf is None and not quiet:
            # A page of notes from the head of the file while the whole of it is read: shown,
            # never acted on (every key that acts waits for the shelf).
            first_notes = self.memory.first_notes
            head = first_notes(FIRST_PAGE) if first_notes is not None else []
            if head:
                call(self._peeked, head)
        try:
            # what interrupted writes left, said with the rest
            opened = [] if self._opened else [*self.told, *self.memory.open(read=False).messages]
            shelf = Shelf(self.memory.read())
            settled = [*opened, *self.memory.take_notices()]  # what the read skipped (a bad line)
            nuggets = shelf.nuggets()
        except NuggetsError as exc:
            call(self._load_failed, str(exc), stamp)
            return
        # The rows for the view as it stands, here rather than in another hop to a thread.
        view = self._view({n.name for n in nuggets})
        rows = self._rows(shelf, view)
        keeper = self.memory.keeper
        health = keeper.health() if keeper is not None else []
        news = news_kept(self.app)
        # a quiet load follows another program's write; any other, one of ours (or the first)
        heard = news is not None and news.catch_up(ours=not quiet)
        loaded = Loaded(shelf, nuggets, stamp, view, rows, health)
        call(self._loaded, loaded, quiet, settled, heard)
        shelf.prepare()
        call(self._prepared, shelf, overview(nuggets, shelf.notes))
        self._read_since(shelf)
        self._read_health(shelf)
        try:  # no plan ahead when planning costs something (a model's tokens): `r` asks first
            plan = (
                None
                if self.memory.profile.capabilities.costly_plans
                else self.memory.plan(graph=shelf.graph)
            )
        except NuggetsError:
            plan = None  # `r` plans again and says what is wrong
        if plan is not None:
            call(self._planned_ahead, shelf, plan)
        call(self._score, shelf)

    def _read_since(self, shelf: Shelf) -> None:
        """What was done since to our runs' notes (in the load's thread): each note's remark
        for its detail, and one notice when the newest run's notes were changed."""
        teller = self.memory.aftermaths
        if teller is None:
            return  # the store cannot tell
        try:  # the journal read quietly: an unreadable entry is the history's to tell
            since = teller.aftermath()
        except NuggetsError:
            return  # the history and ctrl+z say what is wrong with the journal
        newest = next((found for found in since.values() if found.newest), None)
        to_screen(self, self._since_read, shelf, since, newest)

    def _read_health(self, shelf: Shelf) -> None:
        """What the store's doctor says will undo the operator's decisions, for the header (in
        the load's thread: it reads a few small files)."""
        doctor = self.memory.doctor
        if doctor is None:
            return
        try:
            headline = doctor.headline(doctor.check(shelf.graph))
        except NuggetsError:
            return  # `nuggets doctor` says what is wrong
        to_screen(self, self._health_read, "" if headline is None else headline.brief)

    def _health_read(self, brief: str) -> None:
        home = shown_path(self.memory.home)
        parts: list[Text | str] = [line(self.memory.profile.system, "bold"), "  ", line(home)]
        if brief:
            parts += ["  ", line(f"⚠ {brief}", "bold yellow")]
        self.query_one("#title-bar", Static).update(join(*parts))

    def _since_read(
        self, shelf: Shelf, since: dict[str, Aftermath], newest: Aftermath | None
    ) -> None:
        if shelf is not self.shelf:
            return
        self.since_notes = {n: said for a in since.values() for n, said in a.notes.items()}
        self._refresh_detail()
        told = f"Run {newest.run_id}: {newest.line} (l: the run history)" if newest else ""
        if told and told != self._since_told:
            notify(self, told, title="Since the last run", severity="warning", timeout=12)
        self._since_told = told

    @work(thread=True, exclusive=True, group="judge", description="_score")
    def _score(self, shelf: Shelf) -> None:
        """The verdicts, last and apart from the load (a change on disk reloads meanwhile):
        the table shows and acts without them; escape stops them (`_stop_judging`)."""
        busy, worker = self.query_one(Busy), get_current_worker()
        to_screen(self, self._judging, busy, len(shelf.graph.notes))
        try:
            judgement = ReviewService(self.memory).verdicts(
                shelf.graph.notes, progress=busy.told, should_stop=lambda: worker.is_cancelled
            )
        except Stopped:
            return  # escape said so
        except NuggetsError:
            to_screen(self, self._not_judged)
            return
        to_screen(self, self._judged, shelf, {v.note_id: v for v in judgement.verdicts})

    def _peeked(self, head: list[RawNote]) -> None:
        if self.shelf is None and self._view(set()) == (None, False, "", "file", None):
            table = self.query_one(NoteTable)
            table.set_rows(head)
            table.border_title = f"the first {counted(len(head), 'note')} · reading the whole file…"

    def _loaded(self, loaded: Loaded, quiet: bool, settled: list[str], heard: bool) -> None:
        self.query_one(Busy).stop()
        self._reading = False
        previous = self.shelf
        self.shelf, self.stamp, self.prepared_plan = loaded.shelf, loaded.stamp, None
        self._show_problem(None)
        view = self._view({n.name for n in loaded.nuggets})
        self.nugget = view[0]
        self.query_one(NuggetList).show(loaded.nuggets, self.nugget)
        if view == loaded.view:
            self._filtering += 1
            self._show_rows(loaded.shelf, self._filtering, loaded.rows)
        else:
            self.refilter()
        warnings = loaded.shelf.graph.warnings
        self._show_health(loaded.health)
        settled = [message for message in settled if message not in loaded.health]
        if not self._opened or warnings != (previous.graph.warnings if previous else []):
            self.tell(settled + warnings)
        self._opened = True
        if (
            quiet
            and previous is not None
            and (previous.graph.fingerprint != loaded.shelf.graph.fingerprint)
        ):
            told = (
                " “Since your last visit” says what its runs did."
                if heard and news_of(self.app) is not None
                else ""
            )
            notify(
                self,
                f"The {self.memory.profile.source_label} changed on disk; the console reloaded "
                f"it.{told}",
                title="Reloaded",
            )
        if heard:
            self._show_since()
        self.refresh_bindings()

    def _prepared(self, shelf: Shelf, figures: Overview) -> None:
        if shelf is self.shelf:
            self.query_one(OverviewPanel).show(figures)
            self._refresh_detail()

    def _planned_ahead(self, shelf: Shelf, plan: Plan) -> None:
        if shelf is self.shelf:
            self.prepared_plan = plan

    def _judging(self, busy: Busy, notes: int) -> None:
        self.query_one(NoteTable).show_verdicts({}, SCORING)
        busy.start(f"Scoring the verdicts of {counted(notes, 'note')}…", stops="esc")

    def _stop_judging(self) -> None:
        """Escape while verdicts are scored: they stop; the column says none until `v`."""
        self.workers.cancel_group(self, "judge")
        self._not_judged()
        notify(
            self,
            "Stopped scoring the verdicts: the Verdict column shows – until v scores them.",
            timeout=5,
        )

    def _not_judged(self) -> None:
        self.query_one(Busy).stop()
        self.query_one(NoteTable).show_verdicts({}, UNSCORED)

    def _judged(self, shelf: Shelf, verdicts: dict[str, Verdict]) -> None:
        self.query_one(Busy).stop()
        if shelf is not self.shelf:
            return
        self.verdicts = verdicts
        self.query_one(NoteTable).show_verdicts(verdicts)
        if self.verdict_filter is not None:
            self.refilter()
        else:
            self._refresh_detail()

    def _load_failed(self, message: str, stamp: Hashable) -> None:
        self.query_one(Busy).stop()
        self._reading = False
        self.stamp = stamp
        if self.shelf is None:  # nothing was ever read whole: the first page goes too
            table = self.query_one(NoteTable)
            table.set_rows([])
            table.border_title = ""
        kept = " Showing the last version that could be read." if self.shelf else ""
        self._show_problem(
            f"{message}. The file is left untouched; fix or replace it and the "
            f"console reloads it.{kept}"
        )
        self.refresh_bindings()

    def _show_health(self, lines: list[str]) -> None:
        """The system's health lines, one line on the screen for as long as they hold (its
        tooltip and R hold them whole), instead of notices that go away."""
        health = self.query_one("#health", Static)
        health.display = bool(lines)
        more = f" (+{len(lines) - 1} more: hover, or R)" if len(lines) > 1 else ""
        health.update(join(line("Health: ", "bold"), line(lines[0] if lines else ""), more))
        health.tooltip = "\n".join(lines) or None

    def _show_problem(self, message: str | None) -> None:
        problem = self.query_one("#problem", Static)
        problem.display = message is not None
        problem.update(line(message or ""))

    def _check_file(self) -> None:
        """Another process (the agent) may rewrite the graph file at any moment. Not while a
        write of ours runs or another screen is on top: what we write is read again when it
        lands, and is no news."""
        if self.app.screen is not self or self.workers_busy("write"):
            return
        # Looked at again after what is queued: a screen that wrote and left may have its
        # answer (`_after_write`, which reloads) waiting behind this tick.
        self.call_later(self._look_at_file)

    def _look_at_file(self) -> None:
        if self.app.screen is not self or self.workers_busy("write"):
            return
        stamp, news = self.memory.stamp(), news_kept(self.app)
        if self.workers_busy("load"):
            return
        if stamp != self.stamp:
            self.stamp = stamp
            self.reload(quiet=True)
        elif news is not None and news.stirred():
            self._hear(news)

    @work(thread=True, exclusive=True, group="news", description="_hear")
    def _hear(self, news: News) -> None:
        """Runs another program wrote with no change to the file the console watches (a
        promotion): told in the header."""
        if news.catch_up(ours=False):
            to_screen(self, self._heard)

    def _heard(self) -> None:
        showing = self.query_one("#since-visit", Static).display
        self._show_since()
        self.refresh_bindings()
        if showing or news_of(self.app) is None:
            return  # the header, in view, says it (or there is nothing to tell)
        notify(
            self,
            "New runs by another program (the daily pass, a command): “Since your last visit” "
            "says what they did.",
            title="New runs",
        )

    # -- the table ----------------------------------------------------------------------------

    def _view(self, nuggets: set[str]) -> View:
        """What the table shows: the nugget (None for all, or when it is gone), archived notes
        or not, the filter text."""
        nugget = self.nugget if self.nugget in nuggets else None
        return nugget, self.show_hidden, self.query_text, self.order, self.verdict_filter

    def refilter(self) -> None:
        shelf = self.shelf
        if shelf is None:
            return
        self._filtering += 1
        view = (self.nugget, self.show_hidden, self.query_text, self.order, self.verdict_filter)
        if shelf.prepared:
            # With the search index built, a pass over 100k notes takes tens of milliseconds:
            # less than handing it to a thread that would share the interpreter with us.
            self._show_rows(shelf, self._filtering, self._rows(shelf, view))
        else:
            self._filter(shelf, view, self._filtering)

    def _rows(self, shelf: Shelf, view: View) -> list[RawNote]:
        nugget, hidden, query, order, verdict = view
        rows = shelf.list_notes(nugget, include_hidden=hidden, query=query or None)
        verdicts = self.verdicts
        if verdict is not None and verdicts is not None:
            rows = [r for r in rows if (v := verdicts.get(r["id"])) and v.verdict == verdict]
        return self._ordered.view(shelf.notes, rows, order)

    @work(thread=True, exclusive=True, group="filter", description="_filter")
    def _filter(self, shelf: Shelf, view: View, asked: int) -> None:
        rows = self._rows(shelf, view)
        to_screen(self, self._show_rows, shelf, asked, rows)

    def _show_rows(self, shelf: Shelf, asked: int, rows: list[RawNote]) -> None:
        if shelf is not self.shelf or asked != self._filtering:
            return  # a reload or a newer filter came in between; it shows its own rows
        table = self.query_one(NoteTable)
        keep = self._pending_select or (table.current["id"] if table.current else None)
        self._pending_select = None
        table.set_rows(rows, keep_key=keep)
        self._refresh_detail()  # now, in the same frame as the rows, not a message later
        scope = line(self.memory.profile.scope(self.nugget))
        archived = "with archived" if self.show_hidden else "archived hidden"
        order = "" if self.order == "file" else f" · by {LABELS[self.order]}"
        verdict = "" if self.verdict_filter is None else f" · verdict {self.verdict_filter}"
        if self.verdict_filter is not None and self.verdicts is None:
            verdict += " (scoring…)"
        table.border_title = join(
            counted(len(rows), "note"), " · ", scope, f" · {archived}{order}{verdict}"
        )

    @on(VirtualTable.Highlighted, "#notes")
    def _note_highlighted(self, event: VirtualTable.Highlighted) -> None:
        self._refresh_detail()
        note = self.current_note
        keys_state = (note is not None, note is not None and fields.hidden(note))
        if keys_state != self._keys_state:  # the footer is rebuilt on every refresh
            self._keys_state = keys_state
            self.refresh_bindings()

    def _refresh_detail(self) -> None:
        note, shelf, pane = self.current_note, self.shelf, self.query_one(NoteDetailPane)
        if shelf is None:
            pane.show(None, empty="The details follow once the whole file is read.")
        else:
            verdict = self.verdicts.get(note["id"]) if note and self.verdicts else None
            pane.show(
                shelf.detail(note["id"], backlinks=shelf.prepared) if note else None,
                verdict=verdict,
                remark=self.since_notes.get(note["id"]) if note else None,
            )

    @on(OptionList.OptionHighlighted, "#nuggets")
    def _nugget_chosen(self, event: OptionList.OptionHighlighted) -> None:
        name = self.query_one(NuggetList).selected_name
        if name != self.nugget:
            self.nugget = name
            self.refilter()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self.refilter()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.query_one(NoteTable).focus()

    @property
    def current_note(self) -> RawNote | None:
        """The highlighted note; None until the whole file is read (the first page shown before
        is not acted on)."""
        return self.query_one(NoteTable).current if self.shelf is not None else None

    def show_nugget(self, name: str | None) -> None:
        nuggets = self.query_one(NuggetList)
        if name in nuggets.names:
            nuggets.highlighted = nuggets.names.index(name)

    def select_note(self, note_id: str) -> None:
        """Show a note wherever it is: widen the view when the filter hides it."""
        if self.shelf is None:
            return
        note = self.shelf.graph.get(note_id)
        table = self.query_one(NoteTable)
        table.focus()
        if note is None or table.select_key(note_id):
            return
        self.nugget = None
        self.show_hidden = self.show_hidden or fields.hidden(note)
        self.verdict_filter = None
        self.query_text = ""
        self.query_one("#filter", Input).value = ""
        self.query_one(NuggetList).highlighted = 0
        self._pending_select = note_id
        self.refilter()

    # -- actions ------------------------------------------------------------------------------

    # The keys that act on the memory; while it is still being read they are dimmed and say so.
    ACTING = {
        "r": "review",
        "p": "promote",
        "ctrl+z": "undo",
        "l": "history",
        "g": "graph",
        "u": "unhide",
        "c": "conflicts",
    }

    @property
    def footer_note(self) -> str:
        return "still reading…" if self._reading else ""

    def on_key(self, event: events.Key) -> None:
        if self.footer_note and event.key in self.ACTING:
            event.stop()
            notify(self, f"Still reading the memory: {event.key} works once it is read.", timeout=3)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        note = self.current_note if self.is_mounted else None
        if action == "unhide":
            return (
                True
                if note is not None and (fields.hidden(note) or self._restorable(note))
                else None
            )
        if action == "archive":
            return True if note is not None and not fields.hidden(note) else None
        if action == "graph":
            return True if note is not None else None
        if action == "dismiss_since":
            return True if news_of(self.app) is not None else None
        if action == "mark" and not self.memory.profile.capabilities.marks:
            return False
        if action == "versions" and self.memory.versions is None:
            return False
        if action == "system_run" and self.memory.keeper is None:
            return False
        if action in ("mark", "versions"):
            return True if note is not None else None
        if action == "promote" and self.memory.promoter is None:  # nothing it could write
            return False
        if action in ("review", "promote", "undo", "history", "conflicts"):
            return True if self.shelf is not None else None
        return True

    def _show_since(self) -> None:
        """What happened since the last visit, over the notes until `d` hides it."""
        news, header = news_of(self.app), self.query_one("#since-visit", Static)
        header.display = news is not None
        if news is not None:
            header.update(since_text(news.since, "r reviews them"))

    def on_screen_resume(self) -> None:
        self._show_since()  # hidden on another screen meanwhile

    def action_dismiss_since(self) -> None:
        news = news_of(self.app)
        if news is not None:
            news.dismiss()
            self._show_since()
            self.refresh_bindings()

    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one("#sidebar")
        sidebar.display = not sidebar.display

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#filter", Input)
        if field.value:
            field.value = ""
        elif self._scoring():
            self._stop_judging()
        self.query_one(NoteTable).focus()

    def action_sort(self) -> None:
        self.order = next_order(self.order)
        self.refilter()

    def action_toggle_hidden(self) -> None:
        self.show_hidden = not self.show_hidden
        self.refilter()
        notify(
            self,
            "Showing archived notes." if self.show_hidden else "Archived notes hidden.",
            timeout=2,
        )

    def _scoring(self) -> bool:
        return self.workers_busy("judge")

    def action_verdict_filter(self) -> None:
        if self.verdicts is None and self.shelf is not None and not self._scoring():
            self._score(self.shelf)  # stopped before: scored now
        at = VERDICT_FILTERS.index(self.verdict_filter)
        self.verdict_filter = VERDICT_FILTERS[(at + 1) % len(VERDICT_FILTERS)]
        self.refilter()
        shown = self.verdict_filter or "any"
        waiting = (
            " (still scoring: the filter applies once scored)" if self.verdicts is None else ""
        )
        notify(self, f"Verdict: {shown}.{waiting}", timeout=2)

    def action_conflicts(self) -> None:
        from .conflicts import ConflictsScreen

        self.app.push_screen(
            ConflictsScreen(self.memory, self._current_graph(), self.verdicts, undo=self.undo_last),
            self._after_write,
        )

    def action_review(self) -> None:
        plan_asked(self, self.memory.profile, self._review)

    def _review(self) -> None:
        from .review import ReviewScreen

        graph = self._current_graph()
        prepared = self.prepared_plan if graph is not None and self.nugget is None else None
        review = ReviewScreen(
            self.memory,
            self.nugget,
            graph=graph,
            prepared=prepared,
            watch_interval=self.watch_interval,
            at=self.review_at,
        )

        def left(applied: bool | None) -> None:
            self.review_at = review.at
            self._after_write(applied)

        self.app.push_screen(review, left)

    def action_promote(self) -> None:
        from .promote import PromoteScreen

        self.app.push_screen(
            PromoteScreen(self.memory, self._current_graph(), self.nugget),
            lambda _: self.tell(self.memory.take_notices()),
        )

    def action_graph(self) -> None:
        from .graph import GraphScreen

        note = self.current_note
        if note is None or self.shelf is None:
            return
        self.app.push_screen(
            GraphScreen(
                self.shelf,
                note["id"],
                self.nugget,
                self.memory.profile.columns,
                self.memory.profile.scope(self.nugget),
                self.verdicts,
            ),
            self._jump,
        )

    def action_files(self) -> None:
        from .files import FilesScreen

        self.app.push_screen(FilesScreen(self.memory, self.nugget, self.current_note))

    def action_versions(self) -> None:
        from .versions import VersionsScreen

        note = self.current_note
        if note is not None and self.memory.versions is not None:
            self.app.push_screen(VersionsScreen(self.memory.versions, note))

    def action_history(self) -> None:
        """The run history: a run undone from it is asked about over it; it closes on a note
        to show here (one that blocks an undo)."""
        from .history import HistoryScreen

        def chosen(note_id: str | None) -> None:
            if note_id:
                self.select_note(note_id)

        self.app.push_screen(HistoryScreen(self.memory, self.undo_run), chosen)

    def _current_graph(self) -> Graph | None:
        """The graph as loaded, while the file on disk is still that version (by its stat);
        planning from it saves reading a large file again."""
        # A reload under way has taken the new stamp already, not yet the new notes.
        if self.shelf is None or self.workers_busy("load") or self.memory.stamp() != self.stamp:
            return None
        return self.shelf.graph

    def _jump(self, note_id: str | None) -> None:
        if note_id:
            self.select_note(note_id)

    def _after_write(self, wrote: bool | None) -> None:
        self.tell(self.memory.take_notices())
        if wrote:
            self.reload()

    def action_unhide(self) -> None:
        note = self.current_note
        if note is not None and not fields.hidden(note) and self._restorable(note):
            self._ask_restore(note)
            return
        if note is None or not fields.hidden(note):
            return
        self._unhide_outlook(note)

    @work(thread=True, exclusive=True, group="write", description="_unhide_outlook")
    def _unhide_outlook(self, note: RawNote) -> None:
        """What unhiding leads to, read aside: a lift the store offers is asked about."""
        try:
            outlook = self.memory.by_hand.unhide_outlook([note["id"]])
        except NuggetsError:
            outlook = UnhideOutlook()  # the unhide itself says what is wrong
        to_screen(self, self._ask_unhide, note, outlook)

    def _ask_unhide(self, note: RawNote, outlook: UnhideOutlook) -> None:
        if not outlook.lift and not outlook.warnings:
            self._unhide(note)
            return
        if not outlook.lift:
            body = join("Bring back ", _quoted(note), "?", *afterwards(outlook.warnings))
            self.app.push_screen(
                ConfirmScreen("Unhide this note", body, yes="Unhide"),
                if_yes(lambda: self._unhide(note)),
            )
            return
        body = join(
            "Bring back ",
            _quoted(note),
            "?\n\n",
            *(join(line(w), "\n") for w in outlook.warnings),
            "\nThe same run can ",
            line(outlook.lift),
            "; undo puts it back.",
        )
        choices = [("r", "Unhide and raise", "lift"), ("u", "Unhide only", "plain")]

        def answered(choice: str | None) -> None:
            if choice:
                self._unhide(note, choice == "lift")

        self.app.push_screen(ChoiceScreen("Unhide this note", body, choices), answered)

    def action_mark(self) -> None:
        note = self.current_note
        if note is None or not self.memory.profile.capabilities.marks:
            return
        now = str(note.get("mark") or "")
        choices: list[tuple[str, str, str]] = [(m[0], m.capitalize(), m) for m in MARKS if m != now]
        choices += [("c", "Clear the mark", "")] if now else []
        body = join(
            _quoted(note),
            ": ",
            line(now or "no mark"),
            ".\n\nOur own mark, kept beside our journal, never in the ",
            line(self.memory.profile.system),
            "'s files. ctrl+z undoes it.",
        )

        def answered(choice: str | None) -> None:
            if choice is not None:
                self._write_mark(note, cast(Mark, choice) if choice else None)

        self.app.push_screen(ChoiceScreen("Mark this note", body, choices), answered)

    @work(thread=True, exclusive=True, group="write", description="_write_mark")
    def _write_mark(self, note: RawNote, mark: Mark | None) -> None:
        try:
            entry = mark_notes(
                self.memory, [note["id"]], mark, {note["id"]: str(note.get("content") or "")}
            )
        except NuggetsError as exc:
            to_screen(self, self._failed, "Could not mark", str(exc))
            return
        title = one_line(fields.text(note, "title") or note["id"])
        what = f"Marked “{title}” {mark}" if mark else f"Cleared the mark of “{title}”"
        if entry is None:
            to_screen(self, self._wrote, f"{what}: as it was; nothing written")
            return
        to_screen(self, self._wrote, f"{what} (run {one_line(entry.run_id)}; ctrl+z undoes it)")

    def _restorable(self, note: RawNote) -> bool:
        restorer = self.memory.restorer
        return restorer is not None and restorer.restorable(note)

    def _ask_restore(self, note: RawNote) -> None:
        """Restore a note the system set aside into a file the operator names: the file
        asked for, then the diff shown before anything is written."""
        from .ask_file import AskFileScreen

        restorer = self.memory.restorer
        if restorer is None:
            return
        body = join("Restore ", _quoted(note), "\n\n", line(restorer.restore_prompt))
        self.app.push_screen(
            AskFileScreen("Restore into a file", body, answer="Show the diff"),
            lambda into: self._confirm_restore(restorer, note, into),
        )

    def _confirm_restore(self, restorer: Restorer, note: RawNote, into: str | None) -> None:
        if not into:
            return
        try:
            diff = restorer.restore_diff([note["id"]], Path(into))
        except NuggetsError as exc:
            self._failed("Nothing was written", str(exc))
            return
        body = join(block("\n".join(diff)), "\n\nThe run is journaled: ctrl+z undoes it.")
        self.app.push_screen(
            ConfirmScreen("Restore into a file", body, yes="Write"),
            if_yes(lambda: self._restore(restorer, note, Path(into))),
        )

    @work(thread=True, exclusive=True, group="write", description="_restore")
    def _restore(self, restorer: Restorer, note: RawNote, into: Path) -> None:
        try:
            entry = restorer.restore([note["id"]], into)
        except NuggetsError as exc:
            to_screen(self, self._failed, "Could not restore", str(exc))
            return
        title = fields.text(note, "title") or note["id"]
        to_screen(
            self,
            self._wrote,
            f"Restored “{title}” into {entry.file_name} (run {entry.run_id}; ctrl+z undoes it)",
        )

    @work(thread=True, exclusive=True, group="write", description="_unhide")
    def _unhide(self, note: RawNote, lift: bool = False) -> None:
        try:
            entry = self.memory.by_hand.unhide([note["id"]], lift)
        except NuggetsError as exc:
            to_screen(self, self._failed, "Could not unhide", str(exc))
            return
        winner = fields.merged_into(note)
        title = fields.text(note, "title") or note["id"]
        message = f"Brought back “{title}”"
        if winner:
            absorbed = self.shelf.graph.get(winner) if self.shelf else None
            name = fields.text(absorbed, "title") if absorbed else winner
            message += f". It had been merged into “{name}”, which keeps its lines too."
        if entry:
            message += f" (run {entry.run_id}; ctrl+z undoes it)"
        to_screen(self, self._wrote, message)

    def action_system_run(self) -> None:
        """The runs of the system's own program that can be started now, with its health
        lines; the chosen one runs in the background and says its result."""
        keeper = self.memory.keeper
        if keeper is None:
            return
        runs = keeper.system_runs()
        health = self.query_one("#health", Static).tooltip
        parts: list[Text | str | tuple[str, str]] = (
            [line("Health\n", "bold"), line(str(health)), "\n\n"] if health else []
        )
        for run in runs:
            parts += [line(f"{run.label} ({run.key})", "bold"), "\n", line(run.says), "\n\n"]
        choices = [(run.key, run.label, run.name) for run in runs]
        if not choices:
            notify(self, "No run of it can be started now.", title="Nothing to run", timeout=4)
            return

        def answered(choice: str | None) -> None:
            chosen = next((run for run in runs if run.name == choice), None)
            if chosen is not None:
                self._start_run(chosen)

        title = f"Run {self.memory.profile.system}"
        self.app.push_screen(ChoiceScreen(title, join(*parts), choices), answered)

    @work(thread=True, exclusive=True, group="write", description="_start_run")
    def _start_run(self, run: SystemRun) -> None:
        keeper = self.memory.keeper
        assert keeper is not None
        try:
            said = keeper.start_run(run)
        except NuggetsError as exc:
            self.memory.take_notices()  # its own message is the error
            to_screen(self, self._run_failed, f"{run.label}: not published", str(exc))
            return
        self.memory.take_notices()  # said in `said`
        to_screen(self, self._wrote, said)

    def _run_failed(self, title: str, message: str) -> None:
        """A run of the system's that failed still changed its files (its manifest, its
        health): said, and read again."""
        self._failed(title, message)
        self.reload()

    def action_archive(self) -> None:
        note = self.current_note
        if note is None or fields.hidden(note):
            return
        if not self.memory.profile.capabilities.manual_archive:  # no dialog that could only fail
            notify(self, self.memory.profile.archive_refused, title="Not offered", timeout=4)
            return
        self._archive_outlook(note)

    @work(thread=True, exclusive=True, group="write", description="_archive_outlook")
    def _archive_outlook(self, note: RawNote) -> None:
        """What archiving leads to, read aside, then asked."""
        told = foretold(self.memory, lambda foresight: foresight.archive_outlook([note["id"]]))
        to_screen(self, self._ask_archive, note, told)

    def _ask_archive(self, note: RawNote, told: list[str]) -> None:
        body = join(
            "Archive ",
            _quoted(note),
            "?\n\nIt leaves the table (h shows archived notes); ",
            line(self.memory.profile.archive_effect),
            ". The run is journaled: ctrl+z or u brings it back.",
            *afterwards(told),
        )
        self.app.push_screen(
            ConfirmScreen("Archive this note", body, yes="Archive"),
            if_yes(lambda: self._archive(note)),
        )

    @work(thread=True, exclusive=True, group="write", description="_archive")
    def _archive(self, note: RawNote) -> None:
        try:
            entry = self.memory.by_hand.archive([note["id"]])
        except NuggetsError as exc:
            to_screen(self, self._failed, "Could not archive", str(exc))
            return
        title = fields.text(note, "title") or note["id"]
        message = f"Archived “{title}”" + (
            f" (run {entry.run_id}; ctrl+z undoes it)" if entry else "; it was archived already"
        )
        to_screen(self, self._wrote, message)

    def _wrote(self, message: str, then: Then = None) -> None:
        notify(self, message, title="Done")
        self.tell(self.memory.take_notices())
        self.reload()
        _done(then)

    def tell(self, messages: list[str]) -> None:
        """What the engine settled or read tolerantly, as warnings that stay a while."""
        for message in messages:
            notify(self, message, title="Note", severity="warning", timeout=12)

    def _failed(self, title: str, message: str, then: Then = None) -> None:
        notify(self, message, title=title, severity="error", timeout=10)
        _done(then)

    def action_undo(self) -> None:
        self.undo_last()

    def undo_last(self, then: Then = None) -> None:
        """Undo the last applied run, after confirming; `then` once it is done (the screen
        ctrl+z was pressed on, come back to)."""
        try:
            entry = last_undoable(self.memory.journal.log())
            self.tell(self.memory.take_notices())
        except NuggetsError as exc:
            self._failed("Cannot read the journal", str(exc))
            return
        if entry is None:
            notify(self, "No applied run to undo.", timeout=3)
            return
        self.undo_run(entry.run_id, then)

    @work(thread=True, exclusive=True, group="write", description="undo_run")
    def undo_run(self, run_id: str, then: Then = None, show: Show = None) -> None:
        """Undo one run: check what blocks it first, then ask (or say what blocks it), over
        the screen on top; `then` runs once it is done, whatever the answer (the run history
        reads the journal again); `show` shows the first note that blocks it, if asked."""
        try:
            entry, blockers = self.memory.journal.blockers(run_id, self._current_graph())
        except NuggetsError as exc:
            to_screen(self, self._failed, "Cannot undo", str(exc), then)
            return
        if blockers:
            since = self._since_run(run_id)
            to_screen(self, self._say_blocked, run_id, blockers, then, since, show)
            return
        told = foretold(self.memory, lambda foresight: foresight.undo_outlook(run_id))
        to_screen(self, self._ask_undo, entry, then, told, show)

    def _since_run(self, run_id: str) -> str:
        """What the memory's own program did since to a run's notes ("" when the store cannot
        tell, or it did nothing)."""
        teller = self.memory.aftermaths
        try:
            found = teller.aftermath().get(run_id) if teller is not None else None
        except NuggetsError:
            found = None
        return found.line if found is not None else ""

    def _ask_undo(
        self, entry: JournalEntry, then: Then, told: Sequence[str], show: Show = None
    ) -> None:
        body = join(
            "Undo run ",
            line(entry.run_id, "bold"),
            " (",
            line(entry.kind),
            ", ",
            line(shown_time(entry.at)),
            ")?\n",
            line(entry.summary or entry.kind),
            "\n\n",
            *_changed_titles(entry),
            _undo_what(entry, self.memory),
            *afterwards(told),
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._undo(entry.run_id, then, show)
            else:
                _done(then)

        self.app.push_screen(
            ConfirmScreen(f"Undo run {one_line(entry.run_id)}", body, yes="Undo"), answered
        )

    def _say_blocked(
        self, run_id: str, blockers: list[str], then: Then, since: str = "", show: Show = None
    ) -> None:
        shown = self._titles(blockers[:BLOCKERS_SHOWN])
        more = len(blockers) - len(shown)
        why = (
            join(" (", line(since), ")")
            if since
            else Text(" (the agent or a later run edited them)")
        )
        body = join(
            counted(len(blockers), "note"),
            " this run wrote changed since",
            why,
            "; undoing it would lose those changes, so nothing is restored:\n\n",
            *[part for title in shown for part in ("  • ", line(title), "\n")],
            f"  … and {more:,} more\n" if more else "",
            "\nUndo the later runs first (l lists them), or keep this run.",
        )
        self.app.push_screen(
            ConfirmScreen(
                f"Run {one_line(run_id)} cannot be undone", body, yes="Show the first", no="Close"
            ),
            lambda yes: (show or self.select_note)(blockers[0]) if yes else _done(then),
        )

    @work(thread=True, exclusive=True, group="write", description="_undo")
    def _undo(self, run_id: str, then: Then = None, show: Show = None) -> None:
        try:
            entry = self.memory.journal.undo(run_id)
        except UndoConflictError as exc:  # changed between the check and the undo
            to_screen(self, self._say_blocked, run_id, exc.note_ids, then, "", show)
            return
        except NuggetsError as exc:
            to_screen(self, self._failed, "Cannot undo", str(exc), then)
            return
        said = f"Undid run {run_id}: restored {restored_words(entry)}."
        to_screen(self, self._wrote, said, then)

    def _titles(self, note_ids: list[str]) -> list[str]:
        out = []
        for note_id in note_ids:
            note = self.shelf.graph.get(note_id) if self.shelf else None
            title = fields.text(note, "title") if note else ""
            out.append(f"“{title}” ({note_id})" if title else note_id)
        return out


def _done(then: Then) -> None:
    if then is not None:
        then()


def _changed_titles(entry: JournalEntry) -> list[Text | str]:
    """The notes a run changed, by title and id, as its undo's confirmation names them."""
    ids = sorted(entry.after or entry.before)
    if not ids:
        return []
    parts: list[Text | str] = ["It changed:\n"]
    for note_id in ids[:CHANGED_SHOWN]:
        note = entry.after.get(note_id) or entry.before.get(note_id)
        title = fields.text(note, "title") if note else ""
        parts += (
            ["  • “", line(title), "” (", line(note_id), ")\n"]
            if title
            else ["  • ", line(note_id), "\n"]
        )
    more = len(ids) - CHANGED_SHOWN
    return [*parts, f"  … and {more:,} more\n" if more > 0 else "", "\n"]


def _undo_what(entry: JournalEntry, memory: Store) -> Text:
    if entry.batch is not None:  # one of the runs one apply wrote, one file each
        return Text(
            "This puts back every file of the runs written together with it, each as "
            "it was before them (if nothing changed it since), and journals the undo."
        )
    if entry.file_name is not None:
        return join(
            "This puts ",
            line(shown_path(entry.file_name)),
            " back as it was before it (if nothing changed it since), and journals the undo.",
        )
    return join(
        "This restores the ",
        counted(len(entry.before), "note"),
        " it changed as they were before it, in ",
        line(shown_path(memory.graph_path)),
        ", and journals the undo.",
    )


def _quoted(note: RawNote) -> Text:
    """A note as a dialog names it: “its title” (its id); “its id” (its id) when untitled."""
    return join("“", line(fields.text(note, "title") or note["id"]), "” (", line(note["id"]), ")")
