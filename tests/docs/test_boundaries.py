"""Project habits that a check should hold: the engine never imports the UI; importing the engine
loads no store; every command is documented in README.md and has help text."""

from __future__ import annotations

import subprocess
import sys

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
    done = subprocess.run([sys.executable, "-c", BLOCK_TEXTUAL], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


LOADED_STORES = """
import sys
import core.errors, core.models, core.stores.base
print(sorted(name for name in sys.modules if name.startswith("core.stores.")))
"""


def test_importing_the_engine_loads_no_store() -> None:
    # A front end that imports the engine's models and the store interface must not get a
    # particular store with them (docs/ARCHITECTURE.md, "What may import what").
    done = subprocess.run([sys.executable, "-c", LOADED_STORES], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['core.stores.base']"


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
