"""The review console: a Textual app over one memory home. Every action goes through `core`; its
keys are remapped by the config file's keymap (nuggets_tui/keys.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rich.console import RenderableType
from textual import events
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen

from core.clock import shown_time
from core.contract.kind import StoreKind
from core.contract.store import Store
from core.plans.session import ReviewSession
from core.safeio.inert_text import one_line
from core.stores.registry import STORE_KINDS

from .commands import NoteCommands
from .keys import shown_keys
from .safe import counted, notify
from .screens.help import HelpScreen
from .screens.main import MainScreen
from .screens.too_small import TooSmallScreen, too_small
from .screens.welcome import WelcomeScreen
from .since import News

REPLACED_COMMANDS = frozenset({"Quit", "Keys"})  # Textual's; the app binds q and ?
NARROW_BELOW = 110  # columns: below it, a screen's list and detail panes stack (app.tcss)


class NuggetsApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "Nuggets review console"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", key_display="?", id="app.help"),
    ]
    COMMANDS = App.COMMANDS | {NoteCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]

    def __init__(
        self,
        memory: Store,
        *,
        demo_offer: bool = False,
        open_demo: Callable[[StoreKind], Store] | None = None,
        demos: Sequence[StoreKind] = STORE_KINDS,
        watch_interval: float = 1.0,
        told: Sequence[str] = (),
        keymap: Mapping[str, str] | None = None,
    ) -> None:
        """`told`: what the command line had to say about the memory, said when it opens;
        `demos`: the systems whose demo is offered when there is no memory (`demo_offer`), the
        one asked for first; `open_demo` opens one."""
        super().__init__()
        self.memory = memory
        self.told = list(told)
        self.demo_offer = demo_offer
        self.open_demo = open_demo
        self.demos = list(demos)
        self.watch_interval = watch_interval
        self.keymap = dict(keymap or {})  # binding id -> keys, from the config file
        self.closing = False  # set by exit(): what a key still asks for is not done
        self.news: News | None = None  # since the last visit, read when the memory opens

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.demo_offer:
            self.push_screen(WelcomeScreen(self.memory.home, self.demos), self._welcome_done)
        else:
            self._open_main()
        self._fit(self.size)

    def _open_main(self) -> None:
        self.news = News.read(self.memory)
        main = MainScreen(self.memory, self.watch_interval, told=self.told)
        self.push_screen(main)
        self.call_later(self._open_waiting, main)

    def _open_waiting(self, main: MainScreen) -> None:
        """Changes `daily --hold` left for a person: the console opens on their review."""
        state = ReviewSession(self.memory).state  # unreadable: none; the review says why
        waiting = state.waiting_count()
        if not waiting or self.screen is not main:
            return
        news = self.news
        if news is None or not (news.shown and news.since.waiting):  # else its header says it
            notify(
                main,
                f"{counted(waiting, 'change')} waiting since {shown_time(state.waiting_since)}: "
                "the daily pass left them for you.",
                title="Waiting for review",
                timeout=8,
            )
        main.action_review()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """Below the smallest supported size, say so instead of a broken layout."""
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small(size) and not showing:
            self.push_screen(TooSmallScreen())
        elif too_small(size) and isinstance(self.screen, TooSmallScreen):
            self.screen.show(size)
        elif showing:
            self.pop_screen()

    def _welcome_done(self, demo: StoreKind | None) -> None:
        if demo is not None and self.open_demo is not None:
            self.memory, self.told = self.open_demo(demo), []
            self._open_main()

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        self.closing = True
        if self.news is not None:  # the visit ends: the next one is told what came after
            self.news.remember()
        super().exit(result, return_code, message)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every key's action, and every command's. Keys read in one burst with the one that
        closes the console (`qs`) or opens a screen (`ra`) do nothing once it closes, or while
        that screen mounts: the screen they would act on has no widgets yet, or never shows."""
        if self.closing or (
            isinstance(default_namespace, Screen) and not default_namespace.is_mounted
        ):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(type(self.screen)))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every key of the current screen, and the app's own, is also a command in the palette
        (ctrl+p), each once: Textual's Quit and Keys give way to our q and ?."""
        for command in super().get_system_commands(screen):
            if command.title not in REPLACED_COMMANDS:
                yield command
        taken = {binding.key for binding in screen.BINDINGS if isinstance(binding, Binding)}
        app_keys = [b for b in self.BINDINGS if isinstance(b, Binding) and b.key not in taken]
        yield from self._key_commands(screen, screen.BINDINGS, screen)
        yield from self._key_commands(self, app_keys, screen)

    def _key_commands(
        self, owner: App[None] | Screen[Any], bindings: Iterable[BindingType], screen: Screen[Any]
    ) -> Iterable[SystemCommand]:
        """A command per binding of `owner` that has a description and is enabled now."""
        for binding in bindings:
            if not isinstance(binding, Binding) or not binding.description:
                continue
            if owner.check_action(binding.action.split("(")[0], ()) is not True:
                continue
            keys = (
                shown_keys(binding, self.keymap)
                if binding.id in self.keymap
                else binding.key_display or binding.key
            )
            yield SystemCommand(
                one_line(f"{binding.description} ({keys})"),
                one_line(binding.tooltip or binding.description),
                lambda action=binding.action: self.run_action(action, owner),
            )


def run_console(
    memory: Store,
    demo_offer: bool = False,
    open_demo: Callable[[StoreKind], Store] | None = None,
    told: Sequence[str] = (),
    keymap: Mapping[str, str] | None = None,
    demos: Sequence[StoreKind] = STORE_KINDS,
) -> int:
    """Run the console until it ends; its exit status: 0 when the operator quit, non-zero when
    it died (Textual has printed the error and sets the app's return code)."""
    app = NuggetsApp(
        memory,
        demo_offer=demo_offer,
        open_demo=open_demo,
        demos=demos,
        told=told,
        keymap=keymap,
    )
    app.run()
    return app.return_code or 0
