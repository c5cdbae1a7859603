"""Every key of the console, per screen, read from the screens' own bindings: the help screen and
README.md's key table both come from here, so they can't drift from what the keys do. A binding's
id is what the config file's `[keymap]` names (core/settings.py): `binding_ids` lists them, and
`checked_keymap` refuses a keymap naming anything else."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Collection, Iterator, Mapping

from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from core.settings import KEYMAP, ConfigFile, ConfigFileError

MOVE = [
    ("↑ ↓ / j k", "move in a list or table", "list.up, list.down"),
    (
        "PgUp PgDn Home End",
        "jump in a list or table",
        "list.page_up, list.page_down, list.first, list.last",
    ),
    ("tab / shift+tab", "move between panes", ""),
    ("ctrl+p", "command palette: every action, jump to a nugget or a note", ""),
]
Keymap = Mapping[str, str]  # binding id -> its keys, "r" or "r,ctrl+r"


def shown_keys(binding: Binding, keymap: Keymap | None = None) -> str:
    """The keys of a binding as a person reads them: the keymap's, when it remaps this one."""
    if keymap and binding.id is not None and binding.id in keymap:
        return _names(keymap[binding.id])
    return binding.key_display or _names(binding.key)


def _names(keys: str) -> str:
    names = {
        "question_mark": "?",
        "slash": "/",
        "space": "space",
        "escape": "escape",
        "ctrl+z": "ctrl+z",
        "plus": "+",
        "minus": "-",
        "enter": "enter",
    }
    return " / ".join(names.get(k.strip(), k.strip()) for k in keys.split(","))


def _rows(
    bindings: list[BindingType], keymap: Keymap | None, hidden: Collection[str] = ()
) -> list[tuple[str, str, str]]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description and binding.id not in hidden:
            rows.append(
                (
                    shown_keys(binding, keymap),
                    binding.tooltip or binding.description,
                    binding.id or "",
                )
            )
    return rows


_NUGGET = re.compile(r"\bnugget\b")


def in_words(text: str, group: str) -> str:
    """A key's text in the open store's words: what it calls a group of its notes (a scope, a
    type, a home) for "nugget"."""
    return _NUGGET.sub(group, text)


def key_sections(
    keymap: Keymap | None = None,
    hidden: Collection[str] = (),
    first: type | None = None,
    group: str = "nugget",
) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each screen's keys (as the keymap sets them), what they do, and their binding ids;
    `hidden`: the binding ids left out (keys the open store does not offer); `first`: the
    screen whose keys come first (the one the person is on), then the rest in their order;
    `group`: the open store's word for a group of its notes."""
    sections = _sections(keymap, hidden)
    # A screen whose key is not offered is not reached: none of its keys either.
    shown = [section for section in sections if section[2] not in hidden]
    if first is not None:
        shown.sort(key=lambda section: first not in section[3])  # a stable sort
    return [
        (title, [(key, in_words(said, group), bid) for key, said, bid in rows])
        for title, rows, _, _ in shown
    ]


def _sections(
    keymap: Keymap | None, hidden: Collection[str]
) -> list[tuple[str, list[tuple[str, str, str]], str, tuple[type, ...]]]:
    """Each section of the keys: its title, its keys, the binding that opens its screen, and
    the screens it is about."""
    from .app import NuggetsApp
    from .screens.conflicts import ConflictsScreen
    from .screens.files import FilesScreen
    from .screens.graph import GraphScreen, LinkTree
    from .screens.history import HistoryScreen
    from .screens.main import MainScreen
    from .screens.promote import PromoteScreen
    from .screens.review import ReviewScreen
    from .screens.rules import RulesScreen
    from .screens.versions import VersionsScreen

    # title, the binding that opens its screen ("": always there), the screen it is about
    # (None: every screen), whose keys it lists
    table: list[tuple[str, str, type | None, tuple[type[DOMNode], ...]]] = [
        ("Everywhere", "", None, (NuggetsApp,)),
        ("Main screen", "", MainScreen, (MainScreen,)),
        ("Review (r)", "main.review", ReviewScreen, (ReviewScreen,)),
        ("Review rules (R in the review)", "review.rules", RulesScreen, (RulesScreen,)),
        ("Promotion (p)", "main.promote", PromoteScreen, (PromoteScreen,)),
        ("Link graph (g)", "main.graph", GraphScreen, (LinkTree, GraphScreen)),
        ("Run history (l)", "main.history", HistoryScreen, (HistoryScreen,)),
        ("Memory files (f)", "main.files", FilesScreen, (FilesScreen,)),
        ("Contradictions (c)", "main.conflicts", ConflictsScreen, (ConflictsScreen,)),
        ("Kept versions (V)", "main.versions", VersionsScreen, (VersionsScreen,)),
    ]
    return [
        (
            title,
            [row for owner in listed for row in _rows(owner.BINDINGS, keymap, hidden)]
            + (MOVE if about is None else []),
            opener,
            () if about is None else (about,),
        )
        for title, opener, about, listed in table
    ]


def markdown_table() -> str:
    lines = ["| where | key | what it does | id |", "|---|---|---|---|"]
    for section, rows in key_sections():
        for key, description, binding_id in rows:
            shown_id = f"`{binding_id}`" if binding_id else ""
            lines.append(f"| {section} | `{key}` | {description} | {shown_id} |")
    return "\n".join(lines)


def console_bindings() -> Iterator[Binding]:
    """Every binding the console's app, screens and widgets declare."""

    from . import app, screens, widgets

    for package in (screens, widgets):
        for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(info.name)
    classes: list[type] = [app.NuggetsApp, *DOMNode.__subclasses__()]
    seen: set[type] = set()
    while classes:
        cls = classes.pop()
        if cls in seen:
            continue
        seen.add(cls)
        classes += cls.__subclasses__()
        if cls.__module__.startswith(f"{__package__}."):
            yield from (b for b in vars(cls).get("BINDINGS", ()) if isinstance(b, Binding))


def binding_ids() -> set[str]:
    return {binding.id for binding in console_bindings() if binding.id}


def checked_keymap(file: ConfigFile) -> dict[str, str]:
    """The config file's keymap, each id one the console has; else a `ConfigFileError`."""
    known = binding_ids()
    for binding_id in file.keymap:
        if binding_id not in known:
            raise ConfigFileError(
                f"{file.path}: {KEYMAP}.{binding_id} is no key binding of the "
                "console (the ids are in README.md's key table)"
            )
    return dict(file.keymap)


if __name__ == "__main__":  # README.md's key table: python -m nuggets_tui.keys
    print(markdown_table())
