"""Undo follows the home the agent moved (docs/RUNS.md, "The journal"): runs of every kind made
in ~/.nuggets undo in ~/.donna after the agent copied the home there, and never touch the old
copy; `nuggets unhide` of a note the agent merged away names the note that absorbed it.

tests/fixtures/agent_home_move/ was made outside this repository:

- `nuggets/`: the agent-made home of tests/fixtures/agent/agent-made/ with its fact file
  `memory.donna.json` named `memory.nugget.json`, the older agent's name (the agent reads both),
  then our runs on it with `--home` left to its default (HOME set to the user directory, so
  ~/.nuggets) and `$NUGGETS_MEMORY_MD` naming `<user>/memory/MEMORY.md`: `reflect --all --apply`,
  `archive fact-memory-996ee1d0`, `unhide fact-memory-aeb36860`, `promote --apply` (its file is
  `MEMORY.md` here), `resolve c-579f4e9f --both --apply` (conflicts-settled.json) and
  `resolve c-08fb4e9a --keep note-project-x-f7bda984 --apply`, each at its own NUGGETS_NOW.
- `donna/`: what the agent's first start on its default home made of it, by running the agent's
  own code (its `donna` fork, commit e56bfd4, src/nuggets/ compiled unchanged with tsc, under
  Node 20, HOME set to the user directory): `new Nugget({name})` without a save directory, which
  copies ~/.nuggets to ~/.donna as its `migrateLegacySaveDir` does (journal included, the fact
  file renamed `memory.donna.json`), then `new NuggetShelf().loadAll()` on ~/.donna (it re-creates
  each fact's note and saves the graph). The old home was left as it was.

tests/fixtures/agent_merged/ is tests/fixtures/agent/agent-made/ after the agent's own daily
reflection (`shelf.loadAll(); shelf.reflectAndCleanMemory()`), which merged
note-memory-17fc6c5f into note-memory-1d6274c9.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from core.clock import fixed_clock
from core.notes.agent_normalize import unchanged_since
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.cli import main
from tests.support.moments import at
from tests.support.paths import FIXTURES_DIR

MOVE = FIXTURES_DIR / "agent_home_move"
MADE = FIXTURES_DIR / "agent" / "agent-made"
NOW = "2026-12-26T09:00:00Z"


def _user(tmp_path: Path) -> Path:
    user = tmp_path / "user"
    shutil.copytree(MOVE / "nuggets", user / ".nuggets")
    shutil.copytree(MOVE / "donna", user / ".donna")
    (user / "memory").mkdir()
    shutil.copyfile(MOVE / "MEMORY.md", user / "memory" / "MEMORY.md")
    return user


def _nuggets(user: Path, *args: str) -> Result:
    env = {
        "HOME": str(user),
        "NUGGETS_HOME": "",
        "NUGGETS_NOW": NOW,
        "TZ": "UTC",
        "NUGGETS_MEMORY_MD": str(user / "memory" / "MEMORY.md"),
    }
    return CliRunner().invoke(
        main, ["--telemetry-dir", str(user.parent / "telemetry"), *args], env=env
    )


def _tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _facts(path: Path) -> dict[str, dict]:
    return {f["key"]: f for f in json.loads(path.read_bytes())["facts"]}


def test_every_run_made_in_the_old_home_undoes_in_the_copy_and_never_touches_the_old(
    tmp_path: Path,
) -> None:
    user = _user(tmp_path)
    old = _tree(user / ".nuggets")
    store = NuggetsStore(user / ".donna", fixed_clock(at(NOW)))
    runs = [(h.run_id, h.kind) for h in store.log()]
    assert {kind for _, kind in runs} == {"reflect", "archive", "unhide", "promote", "decide"}
    for run_id, _ in runs:  # newest first
        result = _nuggets(user, "undo", run_id)
        assert result.exit_code == 0, result.output
        assert f"Undid {run_id}" in result.output
        assert _tree(user / ".nuggets") == old
    home = user / ".donna"
    made = json.loads((MADE / "graph" / "graph.json").read_bytes())["notes"]
    now = {n["id"]: n for n in json.loads((home / "graph" / "graph.json").read_bytes())["notes"]}
    assert all(unchanged_since(note, now[note["id"]]) for note in made)
    assert _facts(home / "memory.donna.json") == _facts(MADE / "memory.donna.json")
    assert not (home / "memory.nugget.json").exists()  # the run's file is the agent's copy
    assert not (home / "conflicts-settled.json").exists()  # as before "both stand"
    assert (user / "memory" / "MEMORY.md").read_text() == "# Memory\n\nMine, by hand.\n"


def test_an_entry_naming_a_file_of_the_old_home_is_refused_with_one_line(tmp_path: Path) -> None:
    user = _user(tmp_path)
    entry = user / ".donna" / "reflections" / "20261224T090000Z-0005.json"
    outside = str(user / ".nuggets" / "conflicts-settled.json")  # as older entries held paths
    head, body = entry.read_text().split("\n", 1)
    head_doc, body_doc = json.loads(head), json.loads(body)
    head_doc["memoryMd"] = body_doc["memoryMd"] = outside
    compact: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}
    entry.write_text(json.dumps(head_doc, **compact) + "\n" + json.dumps(body_doc, **compact))
    before = _tree(user)
    result = _nuggets(user, "undo", "20261224T090000Z-0005")
    assert result.exit_code == 1
    said = [
        line for line in result.stderr.strip().split("\n") if not line.startswith("nuggets: using ")
    ]  # (which home is open: said first)
    assert len(said) == 1 and "not a file this memory writes" in said[0], result.stderr
    assert _tree(user) == before
    listed = _nuggets(user, "log")
    assert "run 20261224T090000Z-0005 cannot be undone" in listed.stderr


def test_unhide_of_a_note_the_agent_merged_away_names_the_note_that_absorbed_it(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    shutil.copytree(FIXTURES_DIR / "agent_merged", home)
    result = CliRunner().invoke(
        main,
        [
            "--home",
            str(home),
            "--telemetry-dir",
            str(tmp_path / "t"),
            "unhide",
            "note-memory-17fc6c5f",
        ],
        env={"NUGGETS_NOW": NOW, "TZ": "UTC"},
    )
    assert result.exit_code == 0, result.output
    assert (
        "note-memory-17fc6c5f had been merged into “shared:Release process” (note-memory-1d6274c9)"
    ) in result.stdout
