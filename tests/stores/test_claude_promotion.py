"""Our promotion into a Claude Code memory folder is our run, not the agent's change: the
folder's review counts it as ours. The folder is written by hand the way Claude Code 2.1.332
lays one out (`MEMORY.md` with `- [Title](file.md) — hook` lines, topic files with the nested
`metadata:` / `type:` frontmatter its template `oa` gives the model)."""

from __future__ import annotations

from pathlib import Path

from core.settings import Settings
from core.stores.claude.store import ClaudeStore
from core.stores.nuggets.store import NuggetsStore
from tests.support.claude_support import project_folder, ticking
from tests.support.note_builders import make_home, note

TOPIC = (
    "---\nname: testing\ndescription: how tests run\nmetadata:\n  type: feedback\n---\n\nReal db.\n"
)
INDEX = "- [Testing](testing.md) — how tests run\n"


def test_our_promotion_is_counted_as_ours_not_the_agents(tmp_path: Path) -> None:
    directory = project_folder(tmp_path, INDEX, TOPIC)
    settings = Settings.of(data_dir=str(tmp_path / "data"))
    review = ClaudeStore(directory, ticking(), settings=settings)
    review.read()  # the reviewed baseline
    facts = [note(f"n{i}", f"Fact {i} holds", title=f"fact {i}", hits=4) for i in range(3)]
    nuggets = NuggetsStore(make_home(tmp_path, facts), ticking(), directory / "MEMORY.md", settings)
    plan = nuggets.plan_promotion()
    assert any("Claude Code's memory index" in line for line in plan.notices)
    nuggets.promote(plan)
    assert nuggets.promotion_run is not None
    run_id = nuggets.promotion_run.run_id
    nuggets.promote(nuggets.plan_promotion())  # nothing new: no second write
    review = ClaudeStore(directory, ticking(), settings=settings)
    assert review.plan().operations == []
    (run,) = [line for line in review.take_notices() if "our own promotion" in line]
    assert f"(run {run_id})" in run
    written = tmp_path / "data" / "promotion" / "writes.jsonl"
    assert (written.stat().st_mode & 0o777, written.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    assert "Fact 1" not in written.read_text()  # hashes only, never the text


def test_the_agents_change_after_our_promotion_is_still_the_agents(tmp_path: Path) -> None:
    directory = project_folder(tmp_path, INDEX, TOPIC)
    settings = Settings.of(data_dir=str(tmp_path / "data"))
    ClaudeStore(directory, ticking(), settings=settings).read()
    facts = [note("n1", "Fact one holds", title="fact one", hits=4)]
    nuggets = NuggetsStore(make_home(tmp_path, facts), ticking(), directory / "MEMORY.md", settings)
    nuggets.promote(nuggets.plan_promotion())
    with (directory / "MEMORY.md").open("a") as handle:
        handle.write("- [Later](later.md) — the agent's own line\n")
    plan = ClaudeStore(directory, ticking(), settings=settings).plan()
    assert [op.note_id for op in plan.operations if op.id not in plan.unkept_by_default] == [
        "MEMORY.md:1"
    ]
