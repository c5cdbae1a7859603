"""What shows instead of the console while the terminal is smaller than it can lay out."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.geometry import Size
from textual.widgets import Static

from ..safe import join, line
from .base import ConsoleScreen

SMALLEST = Size(80, 24)  # the smallest terminal every screen is laid out for


def too_small(size: Size) -> bool:
    return size.width < SMALLEST.width or size.height < SMALLEST.height


class TooSmallScreen(ConsoleScreen[None]):
    """On top of whatever screen was showing; it goes as soon as the terminal is large enough,
    and that screen is back as it was. q still quits."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show(self.app.size)

    def show(self, size: Size) -> None:
        self.query_one("#too-small", Static).update(
            join(
                ("Terminal too small", "bold"),
                line(
                    f" (needs {SMALLEST.width}×{SMALLEST.height}, this one is "
                    f"{size.width}×{size.height})."
                ),
                "\nMake the window larger; q quits.",
            )
        )
