"""What the console would write to a terminal for the screen it shows, and the check that none of
an agent's escape or control characters is in it.

The headless driver Pilot runs writes nothing, so the frame is rendered here the way the real
driver renders it: a full compositor update (every screen of the stack that shows, toasts and
modal dialogs included) turned into the exact string of bytes a terminal would receive.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from textual.app import App

from core.safeio.inert_text import hidden_characters

# The only sequences a frame is made of: styles (SGR) and cursor moves. Anything else that starts
# with ESC (an OSC title or clipboard write, a DCS, a hyperlink) can only have come from data.
OUR_SEQUENCES = re.compile(r"\x1b\[[0-9;]*[mH]")
C0_C1 = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Frame:
    data: str  # the bytes written to the terminal, escape sequences and all
    drawn: str  # the text of the cells, without any sequence
    links: int  # cells drawn with a hyperlink style (OSC 8)
    rows: tuple[str, ...]  # the text of each row of cells
    width: int


def frame(app: App[object]) -> Frame:
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    width, height = app.size
    console = Console(
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        width=width,
        height=height,
    )
    data = update.render_segments(console)
    rows = tuple(
        "".join(s.text for strip in chops for s in strip if not s.control)
        for chops in update.strips
    )
    links = len(
        [
            s
            for chops in update.strips
            for strip in chops
            for s in strip
            if s.style is not None and s.style.link
        ]
    )
    return Frame(data, "\n".join(rows), links, rows, width)


def misdrawn_rows(shown: Frame) -> list[str]:
    """Rows whose width is not the sum of their characters' widths: a character there is drawn
    wider or narrower next to its neighbour (a variation selector after an emoji) than alone,
    and terminals disagree on which, so the columns after it shift."""
    return [row for row in shown.rows if sum(map(cell_len, row)) != shown.width]


def leaks(shown: Frame) -> list[str]:
    """What of the frame a terminal would act on, or draw at a width other than counted."""
    found = []
    if shown.links:
        found.append(f"{shown.links} hyperlinked segments")
    found += [f"row drawn at another width: {row!r}" for row in misdrawn_rows(shown)]
    for name, text in (
        ("drawn", shown.drawn),
        ("written", OUR_SEQUENCES.sub("", shown.data).replace("\n", "")),
    ):
        found += [f"{name}: {c!r}" for c in dict.fromkeys(C0_C1.findall(text))]
        found += [f"{name}: {c!r}" for c in hidden_characters(text) if not C0_C1.match(c)]
    return found


def assert_inert(app: App[Any], where: str, expect: str = "␛") -> Frame:
    """No escape or control character of the data in what `app` writes now; `expect` (the
    placeholder of ESC by default) must be on screen, so the data was shown at all."""
    shown = frame(app)
    assert leaks(shown) == [], f"{where}: {leaks(shown)}"
    if expect:
        assert expect in shown.drawn, f"{where}: nothing hostile on screen"
    return shown
