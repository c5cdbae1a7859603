"""Promotion: the notes recalled often enough to become permanent context, where each goes in
MEMORY.md, and the file's diff; `a` writes it. Entries that read like instructions to the agent
or carry a secret (core/promotion/screening.py, core/promotion/secret_screen.py), and those
whose note stands in an open group of the contradiction queue (core/review/queue.py), are held
back until the operator decides the group or allows them one by one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from core.contract.absent import refused, refused_promotion
from core.contract.profile import Profile
from core.contract.store import Store
from core.errors import NuggetsError, StalePlanError
from core.models import BlockedEntry, PromotionEntry, PromotionPlan, ShadowedNote
from core.notes.snapshot import Graph
from core.promotion.candidates import parse_allowance
from core.promotion.memory_md import section_rank

from ..safe import block, counted, join, line, more_lines, notify, shown_path
from ..widgets.busy import Busy
from ..widgets.diff_view import MAX_DIFF_LINES, DiffView
from ..widgets.footer import Footer
from ..widgets.virtual_table import Column, RowRenderer, VirtualTable
from ..words import alike_head, alike_names, budget_words, either, held_kinds
from .base import ConsoleScreen
from .confirm import ConfirmScreen, if_yes
from .from_worker import to_screen

_ACTION_STYLES = {
    "add": "green",
    "update": "yellow",
    "same": "dim",
    "held": "bold red",
    "drop": "red",
}
Entry = PromotionEntry | BlockedEntry


@dataclass(frozen=True)
class ShadowRow:
    """A note of the same section and title that `entry` is written instead of, listed
    under it."""

    entry: Entry
    note: ShadowedNote


Row = Entry | ShadowRow


def action_of(row: Entry) -> str:
    if isinstance(row, BlockedEntry):
        return "held"
    return row.action + ("!" if row.allowed_despite else "")


def rows_of(plan: PromotionPlan) -> list[Row]:
    """Held entries first, then by section and title; each entry's shadowed notes under it."""
    entries: list[Entry] = sorted(
        [*plan.blocked, *plan.entries, *plan.dropped],
        key=lambda e: (action_of(e) != "held", section_rank(e.section), e.title),
    )
    return [row for e in entries for row in (e, *(ShadowRow(e, n) for n in e.shadowed))]


class EntryRows(RowRenderer[Row]):
    def key(self, row: Row) -> str:
        return row.note.note_id if isinstance(row, ShadowRow) else row.note_id

    def cells(self, row: Row) -> Sequence[Text]:
        if isinstance(row, ShadowRow):
            return [
                Text(""),
                Text(""),
                join(
                    ("  ↳ shadowed: ", "dim"),
                    line(row.note.note_id, "dim"),
                    (" [", "dim"),
                    line(row.note.nugget_name, "dim"),
                    ("] updated ", "dim"),
                    line(row.note.updated_at or "never", "dim"),
                ),
            ]
        action = action_of(row)
        alike = isinstance(row, PromotionEntry) and bool(row.alike)
        return [
            line(action, _ACTION_STYLES.get(action.rstrip("!"), "")),
            line(row.section),
            join(("≈ ", "bold yellow"), line(row.title)) if alike else line(row.title),
        ]

    def style(self, row: Row) -> str | None:
        dim = isinstance(row, ShadowRow) or action_of(row) in ("same", "drop")
        return "virtual-table--dim" if dim else None


ENTRY_COLUMNS = (
    Column("Action", 6, priority=5),
    Column("Section", 14, priority=1),
    Column("Title", 0, flexible=True, min_width=12),
)


def diff_text(diff: str) -> Text:
    styles = {"+": "green", "-": "red", "@": "cyan"}
    parts: list[Text | str] = []
    lines = diff.splitlines()
    for raw in lines[:MAX_DIFF_LINES]:
        style = "bold" if raw.startswith(("+++", "---")) else styles.get(raw[:1], "")
        parts += [line(raw, style), "\n"]
    if len(lines) > MAX_DIFF_LINES:
        parts.append(more_lines(len(lines) - MAX_DIFF_LINES, " (nuggets promote prints them all)"))
    return join(*parts)


def shadowed_text(row: Entry) -> Text:
    """The notes of the same section and title this more recently updated one is written for."""
    if not row.shadowed:
        return Text("")
    parts: list[Text | str | tuple[str, str]] = [
        (f"Written instead of {len(row.shadowed)} older note(s) of this title", "bold"),
        " (they may disagree with it):\n",
    ]
    for note in row.shadowed:
        parts += [
            "  ",
            line(note.note_id),
            " [",
            line(note.nugget_name),
            "] updated ",
            line(note.updated_at or "never"),
            "\n",
        ]
    return join(*parts, "\n")


def alike_text(row: Entry, name: str) -> Text:
    """The entries this one says almost the same thing as (core/promotion/alike.py)."""
    if not isinstance(row, PromotionEntry) or not row.alike:
        return Text("")
    return join(
        ("≈ Says almost the same thing as", "bold yellow"),
        ": ",
        line(alike_names(row, name)),
        "\nIt is written all the same; space drops it.\n\n",
    )


def held_text(row: Entry, name: str = "MEMORY.md") -> Text:
    """Why an entry is held back (or was allowed despite), and exactly what it would write
    (a secret in it masked)."""
    if isinstance(row, BlockedEntry):
        masked = (
            " The secret is masked here; the note itself shows it, and x on the notes "
            "archives it.\n"
            if row.secret
            else ""
        )
        decide = (
            join(
                "Decide its group with ",
                ("c", "bold"),
                " (the contradiction queue) first: then the note that stands is promoted. ",
            )
            if row.queued
            else ""
        )
        head = join(
            ("Held back", "bold red"),
            ": ",
            line(row.reason),
            "\n",
            decide,
            "It is not written unless you allow it: space.",
            masked,
            "\n\n",
        )
    elif row.allowed_despite:
        head = join(
            ("Allowed by you", "bold yellow"),
            " despite: ",
            line(row.allowed_despite),
            "\nspace holds it back again.\n\n",
        )
    elif row.action == "drop":
        head = join(
            ("Dropped by you", "bold red"),
            ": not written (what ",
            line(name),
            " holds stays); space keeps it again.\n\n",
        )
    else:
        return Text("")
    return join(head, ("It would write:\n", "bold"), block(row.text), "\n\n")


REFUSED_EMPTY = "Nothing is promoted here: see why above."


def summary_text(plan: PromotionPlan, words: Profile) -> Text:
    qualifying = join(
        f"{counted(plan.qualifying, 'note')} ",
        line(words.promotion_rule.format(threshold=plan.threshold)),
    )
    if plan.refused and not (plan.entries or plan.blocked or plan.dropped):
        # a store that promotes nothing has no rule to count by: no "0 notes" line
        return join(
            Text("Nothing can be written", style="bold"),
            ": ",
            *(
                part
                for i, refused in enumerate(plan.refused)
                for part in ("\n" if i else "", line(refused))
            ),
            *(("\n", qualifying, ".") if plan.qualifying else ()),
        )
    if not plan.directory_exists:
        folder = shown_path(plan.path.rsplit("/", 1)[0])
        name = plan.path.rsplit("/", 1)[-1]
        where: list[Text | str | tuple[str, str]] = (
            [
                "Point it elsewhere with ",
                line(f"nuggets promote {words.promotion_option}", "bold"),
                " or ",
                line(words.promotion_env, "bold"),
                ", or create that directory.\n",
            ]
            if words.promotion_option
            else ["Create that directory to let it be written.\n"]
        )
        return join(
            ("Nothing can be written", "bold"),
            ": there is no directory ",
            line(folder, "bold"),
            ".\nPromotion only writes ",
            line(name),
            " where its directory already exists. ",
            *where,
            qualifying,
            ".",
        )
    return join(
        "Promote to ",
        line(shown_path(plan.path), "bold"),
        "\n",
        (f"{plan.added:,} to add", "green"),
        " · ",
        (f"{plan.updated:,} to update", "yellow"),
        " · ",
        qualifying,
        f", {counted(len(plan.entries), 'entry', 'entries')}. Hand-written "
        "lines and other sections are kept as they are.",
        *budget_summary(plan),
        *lost_summary(plan),
        *held_summary(plan),
        *alike_summary(plan),
        *(part for said in [*plan.refused, *plan.notices] for part in ("\n", line(said))),
    )


def budget_summary(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    """What the agent reads of the file (or scope): the room left, or where it stops and how
    many entries land past it (core/promotion/budget.py)."""
    return [
        part
        for budget in plan.budgets
        for part in ("\n", line(budget_words(budget), "bold yellow" if budget.cut_by else ""))
    ]


def past_text(row: Entry | None, plan: PromotionPlan | None) -> Text:
    """For an entry landing past the agent's budget: that the agent will not see it."""
    if row is None or plan is None:
        return Text("")
    for budget in plan.budgets:
        if budget.loaded_lines is not None and row.note_id in budget.past:
            return join(
                ("Past the agent's budget", "bold yellow"),
                ": ",
                line(budget.reader),
                f" stops reading after line {budget.loaded_lines:,}, so this entry "
                "would be written where the agent never sees it.\n\n",
            )
    return Text("")


def lost_summary(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    """What the file lost since our newest run on it (the agent's promotion cuts entries it
    does not write itself): left as it is, and said."""
    if not plan.lost:
        return []
    return [
        "\n",
        ("Lost since our last write", "yellow"),
        " (left as they are): ",
        line("; ".join(plan.lost)),
    ]


def held_summary(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    if not plan.blocked:
        return []
    kinds = held_kinds(plan.blocked)
    screened = (
        ["read like instructions to the agent", "hide characters"] if kinds - {"queue"} else []
    )
    why = [
        *screened,
        *(["carry secrets"] if "secrets" in kinds else []),
        *(
            ["stand in the contradiction queue (decide them with c first)"]
            if "queue" in kinds
            else []
        ),
    ]
    return [
        "\n",
        (f"{len(plan.blocked):,} held back", "bold red"),
        ": they ",
        line(either(why)),
        ". Select one to see why; space allows it.",
    ]


def alike_summary(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    head = alike_head(plan.entries)
    if not head:
        return []
    return ["\n", (f"≈ {head}", "yellow"), ". Select one to see which; space drops it."]


def allowed_warning(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    name = plan.path.rsplit("/", 1)[-1]
    allowed = [e for e in plan.entries if e.allowed_despite]
    if not allowed:
        return []
    return [
        "\n\n",
        (f"{len(allowed)} of them you allowed despite screening", "bold yellow"),
        ": ",
        line(name),
        " becomes part of the agent's instructions.",
    ]


class PromoteScreen(ConsoleScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "space",
            "allow",
            "Keep/drop",
            id="promote.allow",
            tooltip="Drop an entry or keep it again; allow a held-back entry to be written, "
            "or hold it back again",
        ),
        Binding(
            "a",
            "write",
            "Write",
            id="promote.write",
            tooltip="Write the file as the diff shows, after confirming",
        ),
        Binding(
            "escape",
            "back",
            "Back",
            id="promote.back",
            tooltip="Back to the notes; nothing is written",
        ),
    ]

    def __init__(
        self, memory: Store, graph: Graph | None = None, nugget: str | None = None
    ) -> None:
        """`graph`: the notes as the main screen last read them, when still current;
        `nugget`: the one shown there (a store may promote each nugget to its own file)."""
        super().__init__()
        self.memory = memory
        self.graph = graph
        self.nugget = nugget
        self.plan: PromotionPlan | None = None
        self.allowed: set[str] = set()  # NOTE_ID@HASH of each held-back entry allowed
        self.dropped: set[str] = set()  # note ids of the entries left out
        self._body: tuple[PromotionPlan, Text] | None = None  # the plan's diff, drawn once

    def compose(self) -> ComposeResult:
        yield Static(Text("Planning the promotion…"), id="promote-summary")
        with Horizontal():
            yield VirtualTable(
                ENTRY_COLUMNS,
                EntryRows(),
                id="entries",
                empty_text="No note has been recalled often enough yet.",
            )
            yield DiffView(id="promote-diff")
        yield Busy()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#entries").focus()
        self.replan()

    @work(thread=True, exclusive=True, group="plan", description="replan")
    def replan(self) -> None:
        to_screen(self, lambda: self.query_one(Busy).start("Planning the promotion…"))
        promoter = self.memory.promoter
        try:
            if promoter is None:  # the store's refusal, as a plan with nothing to write
                plan = refused_promotion(self.memory)
            else:
                target = promoter.promotion_file_for(self.nugget)
                plan = promoter.plan_promotion(
                    target, allow=set(self.allowed), graph=self.graph, drop=set(self.dropped)
                )
        except NuggetsError as exc:
            to_screen(self, self._failed, "Cannot plan the promotion", str(exc))
            return
        to_screen(self, self._planned, plan)

    def _planned(self, plan: PromotionPlan) -> None:
        self.query_one(Busy).stop()
        self.plan = plan
        summary = summary_text(plan, self.memory.profile)
        self.query_one("#promote-summary", Static).update(summary)
        table = self.query_one("#entries", VirtualTable)
        if plan.refused and not plan.entries:
            table.empty_text = REFUSED_EMPTY
        current = EntryRows().key(table.current) if table.current is not None else None
        table.set_rows(rows_of(plan), keep_key=current)
        self._show_diff(table.current)
        self.refresh_bindings()

    def _diff_body(self) -> Text:
        plan = self.plan
        if plan is None:
            return Text("")
        if not plan.directory_exists or (plan.refused and not plan.diff):
            return Text("No diff: nothing would be written.", style="dim")
        if self._body is None or self._body[0] is not plan:
            diff = plan.diff.replace(plan.path, shown_path(plan.path))
            self._body = (
                plan,
                diff_text(diff)
                if diff
                else join(line(self._file_name(plan)), " is already up to date."),
            )
        return self._body[1]

    @on(VirtualTable.Highlighted, "#entries")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        self._show_diff(event.row)
        if isinstance(event.row, PromotionEntry):  # its lines in the diff, not the file's top
            self.query_one(DiffView).scroll_to_text(line(f"**{event.row.title}**").plain)
        self.refresh_bindings()

    def _show_diff(self, row: Row | None) -> None:
        entry = row.entry if isinstance(row, ShadowRow) else row
        held = (
            join(
                past_text(entry, self.plan),
                alike_text(entry, self._file_name(self.plan)),
                shadowed_text(entry),
                held_text(entry, self._file_name(self.plan)),
            )
            if entry is not None
            else Text("")
        )
        self.query_one(DiffView).show(join(held, self._diff_body()))

    def action_allow(self) -> None:
        """Allow a held-back entry or hold it back again; keep or drop any other."""
        row = self.query_one("#entries", VirtualTable).current
        if isinstance(row, BlockedEntry):
            # The hash of the text shown: a note that changes before the write is held back again.
            self.allowed.add(f"{row.note_id}@{row.hash}")
        elif isinstance(row, PromotionEntry) and row.allowed_despite:
            self.allowed = {t for t in self.allowed if parse_allowance(t)[0] != row.note_id}
        elif isinstance(row, PromotionEntry):
            self.dropped ^= {row.note_id}
        else:
            return
        self.replan()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "write":
            if self.memory.promoter is None:  # a store that promotes nothing: no key to write
                return False
            return True if self.plan is not None and self.plan.changes_file else None
        if action == "allow":
            row = self.query_one("#entries", VirtualTable).current if self.is_mounted else None
            return True if isinstance(row, BlockedEntry | PromotionEntry) else None
        return True

    def action_write(self) -> None:
        plan = self.plan
        if plan is None or not plan.changes_file:
            return
        body = join(
            "Write ",
            line(shown_path(plan.path), "bold"),
            "?\n\n",
            f"{counted(plan.added, 'entry', 'entries')} added and {plan.updated:,} updated in "
            "place; every other "
            "line of the file stays as it is. The file is replaced atomically.",
            *allowed_warning(plan),
        )
        title = str(line(f"Write {self._file_name(plan)}"))
        self.app.push_screen(
            ConfirmScreen(title, body, yes="Write"), if_yes(lambda: self._write(plan))
        )

    @work(thread=True, exclusive=True, group="write", description="_write")
    def _write(self, plan: PromotionPlan) -> None:
        to_screen(self, lambda: self.query_one(Busy).start(f"Writing {self._file_name(plan)}…"))
        promoter = self.memory.promoter
        try:
            if promoter is None:
                raise refused(self.memory, "promote")
            added = promoter.promote(plan)
        except StalePlanError:
            to_screen(
                self,
                self._failed,
                "Nothing was written",
                f"{self._file_name(plan)} changed since this promotion was planned; planned "
                "again — look at the new diff and press a again.",
            )
            to_screen(self, self.replan)
            return
        except NuggetsError as exc:
            to_screen(self, self._failed, "Nothing was written", str(exc))
            return
        run = promoter.promotion_run
        undo = f" (run {run.run_id}; ctrl+z on the notes undoes it)" if run else ""
        to_screen(
            self,
            self._written,
            f"Promoted {counted(added, 'new entry', 'new entries')} to "
            f"{shown_path(plan.path)}.{undo}",
        )

    def _written(self, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title=f"{self.memory.profile.promotion_label} written")
        self.dismiss(True)

    @staticmethod
    def _file_name(plan: PromotionPlan | None) -> str:
        return "the file" if plan is None else plan.path.rsplit("/", 1)[-1]

    def _failed(self, title: str, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title=title, severity="error", timeout=10)

    def action_back(self) -> None:
        self.dismiss(False)
