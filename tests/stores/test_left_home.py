"""A home the agent left is not written by mistake (README, "Using it beside your agent"): once
the agent has copied ~/.nuggets to ~/.donna it writes only there, so ~/.nuggets named outright
(`--home`, `$NUGGETS_HOME`, as README's cron line once had it) is refused for every write, in one
line naming the live home, unless `--force-home` insists; and a run forced into it, which the
agent's next start copies into ~/.donna (it copies every file ~/.donna lacks), is not undone
there as ~/.donna's own.

The homes are tests/fixtures/agent_home_move/ (how they were made: tests/stores/
test_beside_agent_home_move.py). The agent's copy is re-told here as its migration does it:
every file of the old home the new one lacks is copied, nothing else.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from core.clock import fixed_clock
from core.settings import Settings
from core.stores.nuggets.store import NuggetsStore
from nuggets_tui.app import NuggetsApp
from nuggets_tui.cli import main
from tests.support.console_support import settle
from tests.support.moments import at
from tests.support.paths import FIXTURES_DIR

MOVE = FIXTURES_DIR / "agent_home_move"
NOW = "2026-12-26T09:00:00Z"


@pytest.fixture
def user(tmp_path: Path) -> Path:
    user = tmp_path / "user"
    shutil.copytree(MOVE / "nuggets", user / ".nuggets")
    shutil.copytree(MOVE / "donna", user / ".donna")
    (user / "memory").mkdir()
    shutil.copyfile(MOVE / "MEMORY.md", user / "memory" / "MEMORY.md")
    return user


def _nuggets(user: Path, *args: str, home: str = "") -> Result:
    env = {
        "HOME": str(user),
        "NUGGETS_HOME": home,
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


def _agent_copies(user: Path) -> None:
    """The agent's migration at its next start: every file ~/.donna lacks, copied."""
    old, new = user / ".nuggets", user / ".donna"
    for path in sorted(old.rglob("*")):
        target = new / path.relative_to(old)
        if path.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


@pytest.mark.parametrize(
    "command",
    [
        ("daily",),
        ("archive", "note-project-x-f7bda984"),
        ("unhide", "note-memory-1d6274c9"),
        ("rules", "add", "tags", "keep", "--kind", "tag"),
        ("undo", "20261225T090000Z-0006"),
    ],
)
def test_the_old_home_named_by_the_setting_is_refused_for_writing(
    user: Path, command: tuple[str, ...]
) -> None:
    before = {"old": _tree(user / ".nuggets"), "memory": _tree(user / "memory")}
    result = _nuggets(user, *command, home=str(user / ".nuggets"))
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == (
        f"nuggets: {user / '.nuggets'}: the agent moved this memory to {user / '.donna'} and "
        "writes only there; this copy is left behind, so nothing is written here: use --home "
        f"{user / '.donna'} (or no --home), or --force-home to write here anyway"
    )
    assert {"old": _tree(user / ".nuggets"), "memory": _tree(user / "memory")} == before


def test_reading_the_old_home_is_not_refused(user: Path) -> None:
    for command in (("notes",), ("reflect",), ("log",)):
        assert _nuggets(user, "--home", str(user / ".nuggets"), *command).exit_code == 0


def test_a_run_forced_into_the_old_home_is_not_undone_as_the_live_homes_own(user: Path) -> None:
    old = str(user / ".nuggets")
    forced = _nuggets(user, "--home", old, "--force-home", "archive", "note-project-x-f7bda984")
    assert forced.exit_code == 0, forced.output
    run_id = forced.stdout.split("(run ")[1].split(")")[0]
    _agent_copies(user)
    header, entry = (user / ".donna" / "reflections" / f"{run_id}.json").read_text().splitlines()
    assert json.loads(header)["leftHome"] == json.loads(entry)["leftHome"] == old
    live = _tree(user / ".donna")
    refused = _nuggets(user, "undo", run_id)  # the default home: ~/.donna
    assert refused.exit_code == 1
    assert refused.stderr.strip().splitlines()[-1] == (
        f"nuggets: cannot undo {run_id}: it was written in {old}, a copy its agent had left, "
        "and came here with the agent's copy of that folder: undo it there (with "
        "--force-home), nothing was restored"
    )
    assert _tree(user / ".donna") == live
    listed = _nuggets(user, "log").stdout
    assert f"[written in {old}, a home its agent had left]" in listed
    # where it was written, it is undone as usual (forced again)
    assert _nuggets(user, "--home", old, "undo", run_id).exit_code == 1
    assert _nuggets(user, "--home", old, "--force-home", "undo", run_id).exit_code == 0


def test_runs_made_before_the_move_still_undo_in_the_live_home(user: Path) -> None:
    result = _nuggets(user, "undo", "20261225T090000Z-0006")
    assert result.exit_code == 0, result.output


def test_force_home_goes_with_the_nuggets_home_only(user: Path) -> None:
    result = _nuggets(user, "--microclaw", str(user), "--force-home", "log")
    assert result.exit_code == 2
    assert "--force-home goes with --home or --demo" in result.output


async def test_the_console_header_says_it_is_the_agents_old_copy(user: Path) -> None:
    store = NuggetsStore(user / ".nuggets", fixed_clock(at(NOW)), settings=Settings.of())
    app = NuggetsApp(store)
    async with app.run_test(size=(180, 40)) as pilot:
        await settle(pilot, app)
        header = str(app.screen.query_one("#title-bar").render())
        assert f"the agent's old copy: it lives in {user / '.donna'}" in header
