"""The memory files a system keeps beside a nugget's notes (MEMORY.md and fact files; AGENTS.md
and USER.md), shown read-only: what else the agent reads with its notes. When the selected note
names its sources (core/browse/sources.py), they come first, each opened at its lines."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.browse.sources import SourceSpan, SpanText, note_sources, read_span
from core.contract.store import Store
from core.models import RawNote
from core.safeio.shown_text import ShownFile, read_shown

from ..safe import block, counted, join, line, shown_path
from ..widgets.diff_view import DiffView
from ..widgets.footer import Footer
from .base import ConsoleScreen
from .from_worker import to_screen


def file_text(shown: ShownFile) -> Text:
    head = join(line(shown_path(shown.path), "bold"), "\n")
    if shown.text is None:
        return join(head, line(f"Not shown: {shown.problem}.", "dim italic"))
    if not shown.text:
        return join(head, ("The file is empty.", "dim italic"))
    return join(
        head, ("Read-only: the console never writes this file here.\n\n", "dim"), block(shown.text)
    )


def span_text(shown: SpanText) -> Text:
    """A note's source at its lines: numbered, the span's own lines marked."""
    head = join(line(shown.span.label, "bold"), ("  the note's source", "dim"), "\n")
    if shown.problem is not None:
        return join(head, line(f"Not shown: {shown.problem}.", "dim italic"))
    width = len(str(shown.lines[-1][0])) if shown.lines else 1
    parts: list[Text | str | tuple[str, str]] = [
        head,
        (f"Read-only · {shown.total:,} lines\n\n", "dim"),
    ]
    for number, text, inside in shown.lines:
        parts += [
            ("▶ " if inside else "  ", "bold green"),
            (f"{number:>{width}}  ", "dim"),
            line(text, "bold" if inside else ""),
            "\n",
        ]
    return join(*parts)


class FilesScreen(ConsoleScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="files.back", tooltip="Back to the notes"),
    ]

    def __init__(self, memory: Store, nugget: str | None, note: RawNote | None = None) -> None:
        """`note`: the selected note, whose sources are listed first."""
        super().__init__()
        self.memory = memory
        self.nugget = nugget
        self.sources: list[SourceSpan] = note_sources(note, memory.home) if note is not None else []
        self.paths: list[Path] = []

    def compose(self) -> ComposeResult:
        group = self.memory.profile.group  # a nugget, a MicroClaw scope, a Claude Code type
        scope = (
            join(" beside ", line(self.nugget)) if self.nugget else join(" of every ", line(group))
        )
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
        to_screen(self, self._listed, paths, [p.exists() for p in paths])

    def _listed(self, paths: list[Path], present: list[bool]) -> None:
        self.paths = paths
        options = self.query_one("#files", OptionList)
        options.clear_options()
        options.add_options(Option(join(line(s.label), (" source", "dim"))) for s in self.sources)
        options.add_options(
            Option(
                line(self._short(p))
                if here
                else join(line(self._short(p), "dim"), (" (absent)", "dim italic"))
            )
            for p, here in zip(paths, present, strict=True)
        )
        options.border_title = counted(len(paths) + len(self.sources), "file")
        if paths or self.sources:
            options.highlighted = 0
        else:
            self.query_one("#file-text", DiffView).show(
                Text("This memory keeps no files beside these notes.")
            )

    def _short(self, path: Path) -> str:
        """A path inside the memory's directory without it (the title bar shows it)."""
        try:
            return str(path.relative_to(self.memory.home))
        except ValueError:
            return shown_path(path)

    @on(OptionList.OptionHighlighted, "#files")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if 0 <= index < len(self.sources):
            self._read_span(self.sources[index])
        elif 0 <= index - len(self.sources) < len(self.paths):
            self._read(self.paths[index - len(self.sources)])

    @work(thread=True, exclusive=True, group="file", description="_read_span")
    def _read_span(self, span: SourceSpan) -> None:
        shown = read_span(span, self.memory.home)
        to_screen(self, lambda: self.query_one("#file-text", DiffView).show(span_text(shown)))

    @work(thread=True, exclusive=True, group="file", description="_read")
    def _read(self, path: Path) -> None:
        shown = read_shown(path)
        to_screen(self, lambda: self.query_one("#file-text", DiffView).show(file_text(shown)))

    def action_back(self) -> None:
        self.dismiss(None)
