"""Project habits that a check should hold: the engine never imports the UI and reads no
environment outside its settings; importing the engine loads no store; every command is
documented in README.md and has help text, and so is every setting; JSON is parsed only by the
bounded reader."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from core.settings import NAMES, variable
from nuggets_tui.cli import main
from tests.support.paths import REPO

ROOT = REPO

BLOCK_TEXTUAL = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "textual" or name.startswith("textual."):
            raise ImportError("core must not import textual")
sys.meta_path.insert(0, Block())
import pkgutil, importlib, core
for info in pkgutil.walk_packages(core.__path__, "core."):
    importlib.import_module(info.name)
print("ok")
"""


def test_core_imports_without_textual() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_TEXTUAL], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


LOADED_STORES = """
import sys
import importlib, pkgutil
import core.contract, core.errors, core.models
for info in pkgutil.walk_packages(core.contract.__path__, "core.contract."):
    importlib.import_module(info.name)
print(sorted(name for name in sys.modules if name.startswith("core.stores.")))
"""


def test_importing_the_engine_loads_no_store() -> None:
    # A front end that imports the engine's models and the store contract must not get a
    # particular store with them (docs/ARCHITECTURE.md, "What may import what").
    done = subprocess.run(
        [sys.executable, "-c", LOADED_STORES], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_every_command_has_help_and_a_readme_entry() -> None:
    readme = (ROOT / "README.md").read_text()
    assert main.commands, "the group has commands"
    for name, command in main.commands.items():
        assert command.help, f"{name} has no help text"
        assert f"nuggets {name}" in readme, f"README.md does not document `nuggets {name}`"


def test_readme_lists_every_key_of_the_console() -> None:
    from nuggets_tui.keys import markdown_table

    readme = (ROOT / "README.md").read_text()
    assert markdown_table() in readme, "regenerate the key table: python -m nuggets_tui.keys"


# The json module's ways into its parser, which recurses once per level of nesting.
PARSERS = {"load", "loads", "JSONDecoder", "raw_decode", "decoder", "scanner"}
BOUNDED_READER = ROOT / "core" / "safeio" / "json_read.py"


def parser_uses(path: Path) -> list[str]:
    """Where a module reaches the json module's parser itself: `json.loads(...)`, an alias of
    the module, `from json import loads`, `from json.decoder import ...`, a `.raw_decode`."""
    tree = ast.parse(path.read_text(), str(path))
    modules = {"json"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name.startswith("json")}
        elif isinstance(node, ast.ImportFrom) and (
            node.module in ("json.decoder", "json.scanner")
            or node.module == "json"
            and any(a.name in PARSERS for a in node.names)
        ):
            found.append(f"{path.name}:{node.lineno}: from {node.module} import ...")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        of_json = isinstance(node.value, ast.Name) and node.value.id in modules
        if (of_json and node.attr in PARSERS) or node.attr == "raw_decode":
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    return found


def test_json_is_parsed_only_through_the_bounded_reader() -> None:
    """Every parse goes through core/safeio/json_read.py, which bounds the nesting before the
    parser runs: a module calling json.loads itself would crash on a file nested deep."""
    modules = [
        p for folder in ("core", "nuggets_tui") for p in sorted((ROOT / folder).rglob("*.py"))
    ]
    assert BOUNDED_READER in modules and parser_uses(BOUNDED_READER)  # the check sees calls
    found = [use for path in modules if path != BOUNDED_READER for use in parser_uses(path)]
    assert found == [], "parse JSON through core/safeio/json_read.py: " + ", ".join(found)


ENVIRONMENT_READ = re.compile(r"os\.environ|getenv|\benviron\b|putenv")
# The settings read the environment once, for the front end; the crash points are a test hook
# read at import. core/clock.py may hold a frozen-clock hook of its own.
READS_ENVIRONMENT = {"core/settings.py", "core/clock.py", "core/safeio/crashpoints.py"}


def test_the_engine_reads_no_environment_outside_its_settings() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "core").rglob("*.py"))
        if str(path.relative_to(ROOT)) not in READS_ENVIRONMENT
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if ENVIRONMENT_READ.search(line)
    ]
    assert found == []


def test_readme_documents_every_setting_and_its_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Configuration") :]
    for name in NAMES:
        assert f"`{name}`" in section, f"README.md's Configuration does not list {name}"
        assert f"`${variable(name)}`" in section, f"README.md does not name ${variable(name)}"
