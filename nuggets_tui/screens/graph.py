"""Walk the link graph from a note: its neighbourhood several hops deep (links and backlinks with
their reasons, cycles marked and not followed), the orphans, and the largest connected groups."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane, Tree

from core import fields
from core.linkgraph import edges, groups, orphans
from core.models import RawNote
from core.shelf import Shelf

from ..safe import join, line
from ..widgets.note_table import NoteTable
from ..widgets.virtual_table import VirtualTable

AUTO_HOPS = 2
GROUPS_SHOWN = 20


@dataclass(frozen=True)
class Hop:
    note_id: str
    path: tuple[str, ...]  # the notes from the root to this one, this one included


def note_label(note: RawNote | None, note_id: str) -> Text:
    if note is None:
        return join(line(note_id), (" (missing note)", "italic red"))
    title = fields.text(note, "title") or "(untitled)"
    mark = (" [archived]", "dim") if fields.hidden(note) else ""
    return join(line(title), mark)


class GraphScreen(Screen[str | None]):
    """Dismissed with the id of the note to jump to, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "jump", "Jump to note", id="graph.jump"),
        Binding("space", "expand", "Expand/collapse", id="graph.expand"),
        Binding("n", "show('neighbourhood')", "Neighbourhood", id="graph.neighbourhood"),
        Binding("o", "show('orphans')", "Orphans", id="graph.orphans"),
        Binding("c", "show('groups')", "Groups", id="graph.groups"),
        Binding("escape", "back", "Back", id="graph.back"),
    ]

    def __init__(self, shelf: Shelf, note_id: str, nugget: str | None) -> None:
        super().__init__()
        self.shelf = shelf
        self.note_id = note_id
        self.nugget = nugget

    def compose(self) -> ComposeResult:
        scope = "all nuggets" if self.nugget is None else f"nugget {self.nugget}"
        root = self.shelf.note(self.note_id)
        yield Static(join(("Link graph", "bold"), " from ", note_label(root, self.note_id),
                          " · orphans and groups in ", line(scope)), id="graph-title")
        with TabbedContent(initial="neighbourhood"):
            with TabPane("Neighbourhood", id="neighbourhood"):
                tree: Tree[Hop] = Tree(note_label(root, self.note_id), id="hops")
                tree.auto_expand = False
                yield tree
            with TabPane("Orphans", id="orphans"):
                yield NoteTable(id="orphan-table")
            with TabPane("Groups", id="groups"):
                yield Tree(Text("Connected groups"), id="group-tree")
        yield Footer()

    def on_mount(self) -> None:
        tree: Tree[Hop] = self.query_one("#hops", Tree)
        tree.root.data = Hop(self.note_id, (self.note_id,))
        self._expand(tree.root, hops=AUTO_HOPS)
        tree.focus()
        self._load_lists()

    # -- the neighbourhood --------------------------------------------------------------------

    def _expand(self, node, hops: int) -> None:  # type: ignore[no-untyped-def]
        """Add the node's links and backlinks as children (once), `hops` levels deep."""
        hop: Hop = node.data
        if not node.children:
            for edge in edges(self.shelf, hop.note_id):
                target = self.shelf.graph.get(edge.note_id)
                arrow = "→ " if edge.direction == "out" else "← "
                label = join(arrow, note_label(target, edge.note_id), "  ",
                             line(edge.reason, "italic dim"))
                if edge.note_id in hop.path:
                    label.append(" ↺ cycle, not followed", style="yellow")
                    node.add_leaf(label)
                elif target is None:
                    node.add_leaf(label)
                else:
                    node.add(label, data=Hop(edge.note_id, (*hop.path, edge.note_id)))
        node.expand()
        if hops > 1:
            for child in node.children:
                if child.data is not None:
                    self._expand(child, hops - 1)

    @on(Tree.NodeExpanded, "#hops")
    def _expanded(self, event: Tree.NodeExpanded[Hop]) -> None:
        if event.node.data is not None and not event.node.children:
            self._expand(event.node, hops=1)

    # -- orphans and groups -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="graph")
    def _load_lists(self) -> None:
        lonely = orphans(self.shelf, self.nugget)
        biggest = groups(self.shelf, self.nugget)[:GROUPS_SHOWN]
        self.app.call_from_thread(self._lists_ready, lonely, biggest)

    def _lists_ready(self, lonely: list[RawNote], biggest: list[list[RawNote]]) -> None:
        table = self.query_one("#orphan-table", NoteTable)
        table.set_rows(lonely)
        table.border_title = f"{len(lonely)} notes with no links either way"
        tree: Tree[Hop] = self.query_one("#group-tree", Tree)
        tree.root.expand()
        for group in biggest:
            titles = ", ".join(fields.text(n, "title") for n in group[:3])
            node = tree.root.add(join((f"{len(group)} notes", "bold"), "  ", line(titles)))
            for note in group:
                node.add_leaf(note_label(note, note["id"]), data=Hop(note["id"], ()))
        if not biggest:
            tree.root.add_leaf(Text("No linked notes yet.", style="dim"))

    # -- keys ---------------------------------------------------------------------------------

    def _focused_note(self) -> str | None:
        focused = self.focused
        if isinstance(focused, Tree):
            node = focused.cursor_node
            return node.data.note_id if node is not None and node.data is not None else None
        if isinstance(focused, VirtualTable) and focused.current is not None:
            return focused.current["id"]
        return None

    def action_jump(self) -> None:
        note_id = self._focused_note()
        if note_id is not None:
            self.dismiss(note_id)

    @on(Tree.NodeSelected)
    def _node_chosen(self, event: Tree.NodeSelected[Hop]) -> None:
        if event.node.data is not None:
            self.dismiss(event.node.data.note_id)
        else:
            event.node.toggle()

    @on(VirtualTable.Selected, "#orphan-table")
    def _orphan_chosen(self, event: VirtualTable.Selected) -> None:
        self.dismiss(event.row["id"])

    def action_expand(self) -> None:
        focused = self.focused
        if isinstance(focused, Tree) and focused.cursor_node is not None:
            focused.cursor_node.toggle()

    def action_show(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        target = {"neighbourhood": "#hops", "orphans": "#orphan-table", "groups": "#group-tree"}
        self.query_one(target[tab]).focus()

    def action_back(self) -> None:
        self.dismiss(None)
