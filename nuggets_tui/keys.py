"""Every key of the console, per screen, read from the screens' own bindings: the help screen and
README.md's key table both come from here, so they can't drift from what the keys do."""

from __future__ import annotations

from textual.binding import Binding, BindingType

MOVE = [
    ("↑ ↓ / j k", "move in a list or table"),
    ("PgUp PgDn Home End", "jump in a list or table"),
    ("tab / shift+tab", "move between panes"),
    ("ctrl+p", "command palette: every action, jump to a nugget or a note"),
]


def _display(binding: Binding) -> str:
    if binding.key_display:
        return binding.key_display
    names = {"question_mark": "?", "slash": "/", "space": "space", "escape": "escape",
             "ctrl+z": "ctrl+z", "plus": "+", "minus": "-", "enter": "enter"}
    return " / ".join(names.get(k.strip(), k.strip()) for k in binding.key.split(","))


def _rows(bindings: list[BindingType]) -> list[tuple[str, str]]:
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            rows.append((_display(binding), binding.tooltip or binding.description))
    return rows


def key_sections() -> list[tuple[str, list[tuple[str, str]]]]:
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

    return [
        ("Everywhere", _rows(NuggetsApp.BINDINGS) + MOVE),
        ("Main screen", _rows(MainScreen.BINDINGS)),
        ("Review (r)", _rows(ReviewScreen.BINDINGS)),
        ("Review rules (R in the review)", _rows(RulesScreen.BINDINGS)),
        ("Promotion (p)", _rows(PromoteScreen.BINDINGS)),
        ("Link graph (g)", _rows(LinkTree.BINDINGS) + _rows(GraphScreen.BINDINGS)),
        ("Run history (l)", _rows(HistoryScreen.BINDINGS)),
        ("Memory files (f)", _rows(FilesScreen.BINDINGS)),
        ("Contradictions (c)", _rows(ConflictsScreen.BINDINGS)),
        ("Kept versions (V)", _rows(VersionsScreen.BINDINGS)),
    ]


def markdown_table() -> str:
    lines = ["| where | key | what it does |", "|---|---|---|"]
    for section, rows in key_sections():
        for key, description in rows:
            lines.append(f"| {section} | `{key}` | {description} |")
    return "\n".join(lines)


if __name__ == "__main__":  # README.md's key table: python -m nuggets_tui.keys
    print(markdown_table())
