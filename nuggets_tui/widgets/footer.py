"""The key footer, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

Shown = tuple[tuple[tuple[str, str, bool, str], ...], str]

NARROW = 100  # columns: below this the footer is compact and leaves out its secondary keys
# (a screen with more keys says from how many columns on it shows them all: its `FULL_FOOTER`)
# Keys left out of a narrow footer (they work as ever; help and README list them). The command
# palette's key goes too. Quit stays: at 80×24 a person must still see how to leave.
SECONDARY = frozenset(
    {"graph", "search", "regroup", "sort", "archive", "files", "verdict_filter", "filter"}
)


def shown_keys(screen: Screen[object]) -> Shown:
    """What a footer shows: each shown key with its description, state and tooltip, and the
    screen's word on why its keys are dimmed (its `footer_note`, our own words)."""
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _node, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    ), str(getattr(screen, "footer_note", ""))


class Footer(TextualFooter):
    """Textual's footer rebuilds all its keys whenever the screen says its bindings may have
    changed: on opening a screen, on every focus change, on every `refresh_bindings`. That is
    three or four rebuilds as a screen opens, each a frame of its own, and a tenth of a second
    before the screen settles. This one skips a rebuild that would show the same keys."""

    _shown: Shown | None = None
    _narrow = False

    def __init__(self) -> None:
        super().__init__()
        # Textual's footer starts empty and waits for the first "bindings changed" to build its
        # keys: one more rebuild and frame. The screen's bindings are known when it composes.
        self._bindings_ready = True

    def compose(self) -> ComposeResult:
        self._shown = shown_keys(self.screen)
        narrow = self._narrow = self._is_narrow()
        self.set_reactive(TextualFooter.compact, narrow)
        self.set_class(narrow, "-compact")
        self.set_reactive(TextualFooter.show_command_palette, not narrow)
        if self._shown[1]:
            yield FooterLabel(self._shown[1])
        for widget in super().compose():
            if not (narrow and isinstance(widget, FooterKey) and widget.action in SECONDARY):
                yield widget

    def _is_narrow(self) -> bool:
        return self.app.size.width < getattr(self.screen, "FULL_FOOTER", NARROW)

    async def on_resize(self, event: events.Resize) -> None:
        if self._is_narrow() != self._narrow:  # compact below the screen's width, full above
            await self.recompose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            keys = shown_keys(screen)
            if keys == self._shown:
                return
            self._shown = keys
        super().bindings_changed(screen)
