"""The contradiction queue: notes of one topic that say different things
(core/review/contradictions.py), and apart from them, after them, the duplicate sets (notes of
one topic that all state the same, offered to merge), one group at a time, stacked with their
dates, hits, source, confidence and verdict. The operator
decides per group: one stands (the others archived with a link to it), merge into it, or both
stand (remembered until a note changes). A decision is a plan: its diff first, applied after a
confirmation, journaled, undone with ctrl+z on the notes or from the run history."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from core.contract.store import Store
from core.errors import NuggetsError, StalePlanError
from core.models import Plan, RawNote
from core.notes import fields
from core.notes.snapshot import Graph
from core.review.contradictions import Group
from core.review.decisions import How
from core.review.service import ReviewService
from core.review.verdicts import Verdict

from ..foretold import afterwards, archived_by, foretold
from ..safe import block, counted, every, join, line, notify, shown_path
from ..widgets.busy import Busy
from ..widgets.diff_view import DiffView, heading, note_diff_text
from ..widgets.footer import Footer
from ..widgets.hanging import hang_here
from ..widgets.verdict_text import verdict_line
from ..widgets.virtual_table import Column, RowRenderer, VirtualTable
from .base import ConsoleScreen
from .confirm import ConfirmScreen, if_yes
from .from_worker import to_screen

Undo = Callable[[Callable[[], None]], None]  # undo the last run, then call back

NOTES_SHOWN = 50  # of one group's notes, and of a decision's diffs: a topic may hold thousands
NO_GROUPS = "No contradictions: no two notes of one topic disagree or repeat each other."
HOW_WORDS = {
    "keep": "stands; the others are archived with a link to it",
    "merge": "absorbs the others (the reflection merge); they are archived",
}


@dataclass
class Found:
    graph: Graph
    groups: list[Group]
    notes: dict[str, RawNote]  # the groups' notes by id


@dataclass(frozen=True)
class Decision:
    group: Group
    keep: str
    how: How
    plan: Plan
    told: tuple[str, ...] = ()  # what the memory's own program will do after it


class GroupRows(RowRenderer[Group]):
    def key(self, row: Group) -> str:
        return row.id

    def cells(self, row: Group) -> Sequence[Text]:
        kind = (
            Text("old", style="dim")
            if row.outdated
            else Text("same", style="dim")
            if row.duplicate
            else Text("differ", style="yellow")
        )
        return [Text(f"{len(row.note_ids)}"), kind, line(row.topic), line(row.nugget, "dim")]


def group_columns(group: str) -> tuple[Column, ...]:
    """The queue's columns; `group`: what the store calls a group of its notes (a nugget, a
    MicroClaw scope, a Claude Code type)."""
    return (
        Column("Notes", 5, priority=5, right=True),
        Column("Says", 6, priority=3),
        Column("Topic", 0, flexible=True, min_width=14),
        Column(group.capitalize(), 10, priority=1),
    )


def default_keep(group: Group, notes: dict[str, RawNote]) -> str:
    """The note offered to stand first: the most recently updated (promotion's choice too)."""
    return max(group.note_ids, key=lambda i: fields.updated_at(notes[i]))


CURSOR = "› "  # the note the cursor is on (space picks it)
NOTE_INDENT = "   "  # a note's lines under its heading: dates, verdict, text


def note_text(
    note: RawNote,
    number: int,
    chosen: bool,
    verdict: Verdict | None,
    scoring: bool,
    under_cursor: bool = False,
) -> Text:
    """One note of a group: which one it is, its dates, hits, source, confidence, verdict,
    and its text."""
    mark = ("▶ stands if you decide " if chosen else "  ", "bold green" if chosen else "")
    updated, created = fields.updated_at(note)[:10] or "never", fields.text(note, "createdAt")
    parts: list[Text | str | tuple[str, str]] = [
        (CURSOR, "bold reverse") if under_cursor else "  ",
        mark,
        (f"{number}. ", "bold"),
        hang_here(heading(note)),
        *((("  marked ", "dim"), line(note["mark"], "bold")) if note.get("mark") else ()),
        "\n",
        ("   updated ", "dim"),
        line(updated),
        ("  created ", "dim"),
        line(created[:10] or "-"),
        ("  hits ", "dim"),
        line(fields.hits(note)),
        ("  source ", "dim"),
        line(fields.meta(note, "source") or "-"),
        ("  confidence ", "dim"),
        line(note.get("confidence", "-")),
        "\n   ",
    ]
    if verdict is not None:
        parts.append(verdict_line(verdict))
    else:
        parts.append(("verdict: scoring…" if scoring else "verdict: -", "dim"))
    content = fields.text(note, "content")
    parts += [
        "\n",
        indented(block(content) if content.strip() else Text("(no content)", style="dim")),
        "\n\n",
    ]
    return join(*parts)


def indented(text: Text) -> Text:
    """Every line of the text set in under its note's heading."""
    rows = text.split("\n", allow_blank=True)
    for row in rows:
        row.pad_left(len(NOTE_INDENT))
    return Text("\n").join(rows)


def shown_order(group: Group) -> list[str]:
    """The notes as the pane stacks them: position by position, each in file order."""
    placed = [i for position in group.positions for i in position]
    return placed + [i for i in group.note_ids if i not in set(placed)]


HEAD = 72  # a position's heading: the start of what its first note says, cut at a word


def position_head(group: Group, notes: dict[str, RawNote], at: int) -> Text:
    """A position's heading: how many notes say it, and what its first note says."""
    position = group.positions[at]
    said = " ".join(fields.text(notes[position[0]], "content").split())
    cut = said if len(said) <= HEAD else said[: HEAD - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return join(
        (f"{counted(len(position), 'note')}: ", "bold"),
        hang_here(line(cut or "(no content)", "bold")),
        "\n",
    )


def group_text(
    group: Group,
    notes: dict[str, RawNote],
    keep: str | None,
    verdicts: dict[str, Verdict] | None,
    can_merge: bool = True,
    cursor: str | None = None,
) -> Text:
    """`keep`: the note picked to stand; None where the store decides nothing (no decider):
    then no note is marked and only `b` is offered."""
    if group.outdated:
        return outdated_text(group, notes, verdicts)
    about = "one title, as promotion writes it" if group.kind == "promotion" else "one topic"
    says = (
        f"{counted(len(group.note_ids), 'note')} that state the same thing ({about}): a "
        "duplicate set to merge.\n"
        if group.duplicate
        else f"{counted(len(group.note_ids), 'note')} in {len(group.positions)} positions "
        f"that disagree ({about}).\n"
    )
    head = join(
        line(group.topic, "bold"),
        "  ",
        line(group.nugget, "dim"),
        "  ",
        line(group.id, "dim"),
        "\n",
        says,
        ("] [", "bold"),
        " move the cursor (",
        ("} {", "bold"),
        " to the next position)",
        _decide_keys(can_merge) if keep is not None else "; ",
        ("b", "bold"),
        " both stand.\n\n",
    )
    order = shown_order(group)
    ids = order[:NOTES_SHOWN]
    ids += [i for i in dict.fromkeys((keep, cursor)) if i is not None and i not in ids]
    shown = set(ids)
    number = {i: n for n, i in enumerate(group.note_ids, start=1)}
    body: list[Text] = []
    for at, position in enumerate(group.positions):
        inside = [i for i in position if i in shown]
        if not inside:
            continue
        body.append(position_head(group, notes, at))
        body += [
            note_text(
                notes[i],
                number[i],
                i == keep,
                (verdicts or {}).get(i),
                verdicts is None,
                i == cursor,
            )
            for i in inside
        ]
    return join(head, *body, *_more(len(group.note_ids) - len(ids)), *_related(group, notes))


def _decide_keys(can_merge: bool) -> Text:
    """The keys that pick a note and decide for it, as the pane names them."""
    return join(
        ", ",
        ("space", "bold"),
        " picks the note under it to stand; then ",
        ("o", "bold"),
        " it stands, ",
        *((("m", "bold"), " merge into it, ") if can_merge else ()),
    )


def _related(group: Group, notes: dict[str, RawNote]) -> list[Text]:
    """The notes of the same topic that disagree with none of the group: shown, not decided."""
    if not group.related:
        return []
    parts: list[Text] = [
        Text(
            f"Related, not contradicting ({counted(len(group.related), 'note')} of the same "
            "topic saying other things):\n",
            style="bold dim",
        )
    ]
    for i in group.related[:NOTES_SHOWN]:
        said = " ".join(fields.text(notes[i], "content").split()) if i in notes else ""
        parts.append(join("  ", line(i, "dim"), "  ", hang_here(line(said[:100])), "\n"))
    return parts + _more(len(group.related) - NOTES_SHOWN)


def outdated_text(
    group: Group, notes: dict[str, RawNote], verdicts: dict[str, Verdict] | None
) -> Text:
    """A contradiction the memory system settled since (one side superseded): each note with
    its status, nothing to decide."""
    head = join(
        line(group.topic, "bold"),
        "  ",
        line(group.nugget, "dim"),
        "  ",
        line(group.id, "dim"),
        "\n",
        ("Outdated", "bold reverse"),
        ": ",
        line(group.outdated),
        ".\nOne side no longer stands: nothing to decide.\n\n",
    )
    ids = group.note_ids[:NOTES_SHOWN]
    body = [
        note_text(notes[i], n, False, (verdicts or {}).get(i), verdicts is None)
        for n, i in enumerate(ids, start=1)
    ]
    return join(head, *body, *_more(len(group.note_ids) - len(ids)))


def _more(count: int) -> list[Text]:
    if count <= 0:
        return []
    return [Text(f"… {count:,} more not shown\n", style="dim italic")]


def named_note(note: RawNote | None, note_id: str) -> list[Text | str]:
    """A note as a confirmation names it: its title in quotes, then its id (the id alone when
    it has no title)."""
    title = fields.text(note, "title") if note else ""
    if not title:
        return ["Note ", line(note_id, "bold")]
    return ["“", line(title, "bold"), "” (", line(note_id), ")"]


def decision_text(decision: Decision, notes: dict[str, RawNote]) -> Text:
    """What applying the decision writes: each note it changes, before → after."""
    keep = notes.get(decision.keep)
    title = fields.text(keep, "title") if keep else ""
    parts: list[Text | str | tuple[str, str]] = [
        ("Decision", "bold reverse"),
        " ",
        line(title or decision.keep, "bold"),
        " (",
        line(decision.keep),
        ") ",
        HOW_WORDS[decision.how],
        ".\n",
        f"Applying writes {counted(len(decision.plan.notes), 'note')}; ",
        ("a", "bold"),
        " applies it after confirming; escape forgets it.\n\n",
    ]
    for diff in decision.plan.notes[:NOTES_SHOWN]:
        parts += [note_diff_text(diff.before, diff.after, heading(diff.before)), "\n"]
    parts += _more(len(decision.plan.notes) - NOTES_SHOWN)
    return join(*parts, ("\n— the group as it stands —\n\n", "dim"))


class ConflictsScreen(ConsoleScreen[bool]):
    """Dismissed with True when a decision was written."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "right_square_bracket",
            "move(1)",
            "Next note",
            id="conflicts.next",
            key_display="]",
            show=False,  # the pane says them: the footer keeps room at 80 columns
            tooltip="Move the cursor to the next note of the group",
        ),
        Binding(
            "left_square_bracket",
            "move(-1)",
            "Previous note",
            id="conflicts.previous",
            key_display="[",
            show=False,
            tooltip="Move the cursor to the previous note of the group",
        ),
        Binding(
            "right_curly_bracket",
            "jump(1)",
            "Next position",
            id="conflicts.next_position",
            key_display="}",
            show=False,  # the pane says them: the footer keeps room at 80 columns
            tooltip="Move the cursor to the first note of the next position (what other notes say)",
        ),
        Binding(
            "left_curly_bracket",
            "jump(-1)",
            "Previous position",
            id="conflicts.previous_position",
            key_display="{",
            show=False,
            tooltip="Move the cursor to the first note of the previous position",
        ),
        Binding(
            "space",
            "pick",
            "Pick note",
            id="conflicts.pick",
            tooltip="Pick the note under the cursor to stand (on the picked note: the next one)",
        ),
        Binding(
            "o",
            "decide('keep')",
            "One stands",
            id="conflicts.keep",
            tooltip="The picked note stands; the others are archived with a link to it "
            "(reason: superseded by it). Shows the diff first",
        ),
        Binding(
            "m",
            "decide('merge')",
            "Merge",
            id="conflicts.merge",
            tooltip="Merge the others into the picked note (the reflection merge). Shows the "
            "diff first",
        ),
        Binding(
            "b",
            "both",
            "Both stand",
            id="conflicts.both",
            tooltip="Every note of the group stands; not asked again until one of them changes",
        ),
        Binding(
            "a",
            "apply",
            "Apply",
            id="conflicts.apply",
            tooltip="Apply the decision shown, after confirming (journaled; ctrl+z on the "
            "notes undoes it)",
        ),
        Binding(
            "ctrl+z",
            "undo",
            "Undo",
            show=False,
            id="conflicts.undo",
            tooltip="Undo the last applied run (a decision written here, say), after "
            "confirming; the queue is looked at again after",
        ),
        Binding(
            "escape",
            "back",
            "Back",
            id="conflicts.back",
            tooltip="Forget the decision shown; else back to the notes",
        ),
    ]
    # The keys a narrow footer keeps first (the rest as room allows; `?` lists them all).
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = (
        "conflicts.pick",
        "conflicts.keep",
        "conflicts.apply",
    )

    def __init__(
        self,
        memory: Store,
        graph: Graph | None = None,
        verdicts: dict[str, Verdict] | None = None,
        undo: Undo | None = None,
    ) -> None:
        """`graph`: the notes as the main screen last read them, when still current;
        `verdicts`: the main screen's, when scored (scored here otherwise); `undo`: the main
        screen's undo of the last run, given what to do once it is done."""
        super().__init__()
        self.memory = memory
        self.service = ReviewService(memory)
        self.undo = undo
        self.graph = graph
        self.verdicts = verdicts
        self.found: Found | None = None
        self.keep: dict[str, str] = {}  # group id -> the note picked to stand
        self.cursor: dict[str, str] = {}  # group id -> the note the cursor is on
        self.decision: Decision | None = None
        self.wrote = False

    def compose(self) -> ComposeResult:
        yield Static(Text("Looking for contradictions…"), id="conflicts-summary")
        with Horizontal():
            # Empty until looked: "no contradictions" is said only once none were found.
            columns = group_columns(self.memory.profile.group)
            yield VirtualTable(columns, GroupRows(), id="groups", empty_text="")
            yield DiffView(hanging=True, id="conflict-pane")
        yield Busy()
        yield Footer()

    def on_mount(self) -> None:
        self.table.focus()
        self.find()

    @property
    def table(self) -> VirtualTable[Group]:
        return self.query_one("#groups", VirtualTable)

    @property
    def group(self) -> Group | None:
        return self.table.current if self.found is not None else None

    # -- finding ------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="find", description="find")
    def find(self, redo: tuple[str, str, How] | None = None) -> None:
        """The open groups, off the event loop (a linear pass, but 100k notes); then the
        verdicts when the main screen had none yet. `redo`: a decision to plan again."""
        call = partial(to_screen, self)
        call(self.query_one(Busy).start, "Looking for contradictions…")
        try:
            graph = self.graph if self.graph is not None else self.memory.read()
            looked = self.service.contradictions(graph)
        except NuggetsError as exc:
            call(self._failed, "Cannot look for contradictions", str(exc))
            return
        groups, by_id = looked.groups, looked.notes
        for message in looked.notices:  # the groups are listed all the same
            call(notify, self, message, title="Note", severity="warning", timeout=12)
        notes = {i: by_id[i] for g in groups for i in (*g.note_ids, *g.related)}
        call(self._found, Found(graph, groups, notes), redo)
        if self.verdicts is None:
            judgement = self.service.verdicts(graph.notes)
            call(self._judged, {v.note_id: v for v in judgement.verdicts})

    def _found(self, found: Found, redo: tuple[str, str, How] | None) -> None:
        if not self.is_attached:
            return  # the operator left while it was looking
        self.query_one(Busy).stop()
        current = self.group.id if self.group is not None else None
        self.found, self.decision, self.graph = found, None, found.graph
        self.table.empty_text = NO_GROUPS
        self.table.set_rows(found.groups, keep_key=current)
        self._summary()
        self._show()
        self.refresh_bindings()
        if redo is not None:
            group = next((g for g in found.groups if g.id == redo[0]), None)
            if group is None or redo[1] not in found.notes:
                notify(
                    self,
                    "That group changed since: decide it again as it reads now.",
                    title="Planned again",
                    timeout=6,
                )
                return
            self.table.select_key(group.id)
            self.keep[group.id] = self.cursor[group.id] = redo[1]
            self._plan(group, redo[1], redo[2])

    def _judged(self, verdicts: dict[str, Verdict]) -> None:
        if not self.is_attached:
            return
        self.verdicts = verdicts
        self._show()

    def _summary(self) -> None:
        if self.found is None:
            return
        outdated = sum(bool(g.outdated) for g in self.found.groups)
        count = len(self.found.groups) - outdated
        duplicates = sum(g.duplicate for g in self.found.groups if not g.outdated)
        text = join(
            ("Contradictions", "bold"),
            f" · {counted(count - duplicates, 'group')} of notes that disagree"
            f" · {counted(duplicates, 'duplicate set')} to merge"
            + (f" · {outdated:,} outdated (old)" if outdated else ""),
            self._ways()
            if count
            else " · groups let stand come back when one of their notes changes.",
        )
        self.query_one("#conflicts-summary", Static).update(text)

    def _ways(self) -> Text:
        """How a group is settled here, with the reason at once for what is not offered."""
        if not self.can_decide:
            return join(
                " · only both stand (b) here, remembered beside the journal; to keep one note: ",
                line(self.memory.profile.refusal),
                ".",
            )
        return join(
            f" · one stands, {'merge, ' if self.can_merge else ''}or both stand; each "
            "decision is a diff first, journaled and undoable."
        )

    # -- the pane -----------------------------------------------------------------------------

    @on(VirtualTable.Highlighted, "#groups")
    def _highlighted(self, event: VirtualTable.Highlighted) -> None:
        if self.decision is not None and (
            event.row is None or event.row.id != self.decision.group.id
        ):
            self.decision = None
        self.refresh_bindings()  # an outdated group has nothing to decide
        self._show()

    def _show(self) -> None:
        group, found, pane = self.group, self.found, self.query_one(DiffView)
        if group is None or found is None:
            pane.show(Text(""))
            return
        keep = self.keep.setdefault(group.id, default_keep(group, found.notes))
        cursor = self.cursor.setdefault(group.id, keep)
        picked = keep if self.can_decide else None
        body = group_text(group, found.notes, picked, self.verdicts, self.can_merge, cursor)
        decision = self.decision
        if decision is not None and decision.group.id == group.id:
            body = join(decision_text(decision, found.notes), body)
        pane.show(body)
        if decision is None and cursor != shown_order(group)[0]:
            pane.scroll_to_text(self._cursor_line(group, found.notes, cursor))

    @staticmethod
    def _cursor_line(group: Group, notes: dict[str, RawNote], cursor: str) -> str:
        """Where the pane scrolls so the cursor, and the pick it makes, stay in sight: the
        heading of its block when it is the block's first note, else its own line."""
        for at, position in enumerate(group.positions):
            if position[0] == cursor:
                return position_head(group, notes, at).plain.rstrip("\n")
        return CURSOR

    # -- deciding -----------------------------------------------------------------------------

    def action_pick(self) -> None:
        """The note under the cursor stands; on the picked note already, the next one in the
        file does (and the cursor goes with it), so space alone still walks the notes in turn."""
        group = self.group
        if group is None:
            return
        ids = group.note_ids  # in turn: in the file's order, as before blocks were shown
        keep = self.keep.get(group.id, ids[0])
        cursor = self.cursor.get(group.id, keep)
        if cursor == keep:
            cursor = ids[(ids.index(keep) + 1) % len(ids)]
        self.keep[group.id] = self.cursor[group.id] = cursor
        self.decision = None
        self.refresh_bindings()
        self._show()

    def action_move(self, step: int) -> None:
        group = self.group
        if group is None:
            return
        ids = shown_order(group)
        at = ids.index(self.cursor.get(group.id) or self.keep.get(group.id, ids[0]))
        self.cursor[group.id] = ids[(at + step) % len(ids)]
        self._show()

    def action_jump(self, step: int) -> None:
        """The cursor to the first note of the next (or previous) position."""
        group = self.group
        if group is None or not group.positions:
            return
        cursor = self.cursor.get(group.id) or self.keep.get(group.id, group.note_ids[0])
        at = next((n for n, p in enumerate(group.positions) if cursor in p), 0)
        self.cursor[group.id] = group.positions[(at + step) % len(group.positions)][0]
        self._show()

    @property
    def can_merge(self) -> bool:
        return self.memory.profile.capabilities.merge

    @property
    def can_decide(self) -> bool:
        """Whether one note can stand for the others here (the store has a decider); else
        only `b`, which writes beside the journal, is offered."""
        return self.memory.decider is not None

    def action_decide(self, how: How) -> None:
        group = self.group
        if group is None or self.found is None:
            return
        self._plan(group, self.keep.get(group.id) or default_keep(group, self.found.notes), how)

    @work(thread=True, exclusive=True, group="plan", description="_plan")
    def _plan(self, group: Group, keep: str, how: How) -> None:
        try:
            plan = self.service.plan_decision(group, keep, how, graph=self.graph)
        except NuggetsError as exc:
            to_screen(self, self._failed, "Cannot plan the decision", str(exc))
            return
        archived = archived_by(plan)
        told = foretold(self.memory, lambda foresight: foresight.archive_outlook(archived))
        to_screen(self, self._planned, Decision(group, keep, how, plan, tuple(told)))

    def _planned(self, decision: Decision) -> None:
        if self.group is None or self.group.id != decision.group.id:
            return  # the operator moved on meanwhile
        self.decision = decision
        self.refresh_bindings()
        self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pick", "decide", "apply") and not self.can_decide:
            return False  # the store decides nothing: no key that can only refuse
        if action == "apply":
            return True if self.decision is not None else None
        if action == "decide" and parameters == ("merge",) and not self.can_merge:
            return False  # the store cannot merge notes: no key that can only refuse
        if action in ("pick", "decide", "both", "move", "jump"):
            group = self.group if self.is_mounted else None
            return True if group is not None and not group.outdated else None
        return True

    def action_apply(self) -> None:
        decision = self.decision
        if decision is None:
            return
        others = len(decision.group.note_ids) - 1
        how = (
            "archives " if decision.how == "keep" else "merges into it and archives "
        ) + f"the other {counted(others, 'note')}"
        notes = self.found.notes if self.found is not None else {}
        body = join(
            *named_note(notes.get(decision.keep), decision.keep),
            " stands; this ",
            how,
            ".\n\n",
            f"It rewrites {counted(len(decision.plan.notes), 'note')} in ",
            line(shown_path(self.memory.graph_path)),
            ", once, atomically, and only if nobody changed it since this plan. Nothing is "
            "deleted: archived notes stay in the file.\n\nIt journals the run under ",
            line(shown_path(self.memory.journal.folder)),
            ", so ctrl+z on the notes (or the run history, l) undoes it.",
            *afterwards(decision.told),
        )
        self.app.push_screen(
            ConfirmScreen("Apply the decision", body, yes="Apply"),
            if_yes(lambda: self._apply(decision)),
        )

    @work(thread=True, exclusive=True, group="write", description="_apply")
    def _apply(self, decision: Decision) -> None:
        call = partial(to_screen, self)
        call(self.query_one(Busy).start, "Applying…")
        try:
            entry = self.memory.apply(decision.plan)
        except StalePlanError:
            call(self._stale, decision)
            return
        except NuggetsError as exc:
            call(self._failed, "Nothing was written", str(exc))
            return
        message = (
            f"Applied as run {entry.run_id}; ctrl+z on the notes undoes it."
            if entry
            else "Nothing to write."
        )
        call(self._written, message, "Applied")

    def _stale(self, decision: Decision) -> None:
        self.query_one(Busy).stop()
        body = join(
            "The ",
            line(self.memory.profile.source_label),
            " changed on disk since this decision "
            "was "
            "planned (the agent or another program wrote it).\n\nNothing was written: a plan is "
            "only ever applied to the file it was made from.\n\nLook for contradictions again "
            "on the current file and plan the same decision?",
        )
        self.graph = self.decision = None
        redo = (decision.group.id, decision.keep, decision.how)

        def answered(yes: bool | None) -> None:
            self.find(redo if yes else None)

        self.app.push_screen(ConfirmScreen("Stale plan", body, yes="Plan again"), answered)

    def action_both(self) -> None:
        group, found = self.group, self.found
        if group is None or found is None:
            return
        self._both_outlook(group, found)

    @work(thread=True, exclusive=True, group="plan", description="_both_outlook")
    def _both_outlook(self, group: Group, found: Found) -> None:
        """What the memory's own program will do to the notes let stand, read aside."""
        told = foretold(self.memory, lambda foresight: foresight.standing_outlook(group.note_ids))
        to_screen(self, self._ask_both, group, found, told)

    def _ask_both(self, group: Group, found: Found, told: list[str]) -> None:
        body = join(
            f"Let {every(len(group.note_ids), 'note')} of “",
            line(group.topic),
            "” stand?\n\nNothing is written to the notes. The group is remembered in ",
            line(shown_path(self.memory.journal.home)),
            " and not asked again until one of its notes changes.",
            *afterwards(told),
        )
        self.app.push_screen(
            ConfirmScreen("Both stand", body, yes="Both stand"),
            if_yes(lambda: self._both(group, found)),
        )

    @work(thread=True, exclusive=True, group="write", description="_both")
    def _both(self, group: Group, found: Found) -> None:
        try:
            self.service.both_stand(group, found.notes)
        except NuggetsError as exc:
            to_screen(self, self._failed, "Nothing was remembered", str(exc))
            return
        except OSError as exc:
            to_screen(
                self,
                self._failed,
                "Nothing was remembered",
                f"cannot write beside the journal: {exc.strerror or exc}",
            )
            return
        to_screen(
            self,
            self._written,
            f"All notes of “{group.topic}” stand; not "
            "asked again until one of them changes (ctrl+z on the notes "
            "undoes it).",
            "Both stand",
            False,
        )

    def _written(self, message: str, title: str, notes_changed: bool = True) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title=title)
        self.wrote = self.wrote or notes_changed
        self.decision = None
        if notes_changed:
            self.graph = None
        self.find()

    def _failed(self, title: str, message: str) -> None:
        self.query_one(Busy).stop()
        notify(self, message, title=title, severity="error", timeout=10)

    def action_undo(self) -> None:
        if self.undo is None:
            notify(
                self,
                "ctrl+z undoes the last run on the notes screen (escape goes there).",
                timeout=4,
            )
            return
        self.undo(self._after_undo)

    def _after_undo(self) -> None:
        self.graph, self.decision = None, None  # the queue as the file is now
        self.find()

    def action_back(self) -> None:
        if self.decision is not None:
            self.decision = None
            self.refresh_bindings()
            self._show()
            return
        self.dismiss(self.wrote)
