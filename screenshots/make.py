"""Re-create the README's screenshots: each screen of the console on the demo memory.

    pip install -e '.[screenshots]' && python screenshots/make.py [--size 160x48] [--out DIR]

Writes an SVG (Textual's own export) and a PNG (via cairosvg) per screen. The demo memory is
built fresh in a temporary directory and the clock is fixed, so the pictures only change when
the console does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from core.clock import fixed_clock, parse_iso
from core.settings import Settings
from core.stores.claude.demo import materialize_claude_demo
from core.stores.claude.store import ClaudeStore
from core.stores.microclaw.demo import materialize_microclaw_demo
from core.stores.microclaw.store import MicroClawStore
from core.stores.nuggets.demo import materialize_demo
from core.stores.nuggets.store import NuggetsStore
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.purifier.store import PurifierStore
from nuggets_tui.app import NuggetsApp

NOW = parse_iso("2026-11-23T10:00:00Z")
HERE = Path(__file__).resolve().parent
MONO_FONT = "DejaVu Sans Mono"
DEMO_UNDER_HOME = Path(".local/share/nuggets-review/demo")


async def _settle(pilot: Pilot, app: NuggetsApp) -> None:
    for _ in range(3):
        await pilot.pause(0.1)
        await app.workers.wait_for_complete()
    await pilot.pause(0.2)


async def main_screen(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("down", "down", "down")


async def review(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("r")
    await _settle(pilot, app)
    await pilot.press("down", "space", "down", "down", "down", "down")


async def review_grouped(pilot: Pilot, app: NuggetsApp) -> None:
    """The whole graph's plan grouped by nugget, one nugget rejected, the next one shown."""
    await pilot.press("r")
    await _settle(pilot, app)
    await pilot.press("c")
    await _settle(pilot, app)
    await pilot.press("g", "n", "right_square_bracket", "down", "down")


async def history(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("r")
    await _settle(pilot, app)
    await pilot.press("a", "y")
    await _settle(pilot, app)
    await pilot.press("l")


async def promote(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("p")


async def graph(pilot: Pilot, app: NuggetsApp) -> None:
    screen = app.screen
    linked = max(screen.shelf.notes, key=lambda n: (not n.get("hidden"), len(n["links"])))
    screen.select_note(linked["id"])
    await _settle(pilot, app)
    await pilot.press("g")


async def help_screen(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("question_mark")


async def conflicts(pilot: Pilot, app: NuggetsApp) -> None:
    """The queue on a group of three notes, with what "one stands" would write."""
    await pilot.press("c")
    await _settle(pilot, app)
    await pilot.press(*["down"] * 5, "o")


async def verdicts(pilot: Pilot, app: NuggetsApp) -> None:
    """The notes filtered to one verdict, the selected note's scores explained."""
    await pilot.press("v", "down")
    app.clear_notifications()


Shot = Callable[[Pilot, NuggetsApp], Awaitable[None]]
SHOTS: dict[str, Shot] = {
    "main": main_screen,
    "review": review,
    "review-grouped": review_grouped,
    "history": history,
    "promote": promote,
    "graph": graph,
    "help": help_screen,
    "conflicts": conflicts,
    "verdicts": verdicts,
}


async def microclaw_review(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("r")
    await _settle(pilot, app)
    await pilot.press("down", "down", "down")


async def microclaw_files(pilot: Pilot, app: NuggetsApp) -> None:
    app.screen.show_nugget("telegram:123456789")
    await _settle(pilot, app)
    await pilot.press("f")
    await _settle(pilot, app)
    await pilot.press("down", "down")


# The MicroClaw demo's screens (`nuggets --demo-microclaw`).
MICROCLAW_SHOTS: dict[str, Shot] = {
    "microclaw": main_screen,
    "microclaw-review": microclaw_review,
    "microclaw-files": microclaw_files,
}


async def purifier_main(pilot: Pilot, app: NuggetsApp) -> None:
    app.screen.select_note(PURIFIER_CLAIM)
    await _settle(pilot, app)


async def purifier_source(pilot: Pilot, app: NuggetsApp) -> None:
    await purifier_main(pilot, app)
    await pilot.press("f")


async def purifier_conflicts(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("c")


async def claude_review(pilot: Pilot, app: NuggetsApp) -> None:
    await pilot.press("r")
    await _settle(pilot, app)
    await pilot.press("down")


# The memory-purifier demo's screens (`nuggets --demo-purifier`), a claim marked reviewed.
PURIFIER_CLAIM = "cl-demo000000000003"
PURIFIER_SHOTS: dict[str, Shot] = {
    "purifier": purifier_main,
    "purifier-source": purifier_source,
    "purifier-conflicts": purifier_conflicts,
}
# The Claude Code demo's screens (`nuggets --demo-claude`).
CLAUDE_SHOTS: dict[str, Shot] = {
    "claude": main_screen,
    "claude-review": claude_review,
}


def purifier_app(where: Path) -> NuggetsApp:
    from core.review.marks import mark_notes

    settings = Settings.of(data_dir=where / ".local/share/nuggets-review")  # our marks
    workspace = materialize_purifier_demo(
        where / DEMO_UNDER_HOME.with_name("demo-purifier") / "workspace", NOW
    )
    mark_notes(PurifierStore(workspace, fixed_clock(NOW), settings), [PURIFIER_CLAIM], "reviewed")
    return NuggetsApp(PurifierStore(workspace, fixed_clock(NOW), settings))


def claude_app(where: Path) -> NuggetsApp:
    data = where / "data"  # what the Claude store records
    directory = materialize_claude_demo(
        where / DEMO_UNDER_HOME.with_name("demo-claude") / "memory", NOW, data_dir=data
    )
    return NuggetsApp(ClaudeStore(directory, fixed_clock(NOW), settings=Settings.of(data_dir=data)))


def microclaw_app(where: Path) -> NuggetsApp:
    data_dir = materialize_microclaw_demo(where / DEMO_UNDER_HOME.with_name("demo-microclaw"), NOW)
    return NuggetsApp(MicroClawStore(data_dir, fixed_clock(NOW)))


def nuggets_app(where: Path) -> NuggetsApp:
    home = materialize_demo(where / DEMO_UNDER_HOME)
    return NuggetsApp(NuggetsStore(home, fixed_clock(NOW), memory_md=home / "memory" / "MEMORY.md"))


# Each demo's app and its screens, by name.
DEMOS: list[tuple[Callable[[Path], NuggetsApp], dict[str, Shot]]] = [
    (nuggets_app, SHOTS),
    (microclaw_app, MICROCLAW_SHOTS),
    (purifier_app, PURIFIER_SHOTS),
    (claude_app, CLAUDE_SHOTS),
]
EVERY_SHOT = [name for _, shots in DEMOS for name in shots]


def demo_app(where: Path, make: Callable[[Path], NuggetsApp]) -> NuggetsApp:
    """The demo in a throwaway home directory, so paths show as ~/.local/share/…/demo."""
    os.environ["HOME"] = str(where)
    return make(where)  # each sets its own data directory


async def shoot(name: str, size: tuple[int, int], out: Path) -> Path:
    make, shot = next((make, shots[name]) for make, shots in DEMOS if name in shots)
    with tempfile.TemporaryDirectory() as tmp:
        app = demo_app(Path(tmp), make)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot, app)
            await shot(pilot, app)
            await _settle(pilot, app)
            svg = app.export_screenshot(title=f"nuggets — {name}")
    path = out / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path


def to_png(svg: Path) -> Path:
    import cairosvg

    png = svg.with_suffix(".png")
    # The SVG asks for the Fira Code web font; cairo draws with a local monospace font instead.
    text = svg.read_text(encoding="utf-8").replace("Fira Code", MONO_FONT)
    cairosvg.svg2png(bytestring=text.encode("utf-8"), write_to=str(png), output_width=1600)
    return png


def run(size: tuple[int, int], out: Path, names: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        svg = asyncio.run(shoot(name, size, out))
        print(svg, to_png(svg))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="160x48", help="terminal size, COLSxROWS")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("names", nargs="*", default=EVERY_SHOT, help=f"of {', '.join(EVERY_SHOT)}")
    args = parser.parse_args()
    cols, rows = (int(v) for v in args.size.split("x"))
    run((cols, rows), args.out, args.names)
