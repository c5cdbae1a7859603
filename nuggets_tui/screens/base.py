"""The base of every screen of the console: a screen closes only once it has opened, and only
while it is the one on top.

Textual's `dismiss` pops whatever screen is on top. Keys that arrive in one burst, and workers
that finish late, can ask a screen to close before it has mounted (`a` then `escape`: its
`on_mount` would then find its widgets gone), after it has closed already, or while another
screen is open over it (an apply finishing after `escape`): the wrong screen would be popped,
down to none. Here such a request does nothing, and no result is delivered. (The app drops the
keys that reach a screen still mounting: `NuggetsApp.run_action`.)"""

from __future__ import annotations

from typing import ClassVar

from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import ModalScreen, Screen, ScreenResultType
from textual.widgets import Button

from ..keys import shown_keys
from ..safe import line


def _closes(screen: Screen[ScreenResultType]) -> bool:
    return screen.is_attached and screen.is_mounted and screen.is_active


class ConsoleScreen(Screen[ScreenResultType]):
    """A full screen of the console."""

    def workers_busy(self, group: str) -> bool:
        """Whether a worker of the screen's `group` ("write", "load", …) still runs."""
        return any(w.group == group and w.is_running for w in self.workers)

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


class ConsoleDialog(ConsoleModal[ScreenResultType]):
    """A dialog that asks before anything is done (a confirmation, a choice, a name). One rule
    for every one: escape cancels it, and `n` too where the answer is yes or no (its binding
    `CANCEL`, to `action_cancel`); its last button says so the same way in each,
    "Cancel (escape)", with the keys as the keymap sets them."""

    CANCEL: ClassVar[str]  # the id of its cancel binding

    def cancel_button(self, word: str = "Cancel") -> Button:
        return Button(line(f"{word} ({self.keys_of(self.CANCEL)})"), id="cancel")

    def keys_of(self, binding_id: str) -> str:
        """The keys of one of its bindings, as a person reads them."""
        binding = next(
            b for b in type(self).BINDINGS if isinstance(b, Binding) and b.id == binding_id
        )
        return shown_keys(binding, getattr(self.app, "keymap", None))

    def action_cancel(self) -> None:
        self.dismiss(None)
