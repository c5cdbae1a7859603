"""The key footer: one line that shows a screen's keys as far as the terminal allows, and says
when it left some out ("? More keys": the help lists them all), rebuilt only when what it shows
changes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

HELP = "app.help"  # the key that stays, and says "More keys" when the footer left some out
MORE = "More keys"
ALWAYS_FIRST = ("app.quit", HELP)  # after a screen's own `FOOTER_FIRST`: how to leave, and help


@dataclass(frozen=True)
class Key:
    """One key as the footer shows it."""

    key: str
    display: str
    description: str
    action: str
    enabled: bool
    tooltip: str
    binding_id: str

    def width(self, compact: bool) -> int:
        """Columns it takes (Textual's footer keys: padded around the key unless compact)."""
        text = cell_len(self.display) + (cell_len(self.description) + 1 if self.description else 0)
        return text if compact else text + 2


@dataclass(frozen=True)
class Fit:
    """What the footer draws at one width: compact or not, which keys (in the screen's order),
    whether the palette's key is shown, and whether the help key says keys were left out."""

    compact: bool
    keys: tuple[Key, ...]
    palette: bool
    more: bool


def fit_keys(
    width: int,
    keys: Sequence[Key],
    first: Sequence[str] = (),
    palette: Key | None = None,
    note: str = "",
) -> Fit:
    """The keys a footer of `width` columns draws. Every key with the palette's, spaced as
    Textual spaces them, when they fit; else compact; else compact with the keys of least
    rank left out (rank: the ids in `first`, then quit and help, then escape, then the
    screen's order; the palette's key goes first) and the help key saying "More keys"."""
    room = width - (cell_len(note) + 1 if note else 0)
    for compact in (False, True):
        if _needs(keys, compact, palette) <= room:
            return Fit(compact, tuple(keys), palette is not None, False)
    more = [_saying_more(key) for key in keys]
    if palette is not None and _needs(more, True) <= room:
        return Fit(True, tuple(more), False, True)
    order = [*first, *ALWAYS_FIRST]

    def rank(i: int) -> tuple[int, int]:
        if more[i].binding_id in order:
            return 0, order.index(more[i].binding_id)
        return (1 if more[i].key == "escape" else 2), i  # the way back, then the screen's order

    ranked = sorted(range(len(more)), key=rank)
    kept = {i for i in ranked if more[i].binding_id == HELP}
    for i in ranked:
        if _needs([more[k] for k in sorted(kept | {i})], True) <= room:
            kept.add(i)
    return Fit(True, tuple(more[i] for i in sorted(kept)), False, True)


def _saying_more(key: Key) -> Key:
    if key.binding_id != HELP:
        return key
    return Key(key.key, key.display, MORE, key.action, key.enabled, key.tooltip, HELP)


def _needs(keys: Sequence[Key], compact: bool, palette: Key | None = None) -> int:
    """Columns the keys take in a row: a space between them when compact (Textual's margin);
    the palette's key docked right behind a border (and one more column when not compact)."""
    needs = sum(key.width(compact) for key in keys)
    if compact:
        needs += max(len(keys) - 1, 0)
    if palette is not None:
        needs += palette.width(compact) + 2  # its border, and a space or its own padding
    return needs


Shown = tuple[tuple[Key, ...], Key | None, str]


def screen_keys(screen: Screen[object]) -> Shown:
    """What a footer may show: each key the screen shows (once per action, as Textual's footer
    does), the palette's key, and the screen's word on why its keys are dimmed (its
    `footer_note`, our own words)."""
    app = screen.app
    keys: list[Key] = []
    actions: set[str] = set()
    for _node, binding, enabled, tooltip in screen.active_bindings.values():
        if binding.show and binding.action not in actions:
            actions.add(binding.action)
            keys.append(_key(app, binding, enabled, tooltip))
    found = screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
    palette = (
        _key(app, found[1], found[2], found[3])
        if found is not None and app.ENABLE_COMMAND_PALETTE
        else None
    )
    return tuple(keys), palette, str(getattr(screen, "footer_note", ""))


def _key(app: App[object], binding: Binding, enabled: bool, tooltip: str) -> Key:
    return Key(
        binding.key,
        app.get_key_display(binding),
        binding.description,
        binding.action,
        enabled,
        tooltip or binding.tooltip or binding.description,
        binding.id or "",
    )


class Footer(TextualFooter):
    """Textual's footer leaves out nothing: the keys that do not fit run past the terminal's
    edge. This one fits them (`fit_keys`), in the order of importance a screen gives in its
    `FOOTER_FIRST` (binding ids), and says when it left some out.

    Textual's footer also rebuilds all its keys whenever the screen says its bindings may have
    changed: on opening a screen, on every focus change, on every `refresh_bindings`, each a
    frame of its own. This one skips a rebuild that would show the same keys."""

    _shown: Shown | None = None
    _fit: Fit | None = None

    def __init__(self) -> None:
        super().__init__()
        # Textual's footer starts empty and waits for the first "bindings changed" to build its
        # keys: one more rebuild and frame. The screen's bindings are known when it composes.
        self._bindings_ready = True

    def compose(self) -> ComposeResult:
        shown = self._shown = screen_keys(self.screen)
        fit = self._fit = self._fitted(shown)
        self.set_reactive(TextualFooter.compact, fit.compact)
        self.set_class(fit.compact, "-compact")
        if shown[2]:
            yield FooterLabel(shown[2])
        for key in fit.keys:
            yield self._key(key).data_bind(compact=TextualFooter.compact)
        if fit.palette and shown[1] is not None:
            yield self._key(shown[1], "-command-palette")

    def _key(self, key: Key, classes: str = "") -> FooterKey:
        return FooterKey(
            key.key,
            key.display,
            key.description,
            key.action,
            disabled=not key.enabled,
            tooltip=key.tooltip,
            classes=classes,
        )

    def _fitted(self, shown: Shown) -> Fit:
        first = getattr(self.screen, "FOOTER_FIRST", ())
        return fit_keys(self.app.size.width, shown[0], first, shown[1], shown[2])

    async def on_resize(self, event: events.Resize) -> None:
        if self._shown is not None and self._fitted(self._shown) != self._fit:
            await self.recompose()

    def bindings_changed(self, screen: Screen[object]) -> None:
        here = screen.app.app_focus and self.is_attached and screen is self.screen
        if here and screen_keys(screen) == self._shown:
            return
        super().bindings_changed(screen)
