"""Review a dry run: the changes of a planned pass grouped by kind (or by nugget), each shown as
exactly what it does; keep or reject one change, a whole group, or everything a search finds, then
apply the kept ones."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from core.clock import shown_time
from core.contract.profile import Profile
from core.contract.store import Store
from core.errors import NuggetsError, StalePlanError
from core.models import (
    JournalEntry,
    MergeOp,
    Operation,
    Plan,
    RawNote,
    ReflectionChange,
    kind_word,
    operation_note_ids,
)
from core.notes import fields
from core.notes.snapshot import Graph
from core.plans.preview import ChangeView, change_view, named_notes, touched_by
from core.plans.review_rules import DONE_WORDS as RULE_WORDS
from core.plans.review_rules import Decided, Rule, parse_rule
from core.plans.session import ReviewSession, Trouble
from core.reflection.pass_state import PassCancelled
from core.reflection.select_phase import MAX_LIMIT

from ..foretold import afterwards, plan_outlook
from ..safe import block, counted, join, line, notify, shown_path
from ..since import news_kept, news_of, since_text
from ..widgets.busy import Busy
from ..widgets.diff_view import DiffView, diff_lines, heading
from ..widgets.footer import Footer
from ..widgets.virtual_table import Column, RowRenderer, VirtualTable
from .base import ConsoleScreen
from .confirm import ConfirmScreen, if_yes, plan_asked
from .from_worker import to_screen

KINDS = (
    ("hide", "Archive"),
    ("rewrite", "Rewrite"),
    ("tag", "Tag"),
    ("merge", "Merge"),
    ("link", "Link"),
    ("keep", "Keep"),
)
# What a kept change of each kind does, for the apply confirmation's count per kind
DONE_WORDS = {
    "hide": "archived",
    "rewrite": "rewritten",
    "tag": "tagged",
    "merge": "merged",
    "link": "linked",
    "keep": "rescued",
}
GROUPINGS = ("kind", "nugget")
# A change's three states: kept (applying writes it), rejected (by the operator or a rule),
# left out unless kept (the plan leaves it out by default; nobody rejected it)
KEPT, REJECTED, LEFT_OUT = "✓", "✗", "○"
NO_CHANGES = "No changes: this memory is already tidy."


@dataclass(frozen=True)
class ChangeRow:
    op_id: int
    change: ReflectionChange
    title: str
    summary: str  # the change in a few words, naming the other note of a merge or a link
    haystack: str  # what a search in the review looks in, casefolded


@dataclass(frozen=True)
class Group:
    label: str
    members: tuple[int, ...]  # the op ids of its rows as shown


class ChangeRows(RowRenderer["Group | ChangeRow"]):
    """The rows of a review session's plan: kept, new and decided by a rule as it says."""

    def __init__(self, session: ReviewSession) -> None:
        self.session = session

    @property
    def kept(self) -> set[int]:
        return self.session.kept

    @property
    def new(self) -> set[int]:  # changes the last plan of this scope did not hold
        return self.session.new

    @property
    def by_rule(self) -> dict[int, Decided]:  # changes a review rule decided
        return self.session.by_rule

    def key(self, row: Group | ChangeRow) -> str:
        return str(row.op_id) if isinstance(row, ChangeRow) else row.label

    def is_header(self, row: Group | ChangeRow) -> bool:
        return isinstance(row, Group)

    @property
    def left_out(self) -> set[int]:  # not kept, and nobody rejected them
        return self.session.left_out

    @property
    def waiting(self) -> set[int]:  # left for a person by `daily --hold`
        return self.session.waiting

    def header_text(self, row: Group | ChangeRow) -> Text:
        assert isinstance(row, Group)
        kept = sum(op_id in self.kept for op_id in row.members)
        left_out = sum(op_id in self.left_out for op_id in row.members)
        rejected = len(row.members) - kept - left_out
        parts: list[Text | str | tuple[str, str]] = [
            line(row.label),
            f" ({len(row.members):,}) · ",
            (KEPT + f" {kept:,} kept", "green"),
        ]
        if rejected or not left_out:
            parts += [" · ", (REJECTED + f" {rejected:,} rejected", "red" if rejected else "")]
        if left_out:
            parts += [" · ", (LEFT_OUT + f" {left_out:,} left out unless kept", "yellow")]
        return join(*parts)

    def cells(self, row: Group | ChangeRow) -> Sequence[Text]:
        assert isinstance(row, ChangeRow)
        title = line(row.title or row.change.note_id)
        if row.op_id in self.new:
            title = join(("new ", "bold yellow"), title)
        if row.op_id in self.waiting and len(self.waiting) < len(self.session.keys):
            title = join(("waits ", "bold yellow"), title)  # told apart from the plan's others
        decided = self.by_rule.get(row.op_id)
        if decided is not None:  # before the title, which is cut first when narrow
            name = decided.rule if len(decided.rule) <= 14 else decided.rule[:13] + "…"
            title = join(line(f"{name} · ", "italic cyan"), title)
        return [
            state_mark(row.op_id, self.kept, self.left_out),
            title,
            line(row.summary),
        ]

    def style(self, row: Group | ChangeRow) -> str | None:
        if not isinstance(row, ChangeRow) or row.op_id in self.kept:
            return None
        return "virtual-table--dim" if row.op_id in self.left_out else "virtual-table--rejected"


def state_mark(op_id: int, kept: set[int], left_out: set[int]) -> Text:
    """A change's state at a glance: kept, left out unless kept, or rejected."""
    if op_id in kept:
        return Text(KEPT, style="bold green")
    if op_id in left_out:
        return Text(LEFT_OUT, style="bold yellow")
    return Text(REJECTED, style="bold red")


# Beside the search field: every key types there (a `-` is text, not a rejection).
SEARCH_KEYS = Text("⏎ keeps the filter, then +/- · esc clears", style="dim")

CHANGE_COLUMNS = (  # at 80 columns the change still fits beside the note
    Column("", 1, priority=9),
    Column("Note", 0, flexible=True, min_width=12),
    Column("Change", 18, priority=1),
)


def _summary(plan: Plan, op_id: int, titles: dict[str, str]) -> str:
    change = plan.change_for(op_id)
    others = [i for i in named_notes(plan, op_id) if i != change.note_id]
    if change.type == "tag":
        return change.detail.removeprefix("Tags -> ")
    if change.type in ("hide", "rewrite"):  # the detail is the same for every one of them
        return {"hide": "archive", "rewrite": "rewrite"}[change.type]
    if not others:
        return change.detail
    other = titles.get(others[0]) or others[0]
    return f"absorbs “{other}”" if change.type == "merge" else f"↔ “{other}”"


def change_rows(plan: Plan) -> list[ChangeRow]:
    """One row per change, in the order the pass made them."""
    titles = {diff.note_id: str(diff.before.get("title") or "") for diff in plan.notes}
    rows = []
    for op_id, change in enumerate(plan.result.changes, start=1):
        title, summary = titles.get(change.note_id, ""), _summary(plan, op_id, titles)
        haystack = " ".join(
            (title, summary, change.detail, change.nugget_name, change.note_id, change.type)
        )
        rows.append(ChangeRow(op_id, change, title, summary, haystack.casefold()))
    return rows


def grouped_rows(
    rows: list[ChangeRow],
    by: str = "kind",
    query: str = "",
    only: set[int] | None = None,
    group: str = "nugget",
) -> list[Group | ChangeRow]:
    """The rows a search finds (all without one), under a header per kind or per nugget;
    `only`: just these changes (the new ones); `group`: what the store calls a nugget."""
    needle = query.casefold().strip()
    found = [row for row in rows if needle in row.haystack] if needle else rows
    if only is not None:
        found = [row for row in found if row.op_id in only]
    # Bucketed rather than sorted: 150k changes are grouped again on every key of a search.
    buckets: dict[str, dict[str, list[ChangeRow]]] = {}
    for row in found:
        outer = row.change.type if by == "kind" else row.change.nugget_name
        inner = buckets.get(outer)
        if inner is None:
            inner = buckets[outer] = {kind: [] for kind, _label in KINDS}
        inner[row.change.type].append(row)
    labels = dict(KINDS)
    order = [kind for kind, _label in KINDS] if by == "kind" else sorted(buckets)
    out: list[Group | ChangeRow] = []
    for key in order:
        if key not in buckets:
            continue
        members = [row for kind_rows in buckets[key].values() for row in kind_rows]
        label = labels[key] if by == "kind" else f"{group} {key}"
        out += [Group(label, tuple(row.op_id for row in members)), *members]
    return out


def kept_by_kind(plan: Plan, kept: set[int]) -> str:
    """The kept changes counted per kind, in the review's order: "4 archived · 3 rewritten"."""
    counts: Counter[str] = Counter(plan.change_for(op_id).type for op_id in kept)
    return " · ".join(
        f"{counts[kind]:,} {DONE_WORDS[kind]}" for kind, _label in KINDS if counts[kind]
    )


def written_words(notes: int, files: int) -> str:
    """What an apply wrote: notes in the notes' file, and whole files (a store that keeps a
    note per file writes files, not notes)."""
    said = [counted(notes, "note") if notes else "", counted(files, "file") if files else ""]
    return (
        " and ".join(part for part in said if part) + " written"
        if notes or files
        else ("nothing written")
    )


def cap_text(plan: Plan, words: Profile) -> Text:
    """What the plan covered, in the store's words (docs/STORES.md, `plan_scope`)."""
    notes = counted(plan.result.inspected, "note")
    if words.capabilities.capped_plans and not plan.uncapped:
        return line(words.plan_cap.format(notes=notes, limit=f"{plan.limit or MAX_LIMIT:,}"))
    return line(words.plan_scope.format(notes=notes))


def counts_text(
    plan: Plan,
    kept: set[int],
    nugget: str | None,
    shown: int | None = None,
    query: str = "",
    stale: bool = False,
    grouping: str = "kind",
    *,
    words: Profile,
    new: int = 0,
    new_only: bool = False,
) -> Text:
    """`shown`: how many changes a search finds (None: no search); `new`: how many changes
    the last plan did not hold; `words`: the store's."""
    result = plan.result
    scope = words.scope(nugget)
    counts = {
        "rewrite": result.rewritten,
        "merge": result.merged,
        "hide": result.hidden,
        "tag": result.tagged,
        "link": result.linked,
    }
    figures = " · ".join(
        f"{count:,} {DONE_WORDS[kind]}"
        for kind, count in counts.items()
        if kind in words.change_kinds
    )
    total = len(plan.operations)
    parts: list[Text | str | tuple[str, str]] = [
        ("Dry run", "bold"),
        " of the ",
        line(words.pass_label),
        " on ",
        line(scope),
        "\n",
        cap_text(plan, words),
        "\n",
        figures,
        "\n",
        (f"Keeping {len(kept):,} of {counted(total, 'change')}", "bold"),
        " · by ",
        line(grouping if grouping == "kind" else words.group),
        " · nothing is written until you apply.",
    ]
    if new:
        parts += [
            "\n",
            (f"{counted(new, 'change')} new since the last plan", "bold yellow"),
            " (marked new; N shows only them)."
            if not new_only
            else " · showing only them; N shows every change.",
        ]
    if shown is not None:
        parts += [
            "\n",
            (f"{counted(shown, 'change')} match “", "bold"),
            line(query, "bold"),
            ("”", "bold"),
            ": + and - keep or reject just those; escape clears the search.",
        ]
    if stale:
        parts += [
            "\n",
            line(
                f"Stale: the {words.source_label} changed on disk since this plan. "
                "Press r to plan again (your rejections carry over).",
                "bold red",
            ),
        ]
    return join(*parts)


def change_text(
    view: ChangeView, kept: bool, archived_text: str = "its text", left_out: bool = False
) -> Text:
    """The pane of one change: what it does and only that (`archived_text`: the heading over
    an archived note's text, saying where it stays, in the store's words; `left_out`: not
    kept, and nobody rejected it)."""
    op, notes = view.op, view.notes
    parts: list[Text | str | tuple[str, str]] = [_state_line(kept, left_out)]
    if op.type == "hide":
        parts += [
            "Archives ",
            heading(notes[0]),
            "\n",
            ("  hidden: ", "bold"),
            "false → true\n",
            line(f"  {archived_text}:", "dim"),
            "\n",
            _content(notes[0]),
        ]
    elif op.type == "rewrite":
        parts += ["Rewrites the content of ", heading(notes[0]), "\n"]
        parts += diff_lines(view.content, " (nuggets reflect prints them all)")
    elif op.type == "tag":
        parts += ["Retags ", heading(notes[0]), "\n", ("  tags ", "bold")]
        parts += [p for t in view.tags_removed for p in (line("-" + t, "red"), " ")]
        parts += [p for t in view.tags_added for p in (line("+" + t, "green"), " ")]
        unchanged = [t for t in fields.tags(notes[0]) if t not in view.tags_removed]
        if unchanged:
            parts += ["\n", ("  kept: ", "dim"), line(", ".join(unchanged), "dim")]
    elif isinstance(op, MergeOp) and len(notes) == 2:
        winner, loser = notes
        parts += [
            ("Keeps ", "bold"),
            heading(winner),
            "\n",
            _content(winner),
            "\n\n",
            ("Absorbs and archives ", "bold"),
            heading(loser),
            "\n",
            _content(loser),
            "\n\n",
            ("Merged result", "bold"),
            (" (this change alone)\n", "dim"),
            block(view.merged_text, "green"),
        ]
        if view.tags_added:
            parts += [
                "\n",
                ("  tags ", "bold"),
                *[p for t in view.tags_added for p in (line("+" + t, "green"), " ")],
            ]
        hits = fields.hits(winner) + fields.hits(loser)
        parts += ["\n", ("  hits: ", "bold"), f"{fields.hits(winner):,} → {hits:,}"]
    elif op.type == "keep" and notes:
        parts += [
            "Keeps ",
            heading(notes[0]),
            (" from being dropped by the memory system itself (see the change's reason)\n", "dim"),
            _content(notes[0]),
        ]
    elif op.type == "link" and len(notes) == 2:
        parts += [
            "Links ",
            heading(notes[0]),
            "\n  ↔ ",
            heading(notes[1]),
            "\n",
            ("  reason: ", "bold"),
            line(getattr(op, "reason", ""), "green"),
        ]
    else:  # a note the plan names but no longer holds: say what the pass said
        parts.append(line(op.type))
    return join(*parts)


def _state_line(kept: bool, left_out: bool) -> Text:
    if kept:
        return Text(KEPT + " Kept: applying writes this change.\n\n", style="green")
    if left_out:
        return Text(
            LEFT_OUT + " Left out unless kept: the plan leaves this change out by default; "
            "space keeps it.\n\n",
            style="yellow",
        )
    return Text(REJECTED + " Rejected: applying leaves this change out.\n\n", style="red")


def side_file_text(memory: Store, plan: Plan, op: Operation) -> Text:
    """What the change does to the files the store keeps in step with the notes (Nuggets: the
    agent's fact files, from which it re-creates each fact note); empty when nothing."""
    files = memory.side_files
    if files is None or op.type not in ("hide", "merge", "rewrite"):
        return Text("")
    lines = files.lines(plan, set(operation_note_ids(op)))
    if not lines:
        return Text("")
    return join(
        "\n\n",
        line(files.title, "bold"),
        " (",
        line(files.why),
        ")\n",
        *[part for text in lines for part in ("  ", line(text), "\n")],
    )


def side_files_text(memory: Store, plan: Plan, notes: list[str]) -> Text:
    """The files an apply edits with the notes (empty when none)."""
    files = memory.side_files
    names = files.names(plan, set(notes)) if files is not None else []
    if files is None or not names:
        return Text("")
    return join(line(files.sentence.format(names=", ".join(names))), "\n\n")


def _content(note: RawNote) -> Text:
    text = fields.text(note, "content")
    return block(text) if text.strip() else Text("  (no content)", style="dim italic")


class ReviewScreen(ConsoleScreen[bool]):
    """Dismissed with True when the kept changes were written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "space",
            "toggle",
            "Toggle",
            id="review.toggle",
            tooltip="Keep or reject the highlighted change (all are kept at first, but "
            "those the plan leaves out unless kept)",
        ),
        Binding(
            "y",
            "keep_group(True)",
            "Keep grp",
            id="review.keep_group",
            tooltip="Keep every change of the highlighted group",
        ),
        Binding(
            "n",
            "keep_group(False)",
            "Reject grp",
            id="review.reject_group",
            tooltip="Reject every change of the highlighted group",
        ),
        Binding(
            "plus",
            "keep_all(True)",
            "Keep all",
            key_display="+",
            id="review.keep_all",
            tooltip="Keep every change shown (what the search finds, when there is one)",
        ),
        Binding(
            "minus",
            "keep_all(False)",
            "Reject all",
            key_display="-",
            id="review.reject_all",
            tooltip="Reject every change shown (what the search finds, when there is one)",
        ),
        Binding(
            "slash",
            "search",
            "Search",
            key_display="/",
            id="review.search",
            tooltip="Show only the changes whose note, nugget or detail contains a text",
        ),
        Binding(
            "g",
            "regroup",
            "Group by",
            id="review.group",
            tooltip="Group the changes by kind or by nugget",
        ),
        Binding(
            "right_square_bracket",
            "jump(1)",
            "Next grp",
            key_display="]",
            id="review.next_group",
            tooltip="Jump to the next group",
        ),
        Binding(
            "left_square_bracket",
            "jump(-1)",
            "Prev grp",
            key_display="[",
            id="review.previous_group",
            tooltip="Jump to the previous group",
        ),
        Binding(
            "a",
            "apply",
            "Apply",
            id="review.apply",
            tooltip="Apply the kept changes, after confirming what will be written",
        ),
        Binding(
            "c",
            "toggle_cap",
            "Cap",
            id="review.cap",
            tooltip="Lift or restore the 10-note cap: plan the whole graph",
        ),
        Binding(
            "r",
            "plan_again",
            "Replan",
            id="review.replan",
            tooltip="Plan again on the file as it is now (decisions carry over)",
        ),
        # `r` while the plan is current: says so (remapped with the replan)
        Binding("r", "plan_fresh", show=False, id="review.replan"),
        Binding(
            "N",
            "new_only",
            "New only",
            id="review.new_only",
            tooltip="Show only the changes new since the last plan, or every change",
        ),
        Binding(
            "w",
            "waiting_only",
            "Waiting",
            show=False,
            id="review.waiting_only",
            tooltip="Show only the changes the daily pass (daily --hold) left waiting for you, "
            "or every change",
        ),
        Binding(
            "d",
            "dismiss_since",
            "Hide news",
            show=False,
            id="review.dismiss_since",
            tooltip="Hide the since-your-last-visit header (the next opening tells only what "
            "happens after)",
        ),
        Binding(
            "s",
            "save_rule",
            "Save rule",
            id="review.save_rule",
            tooltip="Save the highlighted group's or the search's decision as a named "
            "review rule, applied to every new plan",
        ),
        Binding(
            "R",
            "rules",
            "Rules",
            id="review.rules",
            tooltip="List the review rules: change their action, edit, remove them",
        ),
        Binding(
            "escape",
            "back",
            "Back",
            id="review.back",
            tooltip="Stop planning the whole graph; else clear the search; else back to "
            "the notes (decisions are kept)",
        ),
        Binding(
            "q",
            "quit_review",
            "Quit",
            id="review.quit",
            tooltip="Quit the console, asking first while changes are undecided",
        ),
    ]
    # The keys a narrow footer keeps first (the rest as room allows; `?` lists them all).
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = (
        "review.toggle",
        "review.keep_group",
        "review.reject_group",
        "review.apply",
        "review.replan",
        "review.back",
        "review.quit",
        "review.search",
        "review.cap",
        "review.group",
        "review.next_group",
        "review.previous_group",
    )

    def __init__(
        self,
        memory: Store,
        nugget: str | None,
        uncapped: bool = False,
        graph: Graph | None = None,
        prepared: Plan | None = None,
        watch_interval: float = 1.0,
        at: str | None = None,
    ) -> None:
        """`graph`: the file as the main screen last read it, when still current (planning
        reads it again otherwise); `prepared`: a capped plan of every nugget made ahead; `at`:
        the change (its key) the cursor was on when this review was last left."""
        super().__init__()
        self.at = at  # the change the cursor is on, by its key: kept when the review is left
        self.memory = memory
        self.nugget = nugget
        self.session = ReviewSession(memory, nugget, uncapped, on_trouble=self._trouble)
        self.graph = graph
        self.prepared = prepared
        self.watch_interval = watch_interval
        self.rows = ChangeRows(self.session)
        self.grouping = "kind"
        self.query_text = ""
        self.stale = False
        self._all_rows: list[ChangeRow] = []
        self._before: dict[str, RawNote] = {}
        self._after: dict[str, RawNote] = {}
        self._seen: object = None  # the file's stat when last checked for changes
        self.new_only = False
        self.waiting_only = False
        self._told_replan = False  # `r` asked for this plan: say what it found
        held = self.session.held_plan(graph) if graph is not None else None
        if held is not None:  # what `daily --hold` left waiting, not a plan made afresh
            self.prepared = prepared = held
        if prepared is not None and not uncapped:
            # Known before the screen is built, so its footer is right from the first frame.
            self.session.plan = prepared
            self.session.kept |= prepared.default_kept()

    @property
    def kept(self) -> set[int]:
        return self.session.kept

    @property
    def plan(self) -> Plan | None:
        return self.session.plan

    @property
    def uncapped(self) -> bool:
        return self.session.uncapped

    @uncapped.setter
    def uncapped(self, uncapped: bool) -> None:
        self.session.uncapped = uncapped

    def compose(self) -> ComposeResult:
        yield Static(Text("Planning…"), id="review-counts")
        with Container(id="review-search-bar"):
            group = self.memory.profile.group  # a nugget, a scope, a type, a home
            yield Input(
                placeholder=f"/ search the changes: note, {group} or detail", id="review-search"
            )
            yield Static(SEARCH_KEYS, id="review-search-keys")
        with Horizontal():
            # Empty until planned: "no changes" is said only of a plan that has none.
            yield VirtualTable(CHANGE_COLUMNS, self.rows, id="changes", empty_text="")
            yield DiffView(id="review-diff")
        yield Busy()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#review-search-bar").display = False
        self.query_one("#changes").focus()
        if self.prepared is not None and not self.uncapped:
            self._planned(self.prepared)
        else:
            self.replan()
        self.set_interval(self.watch_interval, self._check_file)
        if self.session.error is not None:
            notify(
                self,
                line(self.session.error),
                title="Decisions not kept",
                severity="error",
                timeout=10,
            )

    @property
    def table(self) -> VirtualTable[Group | ChangeRow]:
        return self.query_one("#changes", VirtualTable)

    # -- planning -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="plan", description="replan")
    def replan(self) -> None:
        cap = "the whole graph" if self.uncapped else "a capped pass"
        busy = self.query_one(Busy)
        to_screen(self, busy.start, f"Planning {cap}…", stops="esc" if self.uncapped else "")
        worker = get_current_worker()
        try:
            plan = self.session.make_plan(
                self.graph, should_stop=lambda: worker.is_cancelled, progress=busy.told
            )
        except PassCancelled:
            return  # escape stopped it and said so
        except NuggetsError as exc:
            to_screen(self, self._plan_failed, str(exc))
            return
        to_screen(self, self._planned, plan, change_rows(plan))

    def _planned(self, plan: Plan, rows: list[ChangeRow] | None = None) -> None:
        self.query_one(Busy).stop()
        self.stale, self._seen = False, None
        self._before = {diff.note_id: diff.before for diff in plan.notes}
        self._after = {diff.note_id: diff.after for diff in plan.notes}
        self.table.empty_text = NO_CHANGES
        self._all_rows = rows if rows is not None else change_rows(plan)
        self.at = self._key_at_cursor() or self.at  # the cursor's change, before the numbers go
        self.session.planned(plan)
        self._regroup(self._row_at())
        if self._told_replan:
            self._told_replan = False
            changes = counted(len(plan.operations), "change")
            notify(
                self,
                f"Planned again on the {self.memory.profile.source_label} as it is now: "
                f"{changes}, {len(self.rows.new):,} new since the last plan.",
                title="Planned again",
                timeout=4,
            )

    # -- decisions kept beside the journal, review rules ---------------------------------------

    def _trouble(self, trouble: Trouble, message: str) -> None:
        """The session could not read the rules, or read or write the decisions file."""
        title = "Rules not applied" if trouble == "rules" else "Decisions not kept"
        notify(self, line(message), title=title, severity="error", timeout=10)

    def _rule_from_view(self) -> Rule | None:
        """The decision shown as a rule: the search's text, else the highlighted group's kind
        or nugget; its action what the operator chose for those changes."""
        if self.query_text.strip():
            members, conditions = self._shown_ids(), {"text": self.query_text.strip()}
            name = f"text {self.query_text.strip()}"
        else:
            group = self._group_at(self.table.cursor)
            if group is None or self.plan is None:
                return None
            first = self.plan.change_for(group.members[0])
            members = list(group.members)
            conditions = (
                {"kind": first.type} if self.grouping == "kind" else {"nugget": first.nugget_name}
            )
            name = group.label
        kept = sum(op_id in self.kept for op_id in members)
        action = "keep" if kept == len(members) else "reject" if not kept else "review"
        return parse_rule(name[:60], action, **conditions)

    def action_save_rule(self) -> None:
        from .rules import SaveRuleScreen, save_rule

        try:
            rule = self._rule_from_view()
        except NuggetsError as exc:  # a search no rule can hold (a control character)
            notify(self, line(str(exc)), title="Not a rule", severity="error", timeout=6)
            return
        if rule is None:
            notify(self, "Highlight a group, or search, to save its decision as a rule.", timeout=4)
            return

        def named(name: str | None) -> None:
            try:
                named_rule = parse_rule(name or "", rule.action, **rule.conditions())
            except NuggetsError as exc:
                if name:
                    notify(self, line(str(exc)), title="Not saved", severity="error", timeout=6)
                return
            if save_rule(self, self.memory, named_rule):
                self._rules_changed()

        self.app.push_screen(SaveRuleScreen(rule), named)

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.memory), lambda _: self._rules_changed())

    def _rules_changed(self) -> None:
        if self.plan is not None:
            self.session.decide_by_rules()
            self._changed_kept()

    def _check_decisions(self) -> None:
        """Decisions another process wrote (a second console, `daily`): taken in and shown
        within one watch interval."""
        if self.session.reload():
            self._changed_kept()

    def _regroup(self, keep: str | None = None) -> None:
        table = self.table
        current = table.current
        if keep is None and isinstance(current, ChangeRow):
            keep = str(current.op_id)
        only = self.rows.new if self.new_only else None
        if self.waiting_only:
            only = self.session.waiting if only is None else only & self.session.waiting
        table.set_rows(
            grouped_rows(
                self._all_rows, self.grouping, self.query_text, only, self.memory.profile.group
            ),
            keep,
        )
        self._changed_kept()

    def _key_at_cursor(self) -> str | None:
        """What the change the cursor is on does (its key): the same change in another plan."""
        current = self.table.current if self.is_mounted else None
        keys = self.session.keys
        return keys[current.op_id - 1] if isinstance(current, ChangeRow) else None

    def _row_at(self) -> str | None:
        """The row of the change `at` names in this plan (None when it holds none such)."""
        keys = self.session.keys
        return str(keys.index(self.at) + 1) if self.at in keys else None

    def dismiss(self, result: bool | None = None) -> AwaitComplete:
        self.at = self._key_at_cursor() or self.at  # for the next time the review opens
        return super().dismiss(result)

    def _plan_failed(self, message: str) -> None:
        self.query_one(Busy).stop()
        self.query_one("#review-counts", Static).update(line(f"Cannot plan: {message}"))
        notify(self, message, title="Cannot plan", severity="error", timeout=10)

    def _shown_ids(self) -> list[int]:
        return [row.op_id for row in self.table.rows if isinstance(row, ChangeRow)]

    def _show_counts(self) -> None:
        if self.plan is not None:
            shown = len(self._shown_ids()) if self.query_text.strip() else None
            text = counts_text(
                self.plan,
                self.kept,
                self.nugget,
                shown,
                self.query_text,
                self.stale,
                self.grouping,
                words=self.memory.profile,
                new=len(self.rows.new),
                new_only=self.new_only,
            )
            self.query_one("#review-counts", Static).update(join(text, self._rules_text()))

    def _rules_text(self) -> Text:
        """What the review rules decided, and what the daily pass left waiting."""
        parts: list[Text | str | tuple[str, str]] = []
        if self.rows.by_rule:
            parts += [
                "\n",
                f"{counted(len(self.rows.by_rule), 'change')} decided by review "
                "rules (named on each; R lists them).",
            ]
        news = news_of(self.app)
        if news is not None:
            parts += ["\n", since_text(news.since, "w: only them")]
        state = self.session.state
        waiting = state.waiting_count()
        if waiting and not (news is not None and news.since.waiting):  # else said just above
            shown = " · showing only them; w shows every change." if self.waiting_only else ""
            parts += [
                "\n",
                line(
                    f"{counted(waiting, 'change')} waiting since {shown_time(state.waiting_since)}",
                    "bold yellow",
                ),
                shown or " (the daily pass left them for you; w shows only them).",
            ]
        return join(*parts)

    # -- the file changing under the plan -----------------------------------------------------

    def _check_file(self) -> None:
        self._check_decisions()
        if self.workers_busy("write"):
            return  # our own apply landing: neither a stale plan nor another program's run
        stamp = self.memory.stamp()
        if self.plan is None or self.stale or stamp == self._seen:
            return
        self._seen = stamp
        self._compare(self.plan)

    @work(thread=True, exclusive=True, group="watch", description="_compare")
    def _compare(self, plan: Plan) -> None:
        news = news_kept(self.app)  # another program wrote: its runs are news, not ours
        heard = news is not None and news.catch_up(ours=False)
        if self.session.is_stale(plan):
            to_screen(self, self._went_stale, plan)
        elif heard:
            to_screen(self, self._show_counts)

    def _went_stale(self, plan: Plan) -> None:
        if plan is self.plan and not self.stale:
            self.stale = True
            self.graph = None  # plan again from the file as it is now
            self._show_counts()
            self.refresh_bindings()
            notify(
                self,
                line(
                    f"The {self.memory.profile.source_label} changed on disk: this "
                    "plan is stale. r plans again."
                ),
                title="Stale plan",
                severity="warning",
                timeout=6,
            )

    def action_plan_again(self) -> None:
        plan_asked(self, self.memory.profile, self._plan_again)

    def _plan_again(self) -> None:
        self.graph = None
        self._told_replan = True
        self.replan()

    def action_plan_fresh(self) -> None:
        notify(
            self,
            line(
                f"This plan is current: the {self.memory.profile.source_label} has "
                "not changed since it was made. r plans again once it has."
            ),
            title="Nothing to plan again",
            timeout=4,
        )

    # -- the diff -----------------------------------------------------------------------------

    @on(VirtualTable.Highlighted, "#changes")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        self._show_diff(event.row)

    def _show_diff(self, row: ChangeRow | None) -> None:
        view = self.query_one(DiffView)
        if row is None or self.plan is None:
            view.show(Text(""))
            return
        op = self.plan.operations[row.op_id - 1]
        title = join(
            line(kind_word(row.change.type).upper(), "bold reverse"),
            " ",
            line(row.change.detail),
            "  ",
            line(row.change.nugget_name, "dim"),
            "\n",
        )
        decided = self.rows.by_rule.get(row.op_id)
        if decided is not None:
            title = join(
                title,
                line(
                    f"{RULE_WORDS[decided.action].capitalize()} by the review "
                    f"rule “{decided.rule}”.",
                    "italic",
                ),
                "\n",
            )
        shown = change_view(op, self._before, self._after)
        view.show(
            join(
                title,
                change_text(
                    shown,
                    row.op_id in self.kept,
                    self.memory.profile.archived_text,
                    row.op_id in self.session.left_out,
                ),
                side_file_text(self.memory, self.plan, op),
            )
        )

    # -- keeping and rejecting ----------------------------------------------------------------

    def action_toggle(self) -> None:  # type: ignore[override]  # the space key's, not DOMNode's
        table = self.table
        row = table.current
        if not isinstance(row, ChangeRow):
            return
        self.session.decide([row.op_id], row.op_id not in self.kept)
        self._changed_kept()
        table.action_cursor(1)

    def action_keep_all(self, keep: bool) -> None:
        if self.plan is None:
            return
        if self.query_text.strip():
            self._decide(self._shown_ids(), keep)
            return
        self.session.decide([op.id for op in self.plan.operations], keep)
        self._changed_kept()

    def action_keep_group(self, keep: bool) -> None:
        group = self._group_at(self.table.cursor)
        if group is not None:
            self._decide(group.members, keep)

    def _decide(self, op_ids: Sequence[int], keep: bool) -> None:
        self.session.decide(op_ids, keep)
        self._changed_kept()

    def _group_at(self, index: int) -> Group | None:
        rows = self.table.rows
        for position in range(min(index, len(rows) - 1), -1, -1):
            row = rows[position]
            if isinstance(row, Group):
                return row
        return None

    def action_jump(self, step: int) -> None:
        table, rows = self.table, self.table.rows
        starts = [i for i, row in enumerate(rows) if isinstance(row, Group)]
        here = max((i for i in starts if i <= table.cursor), default=-1)
        onward = [i for i in starts if (i > here if step > 0 else i < here)]
        if onward:
            start = onward[0] if step > 0 else onward[-1]
            table.cursor = start + 1
            table.scroll_to(y=start, animate=False, immediate=True)  # its header on top

    def action_new_only(self) -> None:
        if not self.rows.new and not self.new_only:
            notify(self, "No change is new since the last plan.", timeout=3)
            return
        self.new_only = not self.new_only
        self._regroup()

    def action_waiting_only(self) -> None:
        if not self.session.waiting and not self.waiting_only:
            notify(self, "No change of this plan waits for you.", timeout=3)
            return
        self.waiting_only = not self.waiting_only
        self._regroup()

    def action_dismiss_since(self) -> None:
        news = news_of(self.app)
        if news is not None:
            news.dismiss()
            self._show_counts()
            self.refresh_bindings()

    def action_regroup(self) -> None:
        self.grouping = GROUPINGS[(GROUPINGS.index(self.grouping) + 1) % len(GROUPINGS)]
        self._regroup()

    def _changed_kept(self) -> None:
        self._show_counts()
        self.refresh_bindings()
        self.table.refresh()
        current = self.table.current
        self._show_diff(current if isinstance(current, ChangeRow) else None)

    # -- searching ----------------------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one("#review-search-bar").display = True
        self.query_one("#review-search", Input).focus()

    @on(Input.Changed, "#review-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        if self.plan is not None:
            self._regroup()

    @on(Input.Submitted, "#review-search")
    def _search_done(self) -> None:
        self.table.focus()

    def action_toggle_cap(self) -> None:
        plan_asked(self, self.memory.profile, self._toggle_cap)

    def _toggle_cap(self) -> None:
        self.uncapped = not self.uncapped
        notify(
            self,
            "Planning the whole graph (no 10-note cap)…"
            if self.uncapped
            else "Planning a capped pass (10 notes)…",
            timeout=3,
        )
        self.replan()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return True if self.plan is not None and self.kept else None
        if action == "plan_again":  # in the footer once the file changed under the plan
            return self.stale or self.plan is None
        if action == "plan_fresh":
            return self.plan is not None and not self.stale
        if action in ("save_rule", "rules"):
            return self.memory.profile.capabilities.rules and (
                self.plan is not None or action == "rules"
            )
        if action == "dismiss_since":
            return True if news_of(self.app) is not None else None
        if action == "toggle_cap":  # a store that never caps its plan has no cap to lift
            return self.memory.profile.capabilities.capped_plans
        return True

    # -- applying -----------------------------------------------------------------------------

    def action_apply(self) -> None:
        if self.stale:  # known already: no dialog asking to apply what cannot be
            self._stale()
            return
        if self.plan is not None and self.kept:
            self._confirm_apply(self.plan, set(self.kept))

    @work(thread=True, exclusive=True, group="preview", description="_confirm_apply")
    def _confirm_apply(self, plan: Plan, kept: set[int]) -> None:
        """Count what would be written (a replay, so off the event loop), then ask."""
        notes = touched_by(plan, kept)
        told = plan_outlook(self.memory, plan, kept)
        to_screen(self, self._ask_apply, plan, kept, notes, told)

    def _ask_apply(self, plan: Plan, kept: set[int], notes: list[str], told: list[str]) -> None:
        question = f"Apply {len(kept):,} of {counted(len(plan.operations), 'change')}?"
        profile = self.memory.profile
        body = (
            join(question, "\n\n", line(profile.applied_elsewhere))
            if profile.capabilities.runs_itself
            else join(
                question,
                "\n",
                line(kept_by_kind(plan, kept), "bold"),
                "\n\n",
                *self._what_apply_writes(notes),
                side_files_text(self.memory, plan, notes),
                "It journals the run under ",
                line(shown_path(self.memory.journal.folder)),
                ", so ctrl+z on the main screen undoes it.",
                " Nothing is deleted: archived notes stay in the file and can be brought back."
                if profile.capabilities.whole_file_apply
                else "",
                *afterwards(told),
            )
        )
        self.app.push_screen(
            ConfirmScreen("Apply the kept changes", body, yes="Apply"),
            if_yes(lambda: self._apply(plan, kept)),
        )

    def _what_apply_writes(self, notes: list[str]) -> list[Text | str]:
        """The store's own words for what an apply writes, else the rewrite of the file."""
        if not self.memory.profile.capabilities.whole_file_apply:
            return [line(self.memory.profile.apply_effect), "\n\n"]
        return [
            f"This rewrites {counted(len(notes), 'note')} in ",
            line(shown_path(self.memory.graph_path)),
            ", once, atomically, and only if nobody changed the file since this plan.\n\n",
        ]

    @work(thread=True, exclusive=True, group="write", description="_apply")
    def _apply(self, plan: Plan, kept: set[int]) -> None:
        to_screen(self, lambda: self.query_one(Busy).start("Applying…"))
        try:
            entry = self.session.apply(plan, kept)
        except StalePlanError:
            to_screen(self, self._stale)
            return
        except NuggetsError as exc:
            to_screen(self, self._apply_failed, str(exc))
            return
        message = (
            f"Applied {counted(len(kept), 'change')} as run {entry.run_id} "
            f"({written_words(*self._written(entry))}). ctrl+z undoes it."
            if entry
            else self._nothing_written()
        )
        to_screen(self, self._applied, message)

    def _written(self, entry: JournalEntry) -> tuple[int, int]:
        """How many notes and whole files one apply wrote, over every run of its batch (a
        store may write a run per file)."""
        try:
            log = self.memory.journal.log()
        except NuggetsError:
            log = []
        runs = [
            h for h in log if h.run_id == entry.run_id or (entry.batch and h.batch == entry.batch)
        ]
        if not runs:
            return len(entry.after), int(entry.file_name is not None)
        return sum(h.notes for h in runs), len({h.file_name for h in runs if h.file_name})

    def _nothing_written(self) -> str:
        profile = self.memory.profile
        return (
            profile.applied_elsewhere if profile.capabilities.runs_itself else "Nothing to write."
        )

    def _applied(self, message: str) -> None:
        self.query_one(Busy).stop()
        self.session.applied()  # nothing waits any more, unless daily left more
        notify(self, message, title="Applied")
        self.dismiss(True)

    def _apply_failed(self, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title="Nothing was written", severity="error", timeout=10)

    def _stale(self) -> None:
        self.query_one(Busy).stop()
        body = block(
            f"The {self.memory.profile.source_label} changed on disk since this plan was made (the "
            "agent or another program wrote it).\n\nNothing was written: a plan is only ever "
            "applied to the file it was made from.\n\nPlan again on the current file? Your "
            "rejections carry over to the same changes."
            + (
                f"\n\nPlanning the {self.memory.profile.pass_label}: "
                f"{self.memory.profile.plan_cost}."
                if self.memory.profile.capabilities.costly_plans
                else ""
            )
        )
        self.graph = None  # plan again from the file as it is now
        self.app.push_screen(
            ConfirmScreen("Stale plan", body, yes="Plan again"), if_yes(self.replan)
        )

    def action_back(self) -> None:
        if self.uncapped and self.workers_busy("plan"):
            self._stop_planning()
            return
        search = self.query_one("#review-search", Input)
        if search.value or search.has_focus:
            search.value = ""
            self.query_one("#review-search-bar").display = False
            self.table.focus()
            return
        self._say_what_is_kept()
        self.dismiss(False)

    def _say_what_is_kept(self) -> None:
        decided, undecided = self.session.undecided()
        if decided and undecided:
            notify(
                self,
                f"Your decisions on {counted(decided, 'change')} are kept for the "
                f"next review; {self._undecided_words(undecided)}.",
                title="Review left",
                timeout=6,
            )

    def _undecided_words(self, undecided: int) -> str:
        """The changes not decided yet, by what applying would do with them."""
        kept, left_out = self.session.undecided_kept()
        by_rule = undecided - kept - left_out
        parts = [
            f"{kept:,} kept ({KEPT}: applying writes them)" if kept else "",
            f"{left_out:,} left out unless kept ({LEFT_OUT})" if left_out else "",
            f"{by_rule:,} rejected by a rule ({REJECTED})" if by_rule else "",
        ]
        return f"{counted(undecided, 'change')} not decided yet: " + ", ".join(
            part for part in parts if part
        )

    def action_quit_review(self) -> None:
        decided, undecided = self.session.undecided()
        if not (decided and undecided):
            self.app.exit()
            return
        body = block(
            f"{self._undecided_words(undecided)}. Your decisions on "
            f"{counted(decided, 'change')} are kept for the next review.\n\nQuit the console?"
        )
        self.app.push_screen(
            ConfirmScreen("Quit with changes not decided", body, yes="Quit"),
            if_yes(self.app.exit),
        )

    def _stop_planning(self) -> None:
        """Escape while the whole graph is planned: the pass stops (it checks between phases
        and every few hundred notes), and the capped plan shown before stays."""
        self.workers.cancel_group(self, "plan")
        self.uncapped = False
        self.query_one(Busy).stop()
        if self.plan is None:
            notify(self, "Stopped planning the whole graph.", timeout=4)
            self.dismiss(False)
            return
        notify(self, "Stopped planning the whole graph; showing the capped plan again.", timeout=4)
