"""A worker's result reaches its screen only while that screen is shown
(nuggets_tui/screens/from_worker.py): a read or a write that ends after the person left the
screen, or closed the console, is dropped instead of landing on widgets that are gone."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.screen import Screen

from nuggets_tui.screens.from_worker import to_screen


async def test_a_result_lands_while_its_screen_is_shown_and_is_dropped_after() -> None:
    app: App[None] = App()
    landed: list[str] = []
    async with app.run_test() as pilot:
        screen: Screen[None] = Screen()
        await app.push_screen(screen)
        await asyncio.to_thread(to_screen, screen, landed.append, "while shown")
        assert landed == ["while shown"]
        app.pop_screen()
        await pilot.pause()
        assert not screen.is_attached
        await asyncio.to_thread(to_screen, screen, landed.append, "after it went")
        await pilot.pause()
    assert landed == ["while shown"]


async def test_a_result_after_the_console_closed_is_dropped_without_an_error() -> None:
    app: App[None] = App()
    landed: list[str] = []
    async with app.run_test():
        screen: Screen[None] = Screen()
        await app.push_screen(screen)
    await asyncio.to_thread(to_screen, screen, landed.append, "too late")
    assert landed == []


async def test_a_result_arriving_between_the_pop_and_the_removal_is_dropped() -> None:
    """Textual pops a screen from the stack at once and removes its widgets a moment later; a
    result landing in between found half its widgets gone (`NoMatches '#promote-summary'` when
    a burst of keys closed the promotion screen while it was planning)."""
    app: App[None] = App()
    landed: list[str] = []
    async with app.run_test() as pilot:
        screen: Screen[None] = Screen()
        await app.push_screen(screen)
        app.pop_screen()  # not awaited: the removal has not run yet
        assert screen.is_attached
        await asyncio.to_thread(to_screen, screen, landed.append, "between")
        await pilot.pause()
    assert landed == []
