"""Handing a worker thread's result back to the screen that started it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from textual.screen import Screen


def to_screen(
    screen: Screen[Any], callback: Callable[..., object], *args: object, **kwargs: object
) -> None:
    """Run `callback(*args, **kwargs)` on the app's thread, unless `screen` has gone by then.

    A worker can outlive its screen: the person closes the app, or leaves the screen, while a
    read or a write is still running. Its result is then dropped instead of landing on widgets
    that are no longer there. What it wrote stays written; the next screen reads the file.
    A screen popped from the stack counts as gone at once: Textual removes its widgets a moment
    after the pop, and a result landing in between would find them half gone."""

    def if_still_shown() -> None:
        app = screen.app
        if screen.is_attached and app.is_running and screen in app.screen_stack:
            callback(*args, **kwargs)

    with suppress(RuntimeError):  # the app has stopped
        screen.app.call_from_thread(if_still_shown)
