"""The footer shows a screen's keys as far as the terminal allows and never drops one silently:
what does not fit is behind `? More keys` (the help lists every key). At 140 and 80 columns the
main screen keeps its main keys, the link graph's `g` among them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets._footer import FooterKey

from nuggets_tui.widgets.footer import MORE, Key, fit_keys
from tests.support.console_support import make_app, settle

WIDTHS = [(80, 24), (140, 42)]
SCREENS = ["", "r", "p", "g", "l", "c", "f"]  # the main screen, then each it opens


def drawn_keys(app: Any) -> dict[str, str]:
    """The footer's keys drawn whole inside the terminal: binding key -> description."""
    drawn = {}
    for key in app.screen.query(FooterKey):
        region = key.region
        if region.width >= key.get_content_width(app.size, app.size) and (
            region.right <= app.size.width
        ):
            drawn[key.key] = key.description
    return drawn


def offered_keys(app: Any) -> set[str]:
    """The keys the screen offers to the footer (one per action, as the footer shows them)."""
    actions, keys = set(), set()
    for key, active in app.screen.active_bindings.items():
        if active.binding.show and active.binding.action not in actions:
            actions.add(active.binding.action)
            keys.add(key)
    return keys


@pytest.mark.parametrize("size", WIDTHS)
@pytest.mark.parametrize("keys", SCREENS)
async def test_every_key_is_drawn_or_the_footer_says_more_keys(
    home: Path, size: tuple[int, int], keys: str
) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        if keys:
            await pilot.press(keys)
            await settle(pilot, app)
        drawn = drawn_keys(app)
        assert len(drawn) == len(app.screen.query(FooterKey)), "a key is cut at the edge"
        left_out = offered_keys(app) - set(drawn)
        assert not left_out or drawn.get("question_mark") == MORE, left_out


@pytest.mark.parametrize("size", WIDTHS)
async def test_the_main_screen_keeps_its_main_keys_at_140_and_80_columns(
    home: Path, size: tuple[int, int]
) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        drawn = drawn_keys(app)
        assert {"r", "ctrl+z", "g", "p", "c", "l", "q", "question_mark"} <= set(drawn)
        if size[0] >= 140:  # every key of the screen; the palette's behind `?`
            assert {"slash", "s", "h", "u", "x", "f", "v"} <= set(drawn)


async def test_the_reviews_keys_show_or_the_footer_says_more_keys(home: Path) -> None:
    """`] [ + - s R N` were left out of the review's footer without a word."""
    app = make_app(home)
    async with app.run_test(size=(140, 42)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        drawn = drawn_keys(app)
        review_keys = {"right_square_bracket", "left_square_bracket", "plus", "minus"}
        review_keys |= {"s", "R", "N", "space", "a"}
        assert {"space", "a", "right_square_bracket", "left_square_bracket"} <= set(drawn)
        assert review_keys <= set(drawn) or drawn["question_mark"] == MORE
        await pilot.resize_terminal(240, 42)
        await settle(pilot, app)
        assert review_keys <= set(drawn_keys(app))  # with room, all of them


def _key(key: str, description: str, binding_id: str = "") -> Key:
    return Key(key, key, description, key, True, description, binding_id or key)


KEYS = [
    _key("r", "Review"),
    _key("g", "Graph", "graph"),
    _key("s", "Sort"),
    _key("q", "Quit", "app.quit"),
    _key("?", "Help", "app.help"),
]
PALETTE = _key("^p", "palette")


def test_a_footer_with_room_shows_every_key_and_the_palette() -> None:
    fit = fit_keys(200, KEYS, palette=PALETTE)
    assert not fit.compact and fit.palette and not fit.more
    assert [k.description for k in fit.keys] == ["Review", "Graph", "Sort", "Quit", "Help"]


def test_a_narrow_footer_keeps_the_first_keys_and_says_more_keys() -> None:
    # "r Review g Graph q Quit ? More keys": 36 columns; "s Sort" does not fit beside them
    fit = fit_keys(38, KEYS, first=["graph"], palette=PALETTE)
    assert fit.compact and not fit.palette and fit.more
    assert [k.description for k in fit.keys] == ["Review", "Graph", "Quit", MORE]
    fit = fit_keys(30, KEYS, first=["graph"], palette=PALETTE)
    assert [k.description for k in fit.keys] == ["Graph", "Quit", MORE]


def test_a_footer_without_the_palettes_room_says_more_keys() -> None:
    width = len("r Review g Graph s Sort q Quit ? More keys")
    fit = fit_keys(width, KEYS, palette=PALETTE)
    assert fit.compact and not fit.palette and fit.more and len(fit.keys) == len(KEYS)
    assert len(fit_keys(width, KEYS, note="still reading…").keys) < len(KEYS)  # its room
