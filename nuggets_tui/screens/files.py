"""The memory files a system keeps beside a nugget's notes (MEMORY.md and fact files; AGENTS.md
and USER.md), shown read-only: what else the agent reads with its notes."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core import Store
from core.safeio.shown_text import ShownFile, read_shown

from ..safe import block, counted, join, line, shown_path
from ..widgets.diff_view import DiffView
from ..widgets.footer import Footer


def file_text(shown: ShownFile) -> Text:
    head = join(line(shown_path(shown.path), "bold"), "\n")
    if shown.text is None:
        return join(head, line(f"Not shown: {shown.problem}.", "dim italic"))
    if not shown.text:
        return join(head, ("The file is empty.", "dim italic"))
    return join(head, ("Read-only: the console never writes this file here.\n\n", "dim"),
                block(shown.text))


class FilesScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="files.back", tooltip="Back to the notes"),
    ]

    def __init__(self, memory: Store, nugget: str | None) -> None:
        super().__init__()
        self.memory = memory
        self.nugget = nugget
        self.paths: list[Path] = []

    def compose(self) -> ComposeResult:
        scope = join(" beside ", line(self.nugget)) if self.nugget else " of every nugget"
        yield Static(join(("Memory files", "bold"), scope, " · read-only"), id="files-title")
        with Horizontal():
            yield OptionList(id="files")
            yield DiffView(id="file-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#files").focus()
        self._list()

    @work(thread=True, exclusive=True, group="files", description="_list")
    def _list(self) -> None:
        paths = self.memory.scope_files(self.nugget)
        self.app.call_from_thread(self._listed, paths, [p.exists() for p in paths])

    def _listed(self, paths: list[Path], present: list[bool]) -> None:
        self.paths = paths
        options = self.query_one("#files", OptionList)
        options.clear_options()
        options.add_options(
            Option(line(self._short(p)) if here else join(line(self._short(p), "dim"),
                                                           (" (absent)", "dim italic")))
            for p, here in zip(paths, present, strict=True))
        options.border_title = counted(len(paths), "file")
        if paths:
            options.highlighted = 0
        else:
            self.query_one("#file-text", DiffView).show(
                Text("This memory keeps no files beside these notes."))

    def _short(self, path: Path) -> str:
        """A path inside the memory's directory without it (the title bar shows it)."""
        try:
            return str(path.relative_to(self.memory.home))
        except ValueError:
            return shown_path(path)

    @on(OptionList.OptionHighlighted, "#files")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if 0 <= event.option_index < len(self.paths):
            self._read(self.paths[event.option_index])

    @work(thread=True, exclusive=True, group="file", description="_read")
    def _read(self, path: Path) -> None:
        shown = read_shown(path)
        self.app.call_from_thread(self.query_one("#file-text", DiffView).show, file_text(shown))

    def action_back(self) -> None:
        self.dismiss(None)
