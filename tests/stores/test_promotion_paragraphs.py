"""A promoted entry of two paragraphs updated to another value of two paragraphs, beside the
agent's own promotion (docs/PROMOTION.md, "Entries").

tests/fixtures/agent_promotion_paragraphs/ was made by running the agent's own code (its `donna`
fork, commit e56bfd4, src/nuggets/ compiled unchanged with tsc and run under Node 20 as its
extension runs it: one long-lived shelf; outside this repository, only the data it wrote is kept
here):

- `home/`: two facts remembered through its `remember` tool, `shared:release` of two paragraphs
  ("Cut the release from main." / "Tag it vX.Y.Z and push the tag; ...") and
  `user:pref:editor`, then given 3 and 4 hits;
- `agent-start.md`: the MEMORY.md its promotion (`promoteFacts`, at a compaction) wrote from
  them, with a line then written by hand at its end;
- `graph-after-remember.json`, `facts-after-remember.json`: after the running agent remembered a
  new value of two paragraphs for `shared:release`;
- `agent-compact.md`: what the agent's next compaction (`promoteFacts` on its long-lived shelf)
  wrote over our update of `agent-start.md`. It writes the whole file again from the first line
  of each entry and the notes, dropping every other line, so it writes the same over any file
  holding those entries' first lines: that is why it stands in for the agent's write over our
  files below.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from nuggets_tui.cli import main
from tests.support.paths import FIXTURES_DIR

FIXTURE = FIXTURES_DIR / "agent_promotion_paragraphs"
HAND = "\nMy own line: ask before deploying on a Friday.\n"
STALE = "Tag it vX.Y.Z and push the tag; the release job does the rest."


def _run(home: Path, memory_md: Path, day: int, *args: str) -> str:
    env = {
        "NUGGETS_MEMORY_MD": str(memory_md),
        "NUGGETS_HOME": "",
        "TZ": "UTC",
        "NUGGETS_NOW": f"2026-12-2{day}T09:00:00Z",
    }
    result = CliRunner().invoke(main, ["--home", str(home), *args], env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def _home(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    shutil.copytree(FIXTURE / "home", home)
    memory_md = tmp_path / "memory" / "MEMORY.md"
    memory_md.parent.mkdir()
    return home, memory_md


def _agent_remembers_the_new_value(home: Path) -> None:
    shutil.copyfile(FIXTURE / "graph-after-remember.json", home / "graph" / "graph.json")
    shutil.copyfile(FIXTURE / "facts-after-remember.json", home / "memory.donna.json")


def test_an_entry_our_run_wrote_is_replaced_whole_and_nothing_is_said_lost(tmp_path: Path) -> None:
    home, memory_md = _home(tmp_path)
    _run(home, memory_md, 1, "promote", "--apply")
    assert STALE in memory_md.read_text()
    memory_md.write_text(memory_md.read_text() + HAND)
    _agent_remembers_the_new_value(home)
    _run(home, memory_md, 2, "promote", "--apply")
    # as the agent writes the same notes, and the line written by hand kept
    assert memory_md.read_text() == (FIXTURE / "agent-compact.md").read_text() + HAND
    memory_md.write_bytes((FIXTURE / "agent-compact.md").read_bytes())  # its compaction
    lost = json.loads(_run(home, memory_md, 3, "promote", "--json"))["lost"]
    assert lost == ["1 other line (not an entry) is gone"]  # the hand-written line, no entry


def test_an_entry_the_agent_wrote_is_replaced_whole_and_its_old_paragraph_never_said_lost(
    tmp_path: Path,
) -> None:
    """The fixture as it was recorded. The file is laid out as the agent writes it whole, so
    all that stands under an entry up to the next one is its value: the old value's second
    paragraph goes with the update, while the line written by hand under an entry that stays
    the same (the last one) is kept."""
    home, memory_md = _home(tmp_path)
    memory_md.write_bytes((FIXTURE / "agent-start.md").read_bytes())
    _agent_remembers_the_new_value(home)
    _run(home, memory_md, 1, "promote", "--apply")
    assert memory_md.read_text() == (FIXTURE / "agent-compact.md").read_text() + HAND
    assert STALE not in memory_md.read_text()
    memory_md.write_bytes((FIXTURE / "agent-compact.md").read_bytes())  # its compaction
    lost = json.loads(_run(home, memory_md, 2, "promote", "--json"))["lost"]
    assert lost == ["1 other line (not an entry) is gone"]  # the hand-written line only


def test_in_a_file_the_agent_did_not_lay_out_a_paragraph_under_an_entry_stays(
    tmp_path: Path,
) -> None:
    """A line of the operator's own above the first section: the file is not the agent's
    whole write, nothing tells where its entries end, and the paragraph is left as it is."""
    home, memory_md = _home(tmp_path)
    start = (FIXTURE / "agent-start.md").read_text()
    memory_md.write_text(start.replace("# Memory\n", "# Memory\n\nMine: read me first.\n", 1))
    _agent_remembers_the_new_value(home)
    _run(home, memory_md, 1, "promote", "--apply")
    assert STALE in memory_md.read_text()
