"""Project habits that a check should hold: the engine never imports the UI and reads no
environment outside its settings; every command is documented in README.md and has help text, and
so is every setting."""

from __future__ import annotations

import re
import subprocess
import sys

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
    done = subprocess.run([sys.executable, "-c", BLOCK_TEXTUAL], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


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


ENVIRONMENT_READ = re.compile(r"os\.environ|getenv|\benviron\b|putenv")
# The settings read the environment once, for the front end; the crash points are a test hook
# read at import. core/clock.py may hold a frozen-clock hook of its own.
READS_ENVIRONMENT = {"core/settings.py", "core/clock.py", "core/safeio/crashpoints.py"}


def test_the_engine_reads_no_environment_outside_its_settings() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sorted((ROOT / "core").rglob("*.py"))
             if str(path.relative_to(ROOT)) not in READS_ENVIRONMENT
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if ENVIRONMENT_READ.search(line)]
    assert found == []


def test_readme_documents_every_setting_and_its_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Configuration"):]
    for name in NAMES:
        assert f"`{name}`" in section, f"README.md's Configuration does not list {name}"
        assert f"`${variable(name)}`" in section, f"README.md does not name ${variable(name)}"
