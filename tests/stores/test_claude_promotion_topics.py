"""Promotion in Claude Code's own form (`topic-files`): a topic file per fact and an index line,
journaled as one batch, never over a file that is not ours or through a link, never under a
dream, and counted by the folder's review as our run — its undo too.

The folder is written by hand the way Claude Code 2.1.332 writes one: `MEMORY.md` lines as its
prompt asks for them (`- [Title](file.md) — hook`), a topic file in the frontmatter its Write
tool re-emits (`name`, `description`, then `metadata:` with `node_type`, `type`,
`originSessionId`, `modified`), created 0600; the dream's `.consolidate-lock` as its lock
functions write it (the dreaming process's id as bare decimal text, the mtime when it started).
What we write is read back with the review's own readers of Claude Code's frontmatter and index
(core/stores/claude/frontmatter.py, index.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.errors import NuggetsError
from core.promotion import claude_load
from core.promotion.claude_dream import LOCK, DreamingError
from core.promotion.claude_topics import TOPIC_FILES, topic_name
from core.settings import Settings
from core.stores.claude import frontmatter, index
from core.stores.claude.store import ClaudeStore
from core.stores.nuggets.store import NuggetsStore
from tests.support.claude_support import NOW, TESTING_LINE, TESTING_POLICY, project_folder, ticking
from tests.support.note_builders import make_home, note

FACTS = [
    note("n1", "Deploys go through the make target, never by hand", title="deploys", hits=4),
    note("n2", "The user answers in French", title="language", hits=5, subject="user:me"),
    note("n3", "Grafana latency board is the on-call one", title="dashboards", hits=3),
]


def promoter(tmp_path: Path, directory: Path, facts: list[dict[str, object]]) -> NuggetsStore:
    settings = Settings.of(data_dir=str(tmp_path / "data"))
    home = make_home(tmp_path, facts) if not (tmp_path / "home").exists() else tmp_path / "home"
    store = NuggetsStore(home, ticking(), directory / "MEMORY.md", settings)
    store.promotion_form = TOPIC_FILES
    return store


def review(tmp_path: Path, directory: Path) -> ClaudeStore:
    return ClaudeStore(directory, ticking(), settings=Settings.of(data_dir=str(tmp_path / "data")))


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def test_each_fact_is_a_topic_file_claude_code_reads_with_an_index_line(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    store = promoter(tmp_path, directory, FACTS)
    plan = store.plan_promotion()
    assert (plan.form, plan.added) == (TOPIC_FILES, 3)
    store.promote(plan)
    names = {f"{n.name}" for n in directory.iterdir()} - {"MEMORY.md", "testing.md"}
    assert len(names) == 3
    types = {}
    for name in names:
        path = directory / name
        read = frontmatter.parse(path.read_text())
        assert read.problems == [], name  # nothing Claude Code cannot read
        types[read.fields["description"]] = read.metadata["type"]
        assert path.stat().st_mode & 0o777 == 0o600
    assert types == {
        "Deploys go through the make target, never by hand": "project",
        "The user answers in French": "user",
        "Grafana latency board is the on-call one": "project",
    }
    text = (directory / "MEMORY.md").read_text()
    assert text.startswith(TESTING_LINE)  # the agent's line stays as it was
    listed = {index.topic_name(e.target) for e in index.entries(text)}
    assert listed == names | {"testing.md"}
    assert "- [language](user_language-" in text and "— The user answers in French\n" in text


def test_the_hook_stays_within_150_units_and_a_dash_run_never_ends_the_frontmatter(
    tmp_path: Path,
) -> None:
    directory = project_folder(tmp_path)
    long = "Release notes --- " + "每个版本都要写发布说明 " * 30
    store = promoter(tmp_path, directory, [note("n1", long, title="release [notes]", hits=4)])
    store.promote(store.plan_promotion())
    (line,) = [e for e in index.entries((directory / "MEMORY.md").read_text()) if e.line == 2]
    assert claude_load.units(line.text) <= 150 and line.text.endswith("\u2026")
    assert line.title == "release notes"  # brackets would break the link
    written = (directory / line.target).read_text()
    read = frontmatter.parse(written)
    assert read.problems == [] and read.metadata["type"] == "project"
    assert "---" not in read.fields["description"]
    assert written.endswith(long.strip() + "\n")  # the body holds the whole fact


def test_promoting_the_same_fact_again_adds_no_file_or_line(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    store = promoter(tmp_path, directory, FACTS)
    store.promote(store.plan_promotion())
    before = snapshot(directory)
    again = store.plan_promotion()
    assert not again.changes_file and {e.action for e in again.entries} == {"same"}
    store.promote(again)
    assert snapshot(directory) == before


def test_a_changed_fact_rewrites_only_its_own_file(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    store = promoter(tmp_path, directory, FACTS)
    store.promote(store.plan_promotion())
    index_before = (directory / "MEMORY.md").read_bytes()
    changed = [FACTS[0] | {"content": "Deploys go through CI now"}, *FACTS[1:]]
    store = NuggetsStore(
        make_home(tmp_path / "again", changed), ticking(), directory / "MEMORY.md", store.settings
    )
    store.promotion_form = TOPIC_FILES
    plan = store.plan_promotion()
    assert [e.action for e in plan.entries if e.action != "same"] == ["update"]
    store.promote(plan)
    name = topic_name("shared-context", "deploys")
    assert (directory / name).read_text().endswith("\n\nDeploys go through CI now\n")
    assert (directory / "MEMORY.md").read_bytes() == index_before


def test_a_file_not_ours_and_a_link_are_never_written(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    agents = directory / topic_name("shared-context", "deploys")
    agents.write_text(TESTING_POLICY)  # the agent wrote a file of that name
    outside = tmp_path / "secret"
    outside.write_text("private\n")
    (directory / topic_name("user", "language")).symlink_to(outside)
    store = promoter(tmp_path, directory, FACTS)
    plan = store.plan_promotion()
    assert [e.title for e in plan.entries] == ["dashboards"]
    assert len(plan.notices) == 2 and all("not promoted" in n for n in plan.notices)
    store.promote(plan)
    assert agents.read_text() == TESTING_POLICY and outside.read_text() == "private\n"
    assert (directory / topic_name("user", "language")).is_symlink()


def test_the_review_counts_our_topic_files_and_index_line_as_ours(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    review(tmp_path, directory).read()  # the reviewed baseline
    store = promoter(tmp_path, directory, FACTS)
    store.promote(store.plan_promotion())
    batch = store.promotion_runs[0].run_id
    after = review(tmp_path, directory)
    assert after.plan().operations == []  # not "the agent added" anything
    (said,) = [n for n in after.take_notices() if "our own promotion" in n]
    assert said.startswith("MEMORY.md and 3 topic file(s) changed") and batch in said


def test_undo_takes_the_batch_back_byte_for_byte_and_the_review_counts_it_as_ours(
    tmp_path: Path,
) -> None:
    directory = project_folder(tmp_path)
    review(tmp_path, directory).read()
    before = snapshot(directory)
    store = promoter(tmp_path, directory, FACTS)
    store.promote(store.plan_promotion())
    review(tmp_path, directory).plan()  # the review accepts our write as ours
    assert store.promotion_run is not None
    undone = store.undo(store.promotion_runs[1].run_id)  # any run of the batch: all of them
    assert "undid 4 runs" in undone.summary
    assert snapshot(directory) == before
    later = review(tmp_path, directory)
    assert later.plan().operations == []  # not "the agent removed" our lines and files
    assert any("our own promotion" in n for n in later.take_notices())


def test_undo_of_a_promotion_in_the_agents_format_is_counted_as_ours(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    review(tmp_path, directory).read()
    before = snapshot(directory)
    store = promoter(tmp_path, directory, FACTS)
    store.promotion_form = "entries"
    store.promote(store.plan_promotion())
    review(tmp_path, directory).plan()
    assert store.promotion_run is not None
    store.undo(store.promotion_run.run_id)
    assert snapshot(directory) == before
    assert review(tmp_path, directory).plan().operations == []


def _dreaming(directory: Path) -> None:
    (directory / LOCK).write_text(str(os.getpid()))  # this process: alive, and fresh
    os.utime(directory / LOCK, (NOW.timestamp(), NOW.timestamp()))


@pytest.mark.parametrize("form", [TOPIC_FILES, "entries"])
def test_nothing_is_promoted_or_undone_while_the_dream_holds_the_folder(
    tmp_path: Path, form: str
) -> None:
    directory = project_folder(tmp_path)
    store = promoter(tmp_path, directory, FACTS)
    store.promotion_form = form
    _dreaming(directory)
    before = snapshot(directory)
    with pytest.raises(DreamingError, match=r"holds \.consolidate-lock.*nothing was promoted"):
        store.promote(store.plan_promotion())
    assert snapshot(directory) == before and store.journal.log() == []
    (directory / LOCK).unlink()
    store.promote(store.plan_promotion())
    _dreaming(directory)
    written = snapshot(directory)
    assert store.promotion_run is not None
    with pytest.raises(NuggetsError, match="nothing was restored"):
        store.undo(store.promotion_run.run_id)
    assert snapshot(directory) == written


def test_the_budget_is_the_index_as_claude_code_loads_it(tmp_path: Path) -> None:
    directory = project_folder(tmp_path)
    # 199 lines after a frontmatter Claude Code strips before it counts: 1 line of room
    lines = [f"- [t{i}](t{i}.md) — 主题 {i}" for i in range(199)]
    (directory / "MEMORY.md").write_text("---\nnote: ours\n---\n" + "\n".join(lines) + "\n")
    store = promoter(tmp_path, directory, FACTS)
    plan = store.plan_promotion()
    (budget,) = plan.budgets
    assert budget.used["lines"] == 202 and budget.cut_by == "lines"
    assert budget.loaded_lines == 203  # the 3 frontmatter lines, then 200 Claude Code loads
    listed = plan.after_text.split("\n")
    assert listed[203].startswith("- [") and len(budget.past) == 2  # the last two facts' lines
    assert budget.past == [e.note_id for e in plan.entries][1:]
