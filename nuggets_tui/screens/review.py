"""Review a dry run: the changes of a planned pass grouped by kind, each with its before → after;
keep or reject each one, then apply the kept ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from core import Memory, NuggetsError, StalePlanError
from core.models import NoteDiff, Plan, RawNote, ReflectionChange
from core.preview import kept_after, named_notes, touched_by
from core.store import Graph

from ..safe import join, line, notify, shown_path
from ..widgets.busy import Busy
from ..widgets.diff_view import DiffView, heading, note_diff_text
from ..widgets.footer import Footer
from ..widgets.virtual_table import Column, RowRenderer, VirtualTable
from .confirm import ConfirmScreen

SYNC_PREVIEW_NOTES = 5_000  # larger plans preview a subset in the background
KINDS = (("hide", "Archive"), ("rewrite", "Rewrite"), ("tag", "Tag"), ("merge", "Merge"),
         ("link", "Link"))


@dataclass(frozen=True)
class Group:
    label: str
    count: int


@dataclass(frozen=True)
class ChangeRow:
    op_id: int
    change: ReflectionChange
    title: str
    summary: str  # the change in a few words, naming the other note of a merge or a link


class ChangeRows(RowRenderer["Group | ChangeRow"]):
    def __init__(self) -> None:
        self.kept: set[int] = set()

    def key(self, row: Group | ChangeRow) -> str:
        return str(row.op_id) if isinstance(row, ChangeRow) else row.label

    def is_header(self, row: Group | ChangeRow) -> bool:
        return isinstance(row, Group)

    def header_text(self, row: Group | ChangeRow) -> Text:
        assert isinstance(row, Group)
        return line(f"{row.label} ({row.count:,})")

    def cells(self, row: Group | ChangeRow) -> Sequence[Text]:
        assert isinstance(row, ChangeRow)
        kept = row.op_id in self.kept
        return [
            Text("✓" if kept else "✗", style="bold green" if kept else "bold red"),
            line(row.title or row.change.note_id),
            line(row.summary),
        ]

    def style(self, row: Group | ChangeRow) -> str | None:
        if isinstance(row, ChangeRow) and row.op_id not in self.kept:
            return "virtual-table--rejected"
        return None


CHANGE_COLUMNS = (
    Column("", 1, priority=9),
    Column("Note", 0, flexible=True, min_width=14),
    Column("Change", 30, priority=1),
)


def _summary(plan: Plan, op_id: int, titles: dict[str, str]) -> str:
    change = plan.change_for(op_id)
    others = [i for i in named_notes(plan, op_id) if i != change.note_id]
    if change.type == "tag":
        return change.detail.removeprefix("Tags -> ")
    if not others:
        return change.detail
    other = titles.get(others[0]) or others[0]
    return f"absorbs “{other}”" if change.type == "merge" else f"↔ “{other}”"


def grouped_rows(plan: Plan) -> list[Group | ChangeRow]:
    titles = {diff.note_id: str(diff.before.get("title") or "") for diff in plan.notes}
    rows: list[Group | ChangeRow] = []
    for kind, label in KINDS:
        members = [
            ChangeRow(op_id, change, titles.get(change.note_id, ""),
                      _summary(plan, op_id, titles))
            for op_id, change in enumerate(plan.result.changes, start=1) if change.type == kind
        ]
        if members:
            rows += [Group(label, len(members)), *members]
    return rows


def counts_text(plan: Plan, kept: set[int], nugget: str | None) -> Text:
    result = plan.result
    scope = "all nuggets" if nugget is None else f"nugget {nugget}"
    cap = "whole graph, no cap" if plan.uncapped else f"capped at {plan.limit:,} notes"
    figures = (f"{result.inspected:,} inspected · {result.rewritten:,} rewritten · "
               f"{result.merged:,} merged · {result.hidden:,} archived · {result.tagged:,} tagged "
               f"· {result.linked:,} linked")
    total = len(plan.operations)
    return join(("Dry run", "bold"), " of the reflection pass on ", line(scope), f" ({cap})\n",
                figures, "\n", (f"Keeping {len(kept):,} of {total:,} changes", "bold"),
                " — nothing is written until you apply.")


class ReviewScreen(Screen[bool]):
    """Dismissed with True when the kept changes were written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle", "Keep/reject", id="review.toggle",
                tooltip="Keep or reject the highlighted change (all are kept at first)"),
        Binding("a", "apply", "Apply kept", id="review.apply",
                tooltip="Apply the kept changes, after confirming what will be written"),
        Binding("c", "toggle_cap", "Cap on/off", id="review.cap",
                tooltip="Lift or restore the 10-note cap: plan the whole graph"),
        Binding("plus", "keep_all(True)", "Keep all", key_display="+", id="review.keep_all",
                tooltip="Keep every change"),
        Binding("minus", "keep_all(False)", "Reject all", key_display="-",
                id="review.reject_all", tooltip="Reject every change"),
        Binding("escape", "back", "Back", id="review.back",
                tooltip="Back to the notes; nothing is written"),
    ]

    def __init__(self, memory: Memory, nugget: str | None, uncapped: bool = False,
                 graph: Graph | None = None, prepared: Plan | None = None) -> None:
        """`graph`: the file as the main screen last read it, when still current (planning
        reads it again otherwise); `prepared`: a capped plan of every nugget made ahead."""
        super().__init__()
        self.memory = memory
        self.nugget = nugget
        self.uncapped = uncapped
        self.graph = graph
        self.prepared = prepared
        self.plan: Plan | None = None
        self.rows = ChangeRows()
        self._preview: dict[str, RawNote] | None = None
        self._diffs: dict[str, NoteDiff] = {}
        if prepared is not None and not uncapped:
            # Known before the screen is built, so its footer is right from the first frame.
            self.plan = prepared
            self.kept.update(op.id for op in prepared.operations)

    @property
    def kept(self) -> set[int]:
        return self.rows.kept

    def compose(self) -> ComposeResult:
        yield Static(Text("Planning…"), id="review-counts")
        with Horizontal():
            yield VirtualTable(CHANGE_COLUMNS, self.rows, id="changes",
                               empty_text="No changes: this memory is already tidy.")
            yield DiffView(id="review-diff")
        yield Busy()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#changes").focus()
        if self.prepared is not None and not self.uncapped:
            self._planned(self.prepared)
        else:
            self.replan()

    # -- planning -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="plan", description="replan")
    def replan(self) -> None:
        cap = "the whole graph" if self.uncapped else "a capped pass"
        self.app.call_from_thread(self.query_one(Busy).start, f"Planning {cap}…")
        try:
            plan = self.memory.plan(self.nugget, uncapped=self.uncapped, graph=self.graph)
        except NuggetsError as exc:
            self.app.call_from_thread(self._plan_failed, str(exc))
            return
        self.app.call_from_thread(self._planned, plan, grouped_rows(plan))

    def _planned(self, plan: Plan, rows: list[Group | ChangeRow] | None = None) -> None:
        self.query_one(Busy).stop()
        rejected = self._rejected_signatures()
        self.plan = plan
        self._diffs = {diff.note_id: diff for diff in plan.notes}
        self.kept.clear()
        self.kept.update(op.id for op in plan.operations
                         if _signature(plan.change_for(op.id)) not in rejected)
        self._preview = None
        table = self.query_one("#changes", VirtualTable)
        table.set_rows(rows if rows is not None else grouped_rows(plan))
        self._changed_kept()

    def _rejected_signatures(self) -> set[tuple[str, str, str]]:
        """Rejections carry over to a new plan of the same changes."""
        if self.plan is None:
            return set()
        return {_signature(self.plan.change_for(op.id)) for op in self.plan.operations
                if op.id not in self.kept}

    def _plan_failed(self, message: str) -> None:
        self.query_one(Busy).stop()
        self.query_one("#review-counts", Static).update(line(f"Cannot plan: {message}"))
        notify(self, message, title="Cannot plan", severity="error", timeout=10)

    def _show_counts(self) -> None:
        if self.plan is not None:
            text = counts_text(self.plan, self.kept, self.nugget)
            self.query_one("#review-counts", Static).update(text)

    # -- the diff -----------------------------------------------------------------------------

    @on(VirtualTable.Highlighted, "#changes")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        self._show_diff(event.row)

    def _show_diff(self, row: ChangeRow | None) -> None:
        view = self.query_one(DiffView)
        if row is None or self.plan is None:
            view.show(Text(""))
            return
        diffs = self._diffs
        kept = row.op_id in self.kept
        parts: list[Text | str | tuple[str, str]] = [
            line(row.change.type.upper(), "bold reverse"), " ", line(row.change.detail), "\n",
            ("Kept: applying writes this change.\n\n" if kept else
             "Rejected: applying leaves this change out.\n\n", "green" if kept else "red"),
        ]
        for note_id in named_notes(self.plan, row.op_id):
            diff = diffs.get(note_id)
            if diff is None:
                continue
            after = self._preview[note_id] if self._preview is not None else diff.after
            parts += [note_diff_text(diff.before, after, heading(diff.before)), "\n"]
        if self._preview is not None:
            parts.append(("After: as the kept changes leave the note.", "dim"))
        view.show(join(*parts))

    # -- keeping and rejecting ----------------------------------------------------------------

    def action_toggle(self) -> None:
        table = self.query_one("#changes", VirtualTable)
        row = table.current
        if not isinstance(row, ChangeRow):
            return
        self.kept.symmetric_difference_update({row.op_id})
        self._changed_kept()
        table.refresh_row(table.cursor)
        table.action_cursor(1)

    def action_keep_all(self, keep: bool) -> None:
        if self.plan is None:
            return
        self.kept.clear()
        if keep:
            self.kept.update(op.id for op in self.plan.operations)
        self._changed_kept()
        self.query_one("#changes", VirtualTable).refresh()

    def _changed_kept(self) -> None:
        assert self.plan is not None
        self._show_counts()
        self.refresh_bindings()
        if len(self.kept) == len(self.plan.operations):
            self._preview_ready(self.plan, None)
        elif len(self.plan.notes) <= SYNC_PREVIEW_NOTES:
            self._preview_ready(self.plan, kept_after(self.plan, self.kept))
        else:
            self._compute_preview(self.plan, set(self.kept))

    @work(thread=True, exclusive=True, group="preview", description="_compute_preview")
    def _compute_preview(self, plan: Plan, kept: set[int]) -> None:
        self.app.call_from_thread(self._preview_ready, plan, kept_after(plan, kept))

    def _preview_ready(self, plan: Plan, preview: dict[str, RawNote] | None) -> None:
        if plan is self.plan:
            self._preview = preview
            self._show_diff(self.query_one("#changes", VirtualTable).current)

    def action_toggle_cap(self) -> None:
        self.uncapped = not self.uncapped
        notify(self, "Planning the whole graph (no 10-note cap)…" if self.uncapped
               else "Planning a capped pass (10 notes)…", timeout=3)
        self.replan()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return True if self.plan is not None and self.kept else None
        return True

    # -- applying -----------------------------------------------------------------------------

    def action_apply(self) -> None:
        if self.plan is not None and self.kept:
            self._confirm_apply(self.plan, set(self.kept))

    @work(thread=True, exclusive=True, group="preview", description="_confirm_apply")
    def _confirm_apply(self, plan: Plan, kept: set[int]) -> None:
        """Count what would be written (a replay, so off the event loop), then ask."""
        notes = touched_by(plan, kept)
        self.app.call_from_thread(self._ask_apply, plan, kept, notes)

    def _ask_apply(self, plan: Plan, kept: set[int], notes: list[str]) -> None:
        body = join(
            f"Apply {len(kept):,} of {len(plan.operations):,} changes?\n\n",
            f"This rewrites {len(notes):,} notes in ", line(shown_path(self.memory.graph_path)),
            ", once, atomically, and only if nobody changed the file since this plan.\n\n",
            "It journals the run under ", line(shown_path(self.memory.home / "reflections")),
            ", so ctrl+z on the main screen undoes it. Nothing is deleted: archived notes stay "
            "in the file and can be brought back.",
        )
        self.app.push_screen(ConfirmScreen("Apply the kept changes", body, yes="Apply"),
                             lambda yes: self._apply(plan, kept) if yes else None)

    @work(thread=True, exclusive=True, group="write", description="_apply")
    def _apply(self, plan: Plan, kept: set[int]) -> None:
        self.app.call_from_thread(self.query_one(Busy).start, "Applying…")
        try:
            entry = self.memory.apply(plan, kept)
        except StalePlanError:
            self.app.call_from_thread(self._stale)
            return
        except NuggetsError as exc:
            self.app.call_from_thread(self._apply_failed, str(exc))
            return
        message = (f"Applied {len(kept):,} changes as run {entry.run_id} "
                   f"({len(entry.after):,} notes written). ctrl+z undoes it."
                   if entry else "Nothing to write.")
        self.app.call_from_thread(self._applied, message)

    def _applied(self, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title="Applied")
        self.dismiss(True)

    def _apply_failed(self, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title="Nothing was written", severity="error", timeout=10)

    def _stale(self) -> None:
        self.query_one(Busy).stop()
        body = Text(
            "The graph file changed on disk since this plan was made (the agent or another "
            "program wrote it).\n\nNothing was written: a plan is only ever applied to the file "
            "it was made from.\n\nPlan again on the current file? Your rejections carry over "
            "to the same changes."
        )
        self.graph = None  # plan again from the file as it is now
        self.app.push_screen(ConfirmScreen("Stale plan", body, yes="Plan again"),
                             lambda yes: self.replan() if yes else None)

    def action_back(self) -> None:
        self.dismiss(False)


def _signature(change: ReflectionChange) -> tuple[str, str, str]:
    return (change.type, change.note_id, change.detail)
