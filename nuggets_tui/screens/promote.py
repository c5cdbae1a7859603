"""Promotion: the notes recalled often enough to become permanent context, where each goes in
MEMORY.md, and the file's diff; `a` writes it. Entries that read like instructions to the agent
or carry a secret (core/promotion/screening.py, core/promotion/secret_screen.py), and those
whose note stands in an open group of the contradiction queue (core/review/queue.py), are held
back until the operator decides the group or allows them one by one."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from core.contract.absent import refused, refused_promotion
from core.contract.parts import PromotionForm
from core.contract.profile import Profile
from core.contract.store import Store
from core.errors import NuggetsError, StalePlanError
from core.models import BlockedEntry, PromotionEntry, PromotionPlan, ShadowedNote
from core.notes.snapshot import Graph
from core.promotion.candidates import parse_allowance, shown_as_one
from core.promotion.memory_md import section_rank

from ..safe import block, counted, join, line, more_lines, notify, shown_path
from ..widgets.busy import Busy
from ..widgets.diff_view import MAX_DIFF_LINES, DiffView, Marked
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


@dataclass(frozen=True)
class FileRow:
    """The header over one file's entries, when promotion writes several files (MicroClaw:
    the global AGENTS.md and each chat's), with the folder they share (`under`)."""

    plan: PromotionPlan
    under: str


Row = Entry | ShadowRow | FileRow


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


def common_folder(plans: Sequence[PromotionPlan]) -> str:
    """The folder every file written lies under (a refused scope names a folder, not a file)."""
    folders = [os.path.dirname(p.path) for p in plans if not p.refused] or [plans[0].path]
    return os.path.commonpath(folders)


def rows_of_files(plans: Sequence[PromotionPlan]) -> list[Row]:
    """One file's rows; several files' each under the file's header."""
    if len(plans) == 1:
        return rows_of(plans[0])
    under = common_folder(plans)
    return [row for plan in plans for row in (FileRow(plan, under), *rows_of(plan))]


def file_header(row: FileRow) -> Text:
    """The file, named from the folder shared by all, and what is written to it."""
    plan = row.plan
    if plan.refused:
        return join(("not promoted: ", "bold red"), line("; ".join(plan.refused)))
    name = os.path.relpath(plan.path, row.under)
    return join(
        line(name, "bold"),
        (f"  {plan.added:,} to add", "green"),
        " · ",
        (f"{plan.updated:,} to update", "yellow"),
        "" if plan.directory_exists else " · no folder: a preview only",
    )


class EntryRows(RowRenderer[Row]):
    def key(self, row: Row) -> str:
        if isinstance(row, FileRow):
            return f"file:{row.plan.path}"
        return row.note.note_id if isinstance(row, ShadowRow) else row.note_id

    def is_header(self, row: Row) -> bool:
        return isinstance(row, FileRow)

    def header_text(self, row: Row) -> Text:
        return file_header(row) if isinstance(row, FileRow) else Text("")

    def cells(self, row: Row) -> Sequence[Text]:
        if isinstance(row, FileRow):
            return [Text(""), Text(""), file_header(row)]
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
        if isinstance(row, FileRow):
            return None
        dim = isinstance(row, ShadowRow) or action_of(row) in ("same", "drop")
        return "virtual-table--dim" if dim else None


ENTRY_COLUMNS = (
    Column("Action", 6, priority=5),
    Column("Section", 14, priority=1),
    Column("Title", 0, flexible=True, min_width=12),
)


def diff_text(diff: str) -> list[Text | Marked]:
    """The diff's lines, each added, removed or kept line wrapped under its text with its
    marker on every row; the file names and hunk heads as they are."""
    styles = {"+": "green", "-": "red", " ": ""}
    parts: list[Text | Marked] = []
    marked: list[tuple[Text, Text]] = []
    lines = diff.splitlines()
    for raw in lines[:MAX_DIFF_LINES]:
        if raw[:1] in styles and not raw.startswith(("+++", "---")):
            style = styles[raw[:1]]
            marked.append((line(raw[:1], style), line(raw[1:], style)))
            continue
        if marked:
            parts.append(Marked(marked))
            marked = []
        style = "bold" if raw.startswith(("+++", "---")) else "cyan" if raw[:1] == "@" else ""
        parts.append(join(line(raw, style), "\n"))
    if marked:
        parts.append(Marked(marked))
    if len(lines) > MAX_DIFF_LINES:
        parts.append(more_lines(len(lines) - MAX_DIFF_LINES, " (nuggets promote prints them all)"))
    return parts


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


def form_words(plan: PromotionPlan, forms: Sequence[PromotionForm]) -> list[str | Text]:
    """The form the plan writes in, when the memory offers more than one (f changes it)."""
    if len(forms) < 2:
        return []
    label = next((f.label for f in forms if f.key == plan.form), plan.form)
    return [" as ", line(label), " (f: another form)"]


def qualifying_words(plan: PromotionPlan, words: Profile) -> Text:
    """How many notes qualify, by the store's rule."""
    return join(
        f"{counted(plan.qualifying, 'note')} ",
        line(words.promotion_rule.format(threshold=plan.threshold)),
    )


def summary_text(plan: PromotionPlan, words: Profile, forms: Sequence[PromotionForm] = ()) -> Text:
    qualifying = qualifying_words(plan, words)
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
        *form_words(plan, forms),
        "\n",
        *what_it_writes(plan, qualifying, plan),
    )


def what_it_writes(
    plan: PromotionPlan, qualifying: Text, budgeted: PromotionPlan
) -> list[Text | str | tuple[str, str]]:
    """A plan's counts, then what the agent reads of it (`budgeted`'s budgets), what the file
    lost, what is held back or alike, and what it refused or noticed."""
    return [
        (f"{plan.added:,} to add", "green"),
        " · ",
        (f"{plan.updated:,} to update", "yellow"),
        " · ",
        qualifying,
        f", {counted(len(plan.entries), 'entry', 'entries')}. Hand-written lines and other "
        "sections are kept as they are.",
        *budget_summary(budgeted),
        *lost_summary(plan),
        *held_summary(plan),
        *alike_summary(plan),
        *(part for said in [*plan.refused, *plan.notices] for part in ("\n", line(said))),
    ]


def files_summary(
    plans: Sequence[PromotionPlan], words: Profile, forms: Sequence[PromotionForm] = ()
) -> Text:
    """One file's summary, or several files' together: what each writes is in its header, and
    its budget over its diff, unless the agent would not read all of it."""
    if len(plans) == 1:
        return summary_text(plans[0], words, forms)
    plan = shown_as_one(list(plans), Path(common_folder(plans)), plans[0].threshold)
    written = [p for p in plans if not p.refused]
    cut = [b for b in plan.budgets if b.cut_by]
    return join(
        "Promote to ",
        (counted(len(written), "file"), "bold"),
        " under ",
        line(shown_path(plan.path), "bold"),
        ": ",
        *what_it_writes(
            plan, qualifying_words(plan, words), plan.model_copy(update={"budgets": cut})
        ),
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


def topic_files_words(plan: PromotionPlan) -> list[Text]:
    """The files a plan in another form writes beside the file, one per fact."""
    if not plan.topic_files:
        return []
    files = counted(len(plan.topic_files), "file")
    return [
        join(
            "\n\n",
            line(f"{files} written beside it, one per fact (0600)"),
            "; one undo takes them back with the file.",
        )
    ]


def alike_summary(plan: PromotionPlan) -> list[Text | str | tuple[str, str]]:
    head = alike_head(plan.entries)
    if not head:
        return []
    return ["\n", line(f"≈ {head}", "yellow"), ". Select one to see which; space drops it."]


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
            "f",
            "form",
            "Form",
            id="promote.form",
            tooltip="Write the facts in the memory's next form (MEMORY.md entries, or a topic "
            "file per fact), when it offers more than one",
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
        self.plan: PromotionPlan | None = None  # every file's plan shown as one
        self.plans: list[PromotionPlan] = []  # each file's, in the order shown
        self._owner: dict[int, PromotionPlan] = {}  # an entry (by identity) -> its file's plan
        self.allowed: set[str] = set()  # NOTE_ID@HASH of each held-back entry allowed
        self.dropped: set[str] = set()  # note ids of the entries left out
        self._body_of: PromotionPlan | None = None  # the plan whose diff is drawn, once
        self._body: list[Text | Marked] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="promote-head", can_focus=False):
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
                plans = [refused_promotion(self.memory)]
            else:
                allow, drop = set(self.allowed), set(self.dropped)
                # The shown nugget's own file when it has one, else every file `nuggets
                # promote` shows (MicroClaw: the global AGENTS.md and each chat's).
                target = promoter.promotion_file_for(self.nugget)
                plans = (
                    promoter.plan_promotions(allow=allow, graph=self.graph, drop=drop)
                    if target is None
                    else [promoter.plan_promotion(target, allow=allow, graph=self.graph, drop=drop)]
                )
        except NuggetsError as exc:
            to_screen(self, self._failed, "Cannot plan the promotion", str(exc))
            return
        to_screen(self, self._planned, plans)

    def _planned(self, plans: list[PromotionPlan]) -> None:
        self.query_one(Busy).stop()
        self.plans = plans
        self.plan = plan = (
            plans[0]
            if len(plans) == 1
            else shown_as_one(plans, Path(common_folder(plans)), plans[0].threshold)
        )
        self._owner = {id(e): p for p in plans for e in [*p.entries, *p.blocked, *p.dropped]}
        promoter = self.memory.promoter
        forms = promoter.promotion_forms if promoter is not None else ()
        summary = files_summary(plans, self.memory.profile, forms)
        self.query_one("#promote-summary", Static).update(summary)
        table = self.query_one("#entries", VirtualTable)
        if plan.refused and not plan.entries:
            table.empty_text = REFUSED_EMPTY
        current = EntryRows().key(table.current) if table.current is not None else None
        table.set_rows(rows_of_files(plans), keep_key=current)
        self._show_diff(table.current)
        self.refresh_bindings()

    def _plan_of(self, entry: Entry | None) -> PromotionPlan | None:
        """The plan of the entry's file (the first file's when there is no entry)."""
        if entry is not None and id(entry) in self._owner:
            return self._owner[id(entry)]
        return self.plans[0] if self.plans else None

    def _diff_body(self, plan: PromotionPlan | None) -> list[Text | Marked]:
        if plan is None:
            return []
        if not plan.directory_exists or (plan.refused and not plan.diff):
            return [Text("No diff: nothing would be written.", style="dim")]
        if self._body_of is not plan:
            diff = plan.diff.replace(plan.path, shown_path(plan.path))
            self._body_of = plan
            self._body = (
                diff_text(diff)
                if diff
                else [join(line(self._file_name(plan)), " is already up to date.")]
            )
        if len(self.plans) > 1:  # several files: this one's budget over its diff
            budgets = [part for b in plan.budgets for part in (line(budget_words(b)), "\n")]
            return [join(*budgets, "\n"), *self._body]
        return self._body

    @on(VirtualTable.Highlighted, "#entries")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        self._show_diff(event.row)
        if isinstance(event.row, PromotionEntry):  # its lines in the diff, not the file's top
            self.query_one(DiffView).scroll_to_text(line(_needle(event.row)).plain)
        self.refresh_bindings()

    def _show_diff(self, row: Row | None) -> None:
        entry = row.entry if isinstance(row, ShadowRow) else row
        entry = None if isinstance(entry, FileRow) else entry
        plan = self._plan_of(entry)
        held = (
            join(
                past_text(entry, plan),
                alike_text(entry, self._file_name(plan)),
                shadowed_text(entry),
                held_text(entry, self._file_name(plan)),
            )
            if entry is not None
            else Text("")
        )
        self.query_one(DiffView).show_marked([held, *self._diff_body(plan)])

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

    def _to_write(self) -> list[PromotionPlan]:
        return [p for p in self.plans if p.changes_file]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "write":
            if self.memory.promoter is None:  # a store that promotes nothing: no key to write
                return False
            return True if self._to_write() else None
        if action == "form":
            promoter = self.memory.promoter
            return promoter is not None and len(promoter.promotion_forms) > 1
        if action == "allow":
            row = self.query_one("#entries", VirtualTable).current if self.is_mounted else None
            return True if isinstance(row, BlockedEntry | PromotionEntry) else None
        return True

    def action_form(self) -> None:
        """The next of the forms the memory writes; planned again in it."""
        promoter = self.memory.promoter
        if promoter is None or len(promoter.promotion_forms) < 2:
            return
        keys = [form.key for form in promoter.promotion_forms]
        at = keys.index(promoter.promotion_form) if promoter.promotion_form in keys else -1
        promoter.promotion_form = keys[(at + 1) % len(keys)]
        self.replan()

    def action_write(self) -> None:
        plans = self._to_write()
        if not plans:
            return
        if len(plans) == 1:
            plan = plans[0]
            body = join(
                "Write ",
                line(shown_path(plan.path), "bold"),
                "?\n\n",
                f"{counted(plan.added, 'entry', 'entries')} added and {plan.updated:,} updated "
                "in place; every other line of the file stays as it is. The file is replaced "
                "atomically.",
                *topic_files_words(plan),
                *allowed_warning(plan),
            )
            title = str(line(f"Write {self._file_name(plan)}"))
        else:
            files: list[Text | str | tuple[str, str]] = []
            warnings: list[Text | str | tuple[str, str]] = []
            for plan in plans:
                files += [
                    line(shown_path(plan.path), "bold"),
                    f": {counted(plan.added, 'entry', 'entries')} added, "
                    f"{plan.updated:,} updated\n",
                ]
                warnings += allowed_warning(plan)
            body = join(
                f"Write {counted(len(plans), 'file')}?\n\n",
                *files,
                "\nEvery other line of each file stays as it is. Each file is replaced "
                "atomically, as its own run.",
                *warnings,
            )
            title = f"Write {counted(len(plans), 'file')}"
        self.app.push_screen(
            ConfirmScreen(title, body, yes="Write"), if_yes(lambda: self._write(plans))
        )

    @work(thread=True, exclusive=True, group="write", description="_write")
    def _write(self, plans: list[PromotionPlan]) -> None:
        what = self._file_name(plans[0]) if len(plans) == 1 else counted(len(plans), "file")
        to_screen(self, lambda: self.query_one(Busy).start(f"Writing {what}…"))
        promoter = self.memory.promoter
        added, runs = 0, list[str]()
        for plan in plans:
            try:
                if promoter is None:
                    raise refused(self.memory, "promote")
                added += promoter.promote(plan)
            except StalePlanError:
                to_screen(
                    self,
                    self._failed,
                    _not_written(runs),
                    f"{self._file_name(plan)} changed since this promotion was planned; "
                    "planned again — look at the new diff and press a again.",
                )
                to_screen(self, self.replan)
                return
            except NuggetsError as exc:
                to_screen(self, self._failed, _not_written(runs), str(exc))
                to_screen(self, self.replan)
                return
            if promoter.promotion_run is not None:
                runs.append(promoter.promotion_run.run_id)
        where = shown_path(plans[0].path) if len(plans) == 1 else counted(len(plans), "file")
        to_screen(
            self,
            self._written,
            f"Promoted {counted(added, 'new entry', 'new entries')} to {where}.{_undo(runs)}",
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


def _needle(entry: PromotionEntry) -> str:
    """What finds the entry's line in the diff: its bold title, else its text's beginning (a
    short one: a long line is wrapped in the pane)."""
    title = f"**{entry.title}**"
    return title if title in entry.text else entry.text.split("\n")[0][:30]


def _undo(runs: list[str]) -> str:
    """How the runs just written are undone: ctrl+z on the notes takes back the last."""
    if not runs:
        return ""
    if len(runs) == 1:
        return f" (run {runs[0]}; ctrl+z on the notes undoes it)"
    return f" (runs {', '.join(runs)}, one a file; ctrl+z on the notes undoes the last)"


def _not_written(runs: list[str]) -> str:
    """The title of a failed write: nothing, or only the files before it, was written."""
    return "Nothing was written" if not runs else f"Only {counted(len(runs), 'file')} written"
