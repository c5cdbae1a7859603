"""The versions a store keeps of one note between reviews (its `versions` part,
docs/STORES.md), read-only: each with when it was first seen, its size and the start of its
hash; the highlighted one shown as its text or, with d, as its diff against the note now.
Browsing asks the store only for what it kept: nothing is read from the memory, nothing written."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.clock import shown_time
from core.contract.parts import KeptVersion, VersionKeeper
from core.models import RawNote
from core.notes import fields
from core.notes.diff import content_lines

from ..safe import block, counted, join, line
from ..widgets.diff_view import DiffView, diff_lines
from ..widgets.footer import Footer
from .base import ConsoleScreen
from .from_worker import to_screen

HASH_SHOWN = 12  # characters of a version's sha256, as `nuggets log` shows them


def version_label(version: KeptVersion) -> Text:
    size = "copy missing" if version.size is None else counted(version.size, "byte")
    return join(
        line(shown_time(version.at)),
        "  ",
        line(size.rjust(12)),
        "  ",
        line(version.digest[:HASH_SHOWN], "dim"),
    )


def version_view(
    version: KeptVersion, text: str | None, now: str, archived: bool, diff: bool
) -> Text:
    """One kept version: its text, or its diff against the note now (`now`; `archived`: the
    note is archived, and `now` is the last text seen of it)."""
    head = join(
        line(f"First seen {shown_time(version.at)}", "bold"),
        "  ",
        line(f"sha256 {version.digest[:HASH_SHOWN]}", "dim"),
        "\n",
    )
    if text is None:
        return join(head, ("Not shown: its kept copy is missing or damaged.", "dim italic"))
    if not diff:
        return join(
            head,
            ("Read-only · d shows its diff against the note now\n\n", "dim"),
            block(text) if text else Text("(empty)", style="dim italic"),
        )
    against = "its last text seen (the note is archived)" if archived else "the note now"
    changes = content_lines(text, now)
    if not changes:
        return join(head, line(f"The same as {against}.", "dim italic"))
    return join(
        head,
        line(f"- this version  + {against} · d shows its text", "dim"),
        "\n",
        *diff_lines(changes),
    )


class VersionsScreen(ConsoleScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "d",
            "toggle_diff",
            "Diff / text",
            id="versions.diff",
            tooltip="Show the highlighted version's diff against the note now, or its text",
        ),
        Binding("escape", "back", "Back", id="versions.back", tooltip="Back to the notes"),
    ]
    DEFAULT_CSS = """
    VersionsScreen #versions { height: auto; max-height: 40%; border-bottom: hkey $primary 50%; }
    VersionsScreen #version-text { height: 1fr; padding: 0 1; }
    VersionsScreen #versions-title { height: auto; padding: 0 1; background: $boost; }
    """

    def __init__(self, keeper: VersionKeeper, note: RawNote) -> None:
        super().__init__()
        self.keeper = keeper
        self.note = note
        self.versions: list[KeptVersion] = []
        self.diff = False

    def compose(self) -> ComposeResult:
        title = fields.text(self.note, "title") or self.note["id"]
        yield Static(
            join(
                ("Kept versions", "bold"),
                " of ",
                line(title, "bold"),
                "  ",
                line(self.note["id"], "dim"),
                (" · read-only", "dim"),
            ),
            id="versions-title",
        )
        yield OptionList(id="versions")
        yield DiffView(id="version-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#versions").focus()
        self._list()

    @work(thread=True, exclusive=True, group="versions", description="_list")
    def _list(self) -> None:
        found = [v for v in self.keeper.kept_versions() if v.note_id == self.note["id"]]
        to_screen(self, self._listed, found)

    def _listed(self, found: list[KeptVersion]) -> None:
        self.versions = found
        options = self.query_one("#versions", OptionList)
        options.clear_options()
        options.add_options(Option(version_label(v)) for v in found)
        options.border_title = counted(len(found), "version")
        if found:
            options.highlighted = len(found) - 1  # the newest
        else:
            self.query_one("#version-text", DiffView).show(
                Text("No version of this note is kept yet.", style="dim italic")
            )

    @on(OptionList.OptionHighlighted, "#versions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if 0 <= event.option_index < len(self.versions):
            self._read(self.versions[event.option_index], self.diff)

    @work(thread=True, exclusive=True, group="version", description="_read")
    def _read(self, version: KeptVersion, diff: bool) -> None:
        text = self.keeper.version_text(version)
        shown = version_view(
            version, text, fields.text(self.note, "content"), fields.hidden(self.note), diff
        )
        to_screen(self, lambda: self.query_one("#version-text", DiffView).show(shown))

    def action_toggle_diff(self) -> None:
        self.diff = not self.diff
        index = self.query_one("#versions", OptionList).highlighted
        if index is not None and 0 <= index < len(self.versions):
            self._read(self.versions[index], self.diff)

    def action_back(self) -> None:
        self.dismiss(None)
