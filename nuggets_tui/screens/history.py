"""The run history: every journaled run (reflection, unhide, promotion, undo), newest first, with
what it changed and what the memory's own program did to its notes since; any run not yet undone
can be undone from here, not only the last."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from core.clock import shown_time
from core.contract.store import Store
from core.errors import NuggetsError
from core.journal.aftermath import Aftermath
from core.journal.entries import JournalHeader
from core.journal.history import undone_by
from core.models import JournalEntry, ReflectionChange, kind_word
from core.notes import fields
from core.notes.diff import content_lines

from ..safe import counted, join, line, notify, shown_path
from ..widgets.diff_view import DiffView, diff_lines, heading, note_diff_text
from ..widgets.footer import Footer
from ..widgets.virtual_table import Column, RowRenderer, VirtualTable
from .base import ConsoleScreen
from .from_worker import to_screen

NOTES_SHOWN = 30  # note diffs drawn for one run; an uncapped run may hold 100k
CHANGES_SHOWN = 200  # lines of a reflection's change list

RUN_COLUMNS = (  # a run's id says when it ran; its state may name another run whole
    Column("Run", 21, cut_middle=True),
    Column("Kind", 7, priority=2),
    Column("Notes", 6, priority=1, right=True),
    Column("State", 0, flexible=True, min_width=18, priority=3),
)


class Runs(RowRenderer[JournalHeader]):
    def __init__(self) -> None:
        self.undone: dict[str, str] = {}  # run id -> the run that undid it
        self.since: dict[str, Aftermath] = {}  # run id -> what was done to its notes since

    def key(self, row: JournalHeader) -> str:
        return row.run_id

    def cells(self, row: JournalHeader) -> Sequence[Text]:
        return [line(row.run_id), line(row.kind), Text(f"{row.notes:,}"), line(self.state(row))]

    def state(self, row: JournalHeader) -> str:
        if row.run_id in self.undone:
            return f"undone by {self.undone[row.run_id]}"
        if row.undoes:
            return f"undoes {row.undoes}"
        if row.outcome is not None:
            return row.outcome  # another program's run: its own word
        return "changed since" if row.run_id in self.since else "applied"

    def style(self, row: JournalHeader) -> str | None:
        return "virtual-table--dim" if row.run_id in self.undone else None


def file_diff(entry: JournalEntry) -> list[Text | str | tuple[str, str]]:
    """A run that wrote one file instead of notes (MEMORY.md, a memory directory's file): which,
    and its diff, before → after."""
    if not entry.file_name:
        return []
    done = (
        "Removed "
        if entry.file_after is None
        else "Created "
        if entry.file_before is None
        else "Wrote "
    )
    changes = content_lines(entry.file_before or "", entry.file_after or "")
    parts: list[Text | str | tuple[str, str]] = [
        done,
        line(shown_path(entry.file_name), "bold"),
        ".\n" if changes else " (no line changed).\n",
    ]
    return parts + diff_lines(changes)


def change_lines(entry: JournalEntry, change: ReflectionChange) -> list[Text | str]:
    """One change of a run: its kind, the note's title and its id (the id alone for a note
    with no title), then what it did."""
    note = entry.after.get(change.note_id) or entry.before.get(change.note_id)
    title = fields.text(note, "title") if note else ""
    return [
        "  [",
        line(kind_word(change.type)),
        "] ",
        line(title or change.note_id, "bold"),
        join("  ", line(change.note_id, "dim")) if title else "",
        "\n      ",
        line(change.detail),
        "\n",
    ]


def run_text(entry: JournalEntry, state: str, since: Aftermath | None = None) -> Text:
    """What one run changed: its summary, what was done to its notes since, a reflection's
    changes, and each note's diff."""
    parts: list[Text | str | tuple[str, str]] = [
        line(entry.kind.upper(), "bold reverse"),
        " ",
        line(entry.run_id, "bold"),
        "  ",
        line(shown_time(entry.at)),
        "  ",
        line(state, "dim"),
        "\n",
        line(entry.summary or entry.kind),
        "\n",
        join(line(since.line, "yellow"), "\n") if since else "",
        f"{counted(len(entry.after), 'note')} written.\n"
        if entry.after
        else ""
        if entry.file_name
        else "No note was written.\n",
        *file_diff(entry),
    ]
    changes = entry.result.changes if entry.result else []
    if changes:
        parts.append(("\nChanges\n", "bold"))
        for change in changes[:CHANGES_SHOWN]:
            parts += change_lines(entry, change)
        if len(changes) > CHANGES_SHOWN:
            parts.append(
                Text(f"  … {len(changes) - CHANGES_SHOWN:,} more changes\n", style="dim italic")
            )
    if entry.after:
        parts.append(("\nNotes, before → after\n", "bold"))
    for note_id in list(entry.after)[:NOTES_SHOWN]:
        before, after = entry.before.get(note_id), entry.after[note_id]
        if before is None:
            parts += [heading(after), ("  (new)\n", "dim")]
        else:
            parts += [note_diff_text(before, after, heading(before)), "\n"]
    if len(entry.after) > NOTES_SHOWN:
        parts.append(
            Text(
                f"… {len(entry.after) - NOTES_SHOWN:,} more notes "
                f"(nuggets log --json lists them all)",
                style="dim italic",
            )
        )
    return join(*parts)


# Undo a run (the main screen's): asked over the screen on top, then what to do once it is
# over, and where to show a note that blocks it.
Undo = Callable[[str, Callable[[], None], Callable[[str], None]], object]


class HistoryScreen(ConsoleScreen[str | None]):
    """Dismissed with the id of a note to show (one that blocks an undo), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "u",
            "undo",
            "Undo this run",
            id="history.undo",
            tooltip="Undo the highlighted run, after checking nothing changed since",
        ),
        # `u` on a run undone already: says so (remapped with the undo)
        Binding("u", "undone", show=False, id="history.undo"),
        Binding("escape", "back", "Back", id="history.back", tooltip="Back to the notes"),
    ]

    def __init__(self, memory: Store, undo: Undo) -> None:
        super().__init__()
        self.memory = memory
        self.undo = undo
        self.select: str | None = None  # the run the cursor goes to once read (one undone)
        self.runs = Runs()
        self._shown_entry: JournalEntry | None = None

    def compose(self) -> ComposeResult:
        yield Static(
            join(
                ("Run history", "bold"),
                " · the journal in ",
                line(shown_path(self.memory.journal.folder)),
            ),
            id="history-title",
        )
        with Horizontal():
            yield VirtualTable(RUN_COLUMNS, self.runs, id="runs", empty_text="Reading the journal…")
            yield DiffView(id="run-diff", hanging=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#runs").focus()
        self._read()

    @work(thread=True, exclusive=True, group="journal", description="_read")
    def _read(self) -> None:
        try:
            entries = self.memory.journal.log()
        except NuggetsError as exc:
            to_screen(self, self._failed, str(exc))
            return
        to_screen(self, self._show, entries)
        teller = self.memory.aftermaths
        if teller is None:
            return  # the store cannot tell
        try:  # once per opening, after the table is shown: it reads the runs' notes
            since = teller.aftermath(entries)
        except NuggetsError:
            return  # the journal still lists and undoes
        if since:
            to_screen(self, self._show_since, since)

    def _show(self, entries: list[JournalHeader]) -> None:
        self.runs.undone = {e.run_id: by for e in entries if (by := undone_by(entries, e.run_id))}
        table = self.query_one("#runs", VirtualTable)
        table.empty_text = "No runs applied yet."
        table.set_rows(entries, self.select)
        table.border_title = f"{counted(len(entries), 'run')}, newest first"
        self.refresh_bindings()

    def _show_since(self, since: dict[str, Aftermath]) -> None:
        self.runs.since = since
        self.query_one("#runs", VirtualTable).refresh()
        shown = self._shown_entry
        if shown is not None:
            self._show_run(shown)

    def _failed(self, message: str) -> None:
        self.query_one("#runs", VirtualTable).empty_text = "The journal cannot be read."
        notify(self, message, title="Cannot read the journal", severity="error", timeout=10)

    @property
    def current(self) -> JournalHeader | None:
        return self.query_one("#runs", VirtualTable).current

    @on(VirtualTable.Highlighted, "#runs")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        header = event.row
        view = self.query_one("#run-diff", DiffView)
        if header is None:
            view.show(Text(""))
        else:  # the header at once; the whole entry (its notes) is read aside
            view.show(
                join(
                    line(header.kind.upper(), "bold reverse"),
                    " ",
                    line(header.run_id, "bold"),
                    "\n",
                    line(header.summary or header.kind),
                    "\n",
                    ("Reading the run…", "dim"),
                )
            )
            self._read_run(header.run_id)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, group="run", description="_read_run")
    def _read_run(self, run_id: str) -> None:
        try:
            entry = self.memory.journal.run(run_id)
        except NuggetsError as exc:
            to_screen(self, self._run_unreadable, run_id, str(exc))
            return
        to_screen(self, self._show_run, entry)

    def _show_run(self, entry: JournalEntry) -> None:
        current = self.current
        if current is not None and current.run_id == entry.run_id:
            self._shown_entry = entry
            self.query_one("#run-diff", DiffView).show(
                run_text(entry, self.runs.state(current), self.runs.since.get(entry.run_id))
            )

    def _run_unreadable(self, run_id: str, message: str) -> None:
        current = self.current
        if current is not None and current.run_id == run_id:
            self.query_one("#run-diff", DiffView).show(
                join(("This run cannot be read: ", "bold red"), line(message))
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            entry = self.current if self.is_mounted else None
            undoable = entry is not None and entry.run_id not in self.runs.undone
            return True if undoable else None
        if action == "undone":
            entry = self.current if self.is_mounted else None
            return entry is not None and entry.run_id in self.runs.undone
        return True

    def action_undo(self) -> None:
        entry = self.current
        if entry is not None and entry.run_id not in self.runs.undone:
            self.select = entry.run_id
            self.undo(entry.run_id, self._read_again, self._show_note)

    def _read_again(self) -> None:
        self._read()

    def _show_note(self, note_id: str) -> None:
        self.dismiss(note_id)

    def action_undone(self) -> None:
        entry = self.current
        if entry is not None and (by := self.runs.undone.get(entry.run_id)):
            notify(
                self,
                line(
                    f"Run {entry.run_id} was undone already, by run {by}: there is "
                    "nothing of it left to undo."
                ),
                title="Undone already",
                timeout=5,
            )

    def action_back(self) -> None:
        self.dismiss(None)
