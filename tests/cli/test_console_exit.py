"""The console's exit status, run for real on a terminal (tests/support/console_process.py): 0
when the operator quits, non-zero when it dies. Textual prints the error and returns from its
run either way; the command line passes its return code on, so a script or a supervisor that
started the console knows it crashed."""

from __future__ import annotations

from pathlib import Path

from tests.support.console_process import run_console
from tests.support.note_builders import make_home, note

ENV = {
    "NUGGETS_NOW": "2026-11-01T10:00:00Z",
    "NUGGETS_HOME": "",
    "NUGGETS_MEMORY_MD": "",
    "TZ": "UTC",
}
SHELF_RAISES = """
from core.stores.nuggets.store import NuggetsStore
def broken(self, *args, **kwargs):
    raise RuntimeError("the store broke while reading")
NuggetsStore.read = broken
"""


def small_home(tmp_path: Path) -> Path:
    return make_home(tmp_path, [note("n1", title="Editor", content="Uses Helix.")])


def test_a_console_that_quits_exits_0(tmp_path: Path) -> None:
    ended = run_console(["--home", str(small_home(tmp_path))], ENV, quit_keys=b"q")
    assert ended.status == 0, ended.screen[-2000:]
    assert "Traceback" not in ended.screen


def test_a_console_whose_store_raises_on_read_exits_non_zero(tmp_path: Path) -> None:
    ended = run_console(["--home", str(small_home(tmp_path))], ENV, prelude=SHELF_RAISES)
    assert "the store broke while reading" in ended.screen  # Textual's report of the crash
    assert ended.status != 0
