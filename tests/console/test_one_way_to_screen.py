"""One way to put an agent's text on screen: `nuggets_tui/safe.py` (Rich Text and toasts, inert)
for the console, `nuggets_tui/render.py` and `core.safeio.inert_text` for the command line. This
test reads
the console's source and fails on any other way in, so a new screen cannot show data raw.

Outside safe.py, text reaches the screen only as:
- a string written in the source (our own words), or an f-string whose every placeholder is a
  number (it has a format spec, or is a `len(...)`) or is itself made inert;
- a call of a function that makes text inert (`line`, `block`, `join`, `one_line`, …) or of
  one that returns `Text` (its own body is held to the same rules);
- a name or `self.` attribute that holds only such values (what a function assigns, appends or
  loops over), a parameter typed `Text` or `int`, or an ALL_CAPS constant.
The places that show text (sinks) are Textual's and Rich's constructors and methods that take
text or markup, the attributes Textual draws (`border_title`, …), safe.py's `join` (its plain
strings are taken as our own words) and the command line's output. It reads names, not types:
`add`/`append` count as sinks on a tree node or a Text (by the receiver's name), not on a set
or a list.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.paths import REPO

PACKAGE = REPO / "nuggets_tui"
THE_WAY = {"safe.py", "render.py"}  # the one way in; everything else is checked
INERT = {"line", "block", "join", "more_lines", "one_line", "inert", "inert_json", "len", "str"}
# Holders of text made inert already: fields typed Text only (diff_view.py's marked lines)
INERT |= {"Marked"}
NEVER = {"from_markup", "from_ansi", "markup"}  # Rich/Textual parse markup or ANSI from a str
# Each place that shows text, with the positions of its arguments that are text (None: all).
SINK_CALLS: dict[str, tuple[int, ...] | None] = {
    "Text": (0,),
    "Content": (0,),
    "Static": (0,),
    "Label": (0,),
    "Button": (0,),
    "Option": (0,),
    "TabPane": (0,),
    "Hit": (1,),
    "DiscoveryHit": (0,),
    "SystemCommand": (0, 1),
    "ConfirmScreen": None,
    "LinkTree": (0,),
    "Tree": (0,),
    "assemble": None,
    "append": (0,),
    "update": (0,),
    "set_label": (0,),
    "add": (0,),
    "add_leaf": (0,),
    "echo": (0,),
    "print": None,
    "write": (0,),
    "notify": (0,),
    "join": None,
    "add_row": None,
}
TEXT_KEYWORDS = {"text", "help", "label", "prompt", "placeholder", "message", "title", "body"}
NUMBERS = {"len", "cell_len", "counted", "every", "round", "int", "max", "min", "sum", "monotonic"}
SINK_ATTRIBUTES = {"border_title", "border_subtitle", "title", "sub_title", "tooltip"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


class Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = ast.parse(path.read_text())
        self.text_functions = text_functions()

    def problems(self) -> list[str]:
        found = [
            problem
            for scope in ast.walk(self.tree)
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
            for problem in Scope(self, scope).problems()
        ]
        return list(dict.fromkeys(found))  # a nested function is walked with its outer one


class Scope:
    """One function: what each local name and `self.` attribute may hold."""

    def __init__(self, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.module = module
        self.function = function
        self.values: dict[str, list[ast.expr | None]] = {}
        self.typed_text: set[str] = set()
        self._collect(function)
        owner = _class_of(module.tree, function)
        for method in owner.body if owner else []:
            self._collect(method, only_self=True)

    def _collect(self, root: ast.AST, only_self: bool = False) -> None:
        typed = {
            a.arg
            for a in ast.walk(root)
            if isinstance(a, ast.arg)
            and a.annotation
            and ast.unparse(a.annotation) in ("Text", "int")
        }
        for node in ast.walk(root):
            if only_self:  # another method: only what it keeps in `self.`
                if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    value = node.value
                    if isinstance(value, ast.Name) and value.id in typed:
                        value = ast.Constant("")  # a parameter of that method typed Text
                    for target in targets:
                        if ast.unparse(target).startswith("self."):
                            self.values.setdefault(ast.unparse(target), []).append(value)
                continue
            if isinstance(node, ast.arg) and node.annotation is not None:
                if ast.unparse(node.annotation) in ("Text", "int", "float", "bool"):
                    self.typed_text.add(node.arg)  # made by safe.py, or a number
                else:
                    self.values.setdefault(node.arg, []).append(None)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    self.values.setdefault(ast.unparse(target), []).append(node.value)
            elif (
                isinstance(node, ast.Call)
                and _name(node.func) in ("append", "extend")
                and isinstance(node.func, ast.Attribute)
                and node.args
            ):
                self.values.setdefault(ast.unparse(node.func.value), []).append(node.args[0])
            elif isinstance(node, ast.For | ast.comprehension):
                for name, taken in _loop_values(node.target, node.iter):
                    self.values.setdefault(name, []).append(taken)

    def problems(self) -> Iterator[str]:
        if self.function.name in self.module.text_functions:
            for node in ast.walk(self.function):
                if isinstance(node, ast.Return) and not self.safe(node.value):
                    yield (
                        f"{self.module.path.name}:{node.lineno}: {self.function.name} returns "
                        "text that may hold data raw"
                    )
        for node in ast.walk(self.function):
            where = f"{self.module.path.name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call):
                called = _name(node.func)
                if called in NEVER:
                    yield f"{where}: {called}() parses markup or escapes from a string"
                elif called in SINK_CALLS and _sink(node):
                    for arg in _text_arguments(node):
                        if not self.safe(arg):
                            yield f"{where}: {called}({ast.unparse(arg)}) may show data raw"
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and target.attr in SINK_ATTRIBUTES
                        and not self.safe(node.value)
                    ):
                        yield f"{where}: {ast.unparse(target)} = {ast.unparse(node.value)}"

    def safe(self, node: ast.expr | None, seen: frozenset[str] = frozenset()) -> bool:
        if node is None:
            return False
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.JoinedStr):
            return all(
                self._safe_placeholder(v, seen)
                for v in node.values
                if isinstance(v, ast.FormattedValue)
            )
        if isinstance(node, ast.Tuple | ast.List):
            return all(self.safe(e, seen) for e in node.elts)
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return self.safe(node.elt, seen)
        if isinstance(node, ast.Starred):
            return self.safe(node.value, seen)
        if isinstance(node, ast.IfExp):
            return self.safe(node.body, seen) and self.safe(node.orelse, seen)
        if isinstance(node, ast.BinOp):
            return self.safe(node.left, seen) and self.safe(node.right, seen)
        if isinstance(node, ast.BoolOp):
            return all(self.safe(v, seen) for v in node.values)
        if isinstance(node, ast.Call):
            return self._safe_call(node, seen)
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            key = ast.unparse(node)
            if _name(node).isupper():
                return True  # a constant, by the convention the code keeps
            if key in self.typed_text or key.removeprefix("self.") in self.typed_text:
                return True
            if isinstance(node, ast.Subscript):
                return self.safe(node.value, seen)
            values = self.values.get(key)
            if key in seen or not values:
                return key in seen or _module_constant(self.module.tree, key)
            return all(self.safe(v, seen | {key}) for v in values)
        return False

    def _safe_placeholder(self, value: ast.FormattedValue, seen: frozenset[str]) -> bool:
        if value.format_spec is not None:
            return True  # a number, formatted
        inner = value.value
        if isinstance(inner, ast.Call) and _name(inner.func) in NUMBERS:
            return True
        if isinstance(inner, ast.Call):
            return _name(inner.func) in INERT - {"str"}
        return self.safe(inner, seen)

    def _safe_call(self, node: ast.Call, seen: frozenset[str]) -> bool:
        called = _name(node.func)
        if called in NEVER:
            return False
        if called in INERT - {"str", "join"} or called in self.module.text_functions:
            return True
        if called in NUMBERS:
            return True
        if called == "escape":  # markup escaped; what it escapes must be inert already
            return all(self.safe(a, seen) for a in node.args)
        if called == "join" and isinstance(node.func, ast.Name):
            return all(self.safe(a, seen) for a in node.args)
        if called in ("str", "join", "upper", "lower", "rstrip", "strip", "removeprefix"):
            parts = [*node.args] + (
                [node.func.value] if isinstance(node.func, ast.Attribute) else []
            )
            return all(self.safe(a, seen) for a in parts)
        if called == "Table":
            return True  # an empty table: what `add_row` puts in it is checked there
        if called in ("Text", "Content", "assemble"):
            return all(self.safe(a, seen) for a in _text_arguments(node))
        return False


@functools.cache
def text_functions() -> frozenset[str]:
    """The console's functions that return Text (or parts of one) or a Table: what they return
    is checked too."""
    return frozenset(
        f.name
        for path in PACKAGE.rglob("*.py")
        for f in ast.walk(ast.parse(path.read_text()))
        if isinstance(f, ast.FunctionDef)
        and f.returns is not None
        and ("Text" in ast.unparse(f.returns) or ast.unparse(f.returns) == "Table")
    )


def _sink(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "notify":
        return False  # safe.py's, which makes its text inert
    if isinstance(func, ast.Attribute) and func.attr == "join":
        return False  # str.join: its result is checked where it is shown
    # safe.py's join takes our own words as plain strings: they must be ours
    if _name(func) in ("add", "append"):  # a tree's node or a Text, not a set or a list
        receiver = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
        return receiver.endswith(("node", "root", "label", "text", "shown"))
    return True


def _text_arguments(call: ast.Call) -> list[ast.expr]:
    positions = SINK_CALLS[_name(call.func)]
    args = [
        a
        for i, a in enumerate(call.args)
        if positions is None
        or i in positions
        and not isinstance(a, ast.GeneratorExp | ast.SetComp | ast.Set)
    ]  # set.update
    return args + [k.value for k in call.keywords if k.arg in TEXT_KEYWORDS]


def _loop_values(target: ast.expr, over: ast.expr) -> Iterator[tuple[str, ast.expr | None]]:
    """What a loop's names take: from a literal tuple of tuples, each element; else unknown."""
    rows = over.elts if isinstance(over, ast.Tuple | ast.List) else None
    if isinstance(target, ast.Name):
        for row in rows if rows else [None]:
            yield target.id, row
    elif isinstance(target, ast.Tuple):
        for i, element in enumerate(target.elts):
            if not isinstance(element, ast.Name):
                continue
            if rows and all(isinstance(r, ast.Tuple) and len(r.elts) > i for r in rows):
                for row in rows:
                    yield element.id, row.elts[i]  # type: ignore[attr-defined]
            else:
                yield element.id, None


def _class_of(tree: ast.Module, function: ast.AST) -> ast.ClassDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and function in node.body:
            return node
    return None


def _module_constant(tree: ast.Module, name: str) -> bool:
    """A name bound at module level to a constant: our own words."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(ast.unparse(t) == name for t in node.targets):
            return all(
                isinstance(n, ast.Constant | ast.Tuple | ast.Name | ast.Load)
                for n in ast.walk(node.value)
            )
    return False


def console_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name not in THE_WAY)


@pytest.mark.parametrize("path", console_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_data_reaches_the_screen_only_made_inert(path: Path) -> None:
    assert list(Module(path).problems()) == []


def test_the_check_finds_a_raw_way_in(tmp_path: Path) -> None:
    """The check itself fails on the leaks it exists for."""
    leaky = tmp_path / "leaky.py"
    leaky.write_text(
        "def a(fallback: str, entry, pane):\n"
        "    label = Text(f'{fallback} (missing)')\n"
        "    pane.update(f'Undo run ({entry.at})?')\n"
        "    self.notify(entry.summary, markup=False)\n"
        "    pane.border_title = entry.run_id\n"
        "    pane.update(Text.from_markup('[b]x'))\n"
        "def b(pane, note, entry):\n"
        "    title = note['title']\n"
        "    pane.update(title)\n"
        "    body = join('Undo run ', line(entry.run_id), f' ({entry.kind}, {entry.at})?')\n"
    )
    lines = {int(problem.split(":")[1]) for problem in Module(leaky).problems()}
    assert lines == {2, 3, 4, 5, 6, 9, 10}
