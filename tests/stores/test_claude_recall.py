"""Our merges and budget proposals as Claude Code 2.1.332 reads their result (docs/CLAUDE_CODE.md,
"Merging near-duplicates" and "The budget"). The topic files are written by hand as its
Write/Edit stamp (`AEr`) saves them (nested `metadata:` with `node_type`, `originSessionId`,
`modified`); what recall shows of a file follows its recall truncation (`lBe`: the file from its
first byte, whole lines within 4,096 bytes of UTF-8 and 200 lines); the proposal follows the
guidance its prompt gives the model (`En`: "move detail into topic files")."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.claude import index
from core.stores.claude.budget import propose
from core.stores.claude.directory import read_files
from core.stores.claude.merge import merges
from core.stores.claude.notes import near_duplicates, topic_note


def stamped(name: str, description: str, body: str, session: str = "a1", when: str = "1") -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  node_type: memory\n"
        f"  type: feedback\n  originSessionId: 0f5e7a9c-2b1d-4c3e-9a8f-6d5c4b3a2f{session}\n"
        f"  modified: 2026-11-2{when}T18:36:03.909Z\n---\n\n{body}\n"
    )


@pytest.mark.parametrize(
    ("text", "shown", "cut"),
    [
        ("---\nname: a\n---\nbody\n", 5, False),  # a short file, frontmatter included
        ("\n".join(f"line {i}" for i in range(250)), 200, True),
        ("\n".join("x" * 99 for _ in range(50)), 40, True),  # 40 lines are 3,999 bytes
        ("\n".join("\u6f22" * 80 for _ in range(30)), 17, True),  # 241 bytes a line
        ("".join("x" * 63 + "\n" for _ in range(64)), 65, False),  # exactly 4,096 bytes
        ("x" * 5000 + "\nmore\n", 0, True),  # a first line past 4,096 bytes: nothing
    ],
)
def test_recall_shows_whole_lines_within_4096_bytes(text: str, shown: int, cut: bool) -> None:
    assert index.recalled(text) == (shown, cut)


def test_two_unrelated_stamped_memories_are_not_near_duplicates() -> None:
    notes = [
        topic_note(
            "a.md", stamped("a", "tests", "Run the tests on a real database.").encode(), "", None
        ),
        topic_note("b.md", stamped("b", "tone", "Answer in short sentences.").encode(), "", None),
    ]
    assert near_duplicates(notes) == []


def write(directory: Path, files: dict[str, str]) -> Path:
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


BODY = "Deploy with the make target, never by hand.\n**Why:** the hand deploy skipped migrations."


def test_a_merge_carries_no_stamp_and_fits_what_recall_shows(tmp_path: Path) -> None:
    directory = write(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [deploys](deploys.md)\n- [deploying](deploying.md)\n",
            "deploys.md": stamped("deploys", "how deploys are done", BODY, "a1", "1"),
            "deploying.md": stamped(
                "deploying", "how deploys are done", BODY + "\nAsk ops.", "b2", "2"
            ),
        },
    )
    (merge,) = merges(read_files(directory), set())
    assert "originSessionId" not in merge.text.split("## Merged from", 1)[1]
    assert "modified" not in merge.text.split("## Merged from", 1)[1]
    assert index.recalled(merge.text)[1] is False
    assert "recall" not in merge.detail()


def test_a_merge_past_what_recall_shows_says_so(tmp_path: Path) -> None:
    long = "\n".join(f"- deploy step {i}: run the make target for stage {i}" for i in range(70))
    extra = "\n".join(f"- then check gate {i} before the deploy window" for i in range(10))
    directory = write(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [deploys](deploys.md)\n- [deploying](deploying.md)\n",
            "deploys.md": stamped("deploys", "how deploys are done", long + "\n" + extra, "a1"),
            "deploying.md": stamped("deploying", "how deploys are done", long, "b2", "2"),
        },
    )
    (merge,) = merges(read_files(directory), set())  # on a tie, deploying.md stays
    assert not index.recalled((directory / merge.kept).read_text())[1]  # each file fits alone
    shown, cut = index.recalled(merge.text)
    assert cut
    assert f"recall shows the first {shown} lines" in merge.detail()
    assert "cannot stay within what recall shows" in merge.detail()


def test_the_budget_proposal_moves_an_entrys_detail_into_the_file_it_names() -> None:
    files = {
        "deploys.md": stamped("deploys", "how deploys are done", BODY).encode(),
        "testing.md": stamped("testing", "how tests run", "Real database.").encode(),
    }
    under = [f"  - deploy note {i}: the gate was slow on stage {i}" for i in range(240)]
    text = (
        "- [deploys](deploys.md) \u2014 how deploys are done\n"
        + "".join(line + "\n" for line in under)
        + "- [testing](testing.md) \u2014 how tests run\n"
    )
    proposal = propose(text, files, "2026-11-28T09:00:00Z")
    assert proposal is not None and proposal.fits
    assert proposal.index_text == (
        "- [deploys](deploys.md) \u2014 how deploys are done\n"
        "- [testing](testing.md) \u2014 how tests run\n"
    )
    (moved,) = proposal.files  # no catch-all file: the topic file the entry names
    assert moved.name == "deploys.md" and moved.before == files["deploys.md"].decode()
    assert moved.after == moved.before + "\n## From MEMORY.md\n\n" + "\n".join(under) + "\n"
    assert proposal.cut() == ["deploys.md"]  # said in the change: recall shows only part
