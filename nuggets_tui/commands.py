"""Command palette: jump to a nugget or a note from anywhere on the main screen."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from core.notes import fields
from core.safeio.inert_text import one_line

from .words import counted

if TYPE_CHECKING:
    from core.browse.shelf import Shelf

    from .screens.main import MainScreen

MAX_HITS = 30
TITLE_CHARS = 200  # of a title in the palette: its matcher scores every character


class NoteCommands(Provider):
    """Search notes by title and nuggets by name (main screen only)."""

    def _main(self) -> tuple[MainScreen, Shelf] | None:
        """The main screen and its notes, once they are read."""
        from .screens.main import MainScreen

        screen = self.screen
        if isinstance(screen, MainScreen) and screen.shelf is not None:
            return screen, screen.shelf
        return None

    async def discover(self) -> Hits:
        found = self._main()
        if found is None:
            return
        main, shelf = found
        group = one_line(main.memory.profile.group.capitalize())  # "Nugget", "Scope", "Type"
        for summary in shelf.nuggets():
            label = f"{group}: {one_line(summary.name)}"
            yield DiscoveryHit(
                Text(label),
                partial(main.show_nugget, summary.name),
                text=label,
                help=f"{counted(summary.visible, 'note')}, {summary.hidden:,} archived",
            )

    async def search(self, query: str) -> Hits:
        found = self._main()
        if found is None:
            return
        main, shelf = found
        matcher = self.matcher(query)
        group = one_line(main.memory.profile.group.capitalize())
        for summary in shelf.nuggets():
            label = f"{group}: {one_line(summary.name)}"
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, Text(label), partial(main.show_nugget, summary.name), text=label)
        notes = shelf.list_notes(include_hidden=True, query=query)
        for note in notes[:MAX_HITS]:
            title = one_line((fields.text(note, "title") or note["id"])[:TITLE_CHARS])
            label = f"Note: {title}"
            yield Hit(
                max(matcher.match(label), 0.1),
                Text(label),
                partial(main.select_note, note["id"]),
                text=label,
                help=escape(f"in {one_line(note['nuggetName'])}"),
            )
