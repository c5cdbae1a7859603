"""Walk the link graph from a note: its neighbourhood several hops deep (links and backlinks with
their reasons, cycles marked and not followed), the orphans, and the largest connected groups."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static, TabbedContent, TabPane, Tree
from textual.widgets.tree import TreeNode

from core.browse.link_graph import Edge, edges, groups, orphans
from core.browse.shelf import Shelf
from core.contract.profile import NoteColumn
from core.models import RawNote
from core.notes import fields
from core.review.verdicts import Verdict

from ..safe import counted, join, line
from ..widgets.absorbed import absorbed_by
from ..widgets.footer import Footer
from ..widgets.note_table import UNSCORED, NoteTable
from ..widgets.virtual_table import VirtualTable
from .base import ConsoleScreen
from .from_worker import to_screen

AUTO_HOPS = 2
GROUPS_SHOWN = 20
EDGES_SHOWN = 50  # per note or group in the tree: 20k leaves would take seconds to lay out


@dataclass(frozen=True)
class Hop:
    note_id: str
    path: tuple[str, ...]  # the notes from the root to this one, this one included
    via: str = ""  # the direction of the edge we came by: "out" or "in"


class LinkTree(Tree[Hop]):
    """A tree of notes; enter jumps to the highlighted note."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select_cursor",
            "Jump",
            id="graph.jump",
            tooltip="Show the highlighted note on the main screen",
        ),
        Binding(
            "space",
            "toggle_node",
            "Expand",
            id="graph.expand",
            tooltip="Show or hide a note's own links and backlinks",
        ),
        # as in every list and table, and remapped with them
        Binding("j", "cursor_down", show=False, id="list.down"),
        Binding("k", "cursor_up", show=False, id="list.up"),
    ]


def note_label(note: RawNote | None, note_id: str, shelf: Shelf | None = None) -> Text:
    """The note's title, marked `[archived]` (naming the note that absorbed a merged one)."""
    if note is None:
        return join(line(note_id), (" (missing note)", "italic red"))
    title = fields.text(note, "title") or "(untitled)"
    if not fields.hidden(note):
        return line(title)
    winner = fields.merged_into(note)
    if winner is None or shelf is None:
        return join(line(title), (" [archived]", "dim"))
    return join(
        line(title),
        (" [archived, merged into ", "dim"),
        absorbed_by(shelf.graph.get(winner), winner),
        ("]", "dim"),
    )


class GraphScreen(ConsoleScreen[str | None]):
    """Dismissed with the id of the note to jump to, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "n",
            "show('neighbourhood')",
            "Neighbourhood",
            id="graph.neighbourhood",
            tooltip="The selected note's links and backlinks, several hops deep",
        ),
        Binding(
            "o",
            "show('orphans')",
            "Orphans",
            id="graph.orphans",
            tooltip="Notes with no links either way",
        ),
        Binding(
            "c",
            "show('groups')",
            "Groups",
            id="graph.groups",
            tooltip="The largest groups of notes connected by links",
        ),
        Binding("escape", "back", "Back", id="graph.back", tooltip="Back to the notes"),
    ]

    def __init__(
        self,
        shelf: Shelf,
        note_id: str,
        nugget: str | None,
        columns: Sequence[NoteColumn],
        scope: str,
        verdicts: dict[str, Verdict] | None = None,
    ) -> None:
        super().__init__()
        self.columns = columns  # the store's columns of its notes
        self.verdicts = verdicts  # the main screen's, once scored (None: not scored)
        self.scope = scope  # what the orphans and groups cover, in the store's words
        self.shelf = shelf
        self.note_id = note_id
        self.nugget = nugget

    def compose(self) -> ComposeResult:
        root = self.shelf.note(self.note_id)
        yield Static(
            join(
                ("Link graph", "bold"),
                " from ",
                note_label(root, self.note_id, self.shelf),
                " · orphans and groups in ",
                line(self.scope),
            ),
            id="graph-title",
        )
        with TabbedContent(initial="neighbourhood"):
            with TabPane("Neighbourhood", id="neighbourhood"):
                tree = LinkTree(note_label(root, self.note_id, self.shelf), id="hops")
                tree.auto_expand = False
                yield tree
            with TabPane("Orphans", id="orphans"):
                yield NoteTable(self.columns, id="orphan-table", empty_text="Counting…")
            with TabPane("Groups", id="groups"):
                yield LinkTree(Text("Connected groups (counting…)"), id="group-tree")
        yield Footer()

    def on_mount(self) -> None:
        tree: Tree[Hop] = self.query_one("#hops", Tree)
        tree.root.data = Hop(self.note_id, (self.note_id,))
        self._expand(tree.root, hops=AUTO_HOPS)
        tree.focus()
        self._load_lists()

    # -- the neighbourhood --------------------------------------------------------------------

    def _expand(self, node: TreeNode[Hop], hops: int) -> None:
        """Add the node's links and backlinks as children (once), `hops` levels deep."""
        hop = node.data
        if hop is None:  # a leaf (a cycle, a note not found): nothing to follow
            return
        if not node.children:
            onward = self._onward(hop)
            for edge in onward[:EDGES_SHOWN]:
                target = self.shelf.graph.get(edge.note_id)
                arrow = "→ " if edge.direction == "out" else "← "
                label = join(
                    arrow,
                    note_label(target, edge.note_id, self.shelf),
                    "  ",
                    line(edge.reason, "italic dim"),
                )
                if edge.note_id in hop.path:
                    label.append(" ↺ cycle, not followed", style="yellow")
                    node.add_leaf(label)
                elif target is None:
                    node.add_leaf(label)
                else:
                    node.add(
                        label, data=Hop(edge.note_id, (*hop.path, edge.note_id), edge.direction)
                    )
            if len(onward) > EDGES_SHOWN:
                node.add_leaf(
                    Text(
                        f"… {len(onward) - EDGES_SHOWN:,} more links and backlinks not shown",
                        style="dim italic",
                    )
                )
            if not onward and node.is_root:  # else the tree is the note alone, unexplained
                node.add_leaf(
                    Text("No links either way: it is one of the Orphans.", style="dim italic")
                )
        node.expand()
        if hops > 1:
            for child in node.children:
                if child.data is not None:
                    self._expand(child, hops - 1)

    def _onward(self, hop: Hop) -> list[Edge]:
        """The note's edges, less the one we came by (seen from its other end)."""
        found = edges(self.shelf, hop.note_id)
        if len(hop.path) < 2:
            return found
        back = "in" if hop.via == "out" else "out"
        for position, edge in enumerate(found):
            if edge.note_id == hop.path[-2] and edge.direction == back:
                return found[:position] + found[position + 1 :]
        return found

    @on(Tree.NodeExpanded, "#hops")
    def _expanded(self, event: Tree.NodeExpanded[Hop]) -> None:
        if event.node.data is not None and not event.node.children:
            self._expand(event.node, hops=1)

    # -- orphans and groups -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="graph", description="_load_lists")
    def _load_lists(self) -> None:
        lonely = orphans(self.shelf, self.nugget)
        every = groups(self.shelf, self.nugget)
        to_screen(self, self._lists_ready, lonely, every[:GROUPS_SHOWN], len(every))

    def _lists_ready(
        self, lonely: list[RawNote], biggest: list[list[RawNote]], group_count: int
    ) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.get_tab("orphans").label = line(f"Orphans ({len(lonely):,})")
        tabs.get_tab("groups").label = line(f"Groups ({group_count:,})")
        table = self.query_one("#orphan-table", NoteTable)
        table.empty_text = "Every note here has a link."
        # the verdicts the notes already have, or a dash: this screen scores none of its own
        table.show_verdicts(self.verdicts or {}, UNSCORED)
        table.set_rows(lonely)
        table.border_title = f"{counted(len(lonely), 'note')} with no links either way"
        tree: Tree[Hop] = self.query_one("#group-tree", Tree)
        tree.root.set_label(
            Text(
                f"The {len(biggest):,} largest of {group_count:,} connected groups"
                if biggest
                else "Connected groups"
            )
        )
        tree.root.expand()
        for group in biggest:
            titles = ", ".join(fields.text(n, "title") for n in group[:3])
            node = tree.root.add(join((counted(len(group), "note"), "bold"), "  ", line(titles)))
            for note in group[:EDGES_SHOWN]:
                node.add_leaf(note_label(note, note["id"], self.shelf), data=Hop(note["id"], ()))
            if len(group) > EDGES_SHOWN:
                node.add_leaf(
                    Text(f"… {len(group) - EDGES_SHOWN:,} more notes not shown", style="dim italic")
                )
        if not biggest:
            tree.root.add_leaf(Text("No linked notes yet.", style="dim"))

    # -- keys ---------------------------------------------------------------------------------

    @on(Tree.NodeSelected)
    def _node_chosen(self, event: Tree.NodeSelected[Hop]) -> None:
        if event.node.data is not None:
            self.dismiss(event.node.data.note_id)
        else:
            event.node.toggle()

    @on(VirtualTable.Selected, "#orphan-table")
    def _orphan_chosen(self, event: VirtualTable.Selected) -> None:
        self.dismiss(event.row["id"])

    def action_show(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        target = {"neighbourhood": "#hops", "orphans": "#orphan-table", "groups": "#group-tree"}
        self.query_one(target[tab]).focus()

    def action_back(self) -> None:
        self.dismiss(None)
