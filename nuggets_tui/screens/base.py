"""The base of every screen of the console: a screen closes only once it has opened, and only
while it is the one on top.

Textual's `dismiss` pops whatever screen is on top. Keys that arrive in one burst, and workers
that finish late, can ask a screen to close before it has mounted (`a` then `escape`: its
`on_mount` would then find its widgets gone), after it has closed already, or while another
screen is open over it (an apply finishing after `escape`): the wrong screen would be popped,
down to none. Here such a request does nothing, and no result is delivered. (The app drops the
keys that reach a screen still mounting: `NuggetsApp.run_action`.)"""

from __future__ import annotations

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen, ScreenResultType


def _closes(screen: Screen[ScreenResultType]) -> bool:
    return screen.is_attached and screen.is_mounted and screen.is_active


class ConsoleScreen(Screen[ScreenResultType]):
    """A full screen of the console."""

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        if not _closes(self):
            return AwaitComplete()  # nothing to wait for
        return super().dismiss(result)


class ConsoleModal(ModalScreen[ScreenResultType]):
    """A dialog of the console, over the screen that opened it."""

    def dismiss(self, result: ScreenResultType | None = None) -> AwaitComplete:
        if not _closes(self):
            return AwaitComplete()  # nothing to wait for
        return super().dismiss(result)
