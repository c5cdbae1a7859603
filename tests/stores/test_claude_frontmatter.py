"""Topic-file frontmatter as Claude Code 2.1.332 reads it (docs/CLAUDE_CODE.md, "Frontmatter").
The texts are written by hand the way its code reads and writes them: the block found by its
frontmatter pattern and parser (`qd`, with the retry `DDr`/`_u` and `Bun.YAML.parse`), the merge of
top-level keys under `metadata` (`Iu`), the type check (`HDr`), the scan's 30-line / 64 KiB head
(`W7i`), and the files its Write/Edit stamp (`AEr`) leaves: `metadata:` / `  type:` with
`node_type`, `originSessionId` and `modified`. Each expected value is what that code gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.stores.claude.frontmatter import HEAD_BYTES, parse
from core.stores.claude.store import ClaudeStore
from core.stores.claude.yaml_read import YamlError, load

# as Claude Code 2.1.332 saves a file the model wrote from its template (the stamp `AEr`)
STAMPED = (
    "---\nname: testing-policy\ndescription: Run integration tests on a real database\n"
    "metadata:\n  node_type: memory\n  type: feedback\n"
    "  originSessionId: 0f5e7a9c-2b1d-4c3e-9a8f-6d5c4b3a2f10\n"
    "  modified: 2026-11-28T18:36:03.909Z\n---\n\n"
    "Run integration tests against a real database.\n**Why:** mocks hid a bug.\n"
)


def test_a_file_claude_code_stamped_is_read_with_its_nested_type() -> None:
    found = parse(STAMPED)
    assert found.problems == []
    assert found.fields == {
        "name": "testing-policy",
        "description": "Run integration tests on a real database",
        "type": "feedback",
    }
    assert found.metadata["originSessionId"] == "0f5e7a9c-2b1d-4c3e-9a8f-6d5c4b3a2f10"
    assert found.body.startswith("Run integration tests")


@pytest.mark.parametrize(
    ("block", "kind", "description"),
    [
        ("type: feedback", "feedback", None),  # the template before 2.1.139
        ("type: user\nmetadata:\n  type: project", "project", None),  # metadata wins
        ("description: Use this: a thing\ntype: project", "project", "Use this: a thing"),
        ("metadata:\n\ttype: reference", "reference", None),  # the retry turns tabs to spaces
        ("metadata: {type: user}", "user", None),  # a flow map
        ("type: user\ntype: project", "project", None),  # the last key wins
        ("description: has # hash\ntype: user", "user", "has"),
        ("description: C#9 tips\ntype: user", "user", "C#9 tips"),
        ("description: *important* note\ntype: user", "user", "*important* note"),
        ("description: @alice owns this\ntype: user", "user", "@alice owns this"),
        ("description: `npm test` runs\ntype: user", "user", "`npm test` runs"),
        ("description: %d items\ntype: user", "user", "%d items"),
        ("description: > folded\ntype: user", "user", "> folded"),
        ("description: [draft] notes\ntype: user", "user", "[draft] notes"),
        ("description: a: b # c\ntype: user", "user", "a: b # c"),
        ("metadata:\ntype: user", "user", None),  # a null metadata: the top level is merged
        ("metadata: x\ntype: user", "user", None),
        ("type: user\ndescription: see --- here", "user", "see"),  # the type came first
        ("description: 'It''s here'\ntype: user", "user", "It's here"),
        ("description: a long\n  line folded\ntype: user", "user", "a long line folded"),
    ],
)
def test_frontmatter_claude_code_reads_is_read_the_same(
    block: str, kind: str, description: str | None
) -> None:
    found = parse(f"---\n{block}\n---\nbody\n")
    assert found.fields.get("type") == kind
    assert found.fields.get("description") == description
    assert not any("parse" in p or "no type" in p for p in found.problems), found.problems


@pytest.mark.parametrize(
    "text",
    [
        "---\r\nname: n\r\ntype: user\r\n---\r\nbody",  # CRLF
        "\ufeff---\ntype: user\n---\nb",  # a byte-order mark
        "---   \ntype: user\n---\nb",  # spaces after the opening ---
        "---\ntype: user\n  ---\nb",  # an indented closing ---
        "---\n" + "x: 1\n" * 27 + "type: user\n---\nb",  # the closing --- on line 30
        f"---\ndescription: {'a' * 65400}\ntype: user\n---\nb",  # within 64 KiB
    ],
)
def test_the_edges_of_the_block_claude_code_reads(text: str) -> None:
    assert parse(text).fields.get("type") == "user"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name: x\ndescription: y\ntype: user\n", "the frontmatter is never closed"),
        ("\n---\ntype: user\n---\nb", "no frontmatter"),  # a blank line first
        ("---\n" + "x: 1\n" * 28 + "type: user\n---\nb", "within the first 30 lines"),
        (f"---\ndescription: {'a' * HEAD_BYTES}\ntype: user\n---\nb", "within the first 30"),
        # an indented line is never quoted by the retry, so both parses fail
        ("---\nmetadata:\n  type: project\n  note: a: b\n---\nb", "does not parse"),
        ("---\nname2: a: b\ntype: user\n---\nb", "does not parse"),  # a digit in the key
        ("---\nname: 'x\ndescription: y\ntype: user\n---\n", "does not parse"),
        ("---\nname: x\ndescription: y\ntype: notes\n---\n", "type 'notes' is none of"),
        ("---\nname: x\ndescription: y\ntype: User\n---\n", "type 'User' is none of"),
        ("---\nname: x\ndescription: y\ntype: true\n---\n", "is none of"),
        ("---\nname: x\ntype: user\n---\n", "no description"),
        ("---\ndescription: see --- here\ntype: user\n---\nb", "no type"),
        ("---\ndescription: see --- here\ntype: user\n---\nb", "closes the frontmatter there"),
    ],
)
def test_frontmatter_claude_code_cannot_read_is_a_problem(text: str, problem: str) -> None:
    found = parse(text if text.startswith(("---", "\n")) else "---\n" + text)
    assert any(problem in p for p in found.problems), found.problems


def test_a_value_with_three_dashes_leaves_the_rest_to_the_body() -> None:
    found = parse("---\ndescription: see --- here\ntype: user\n---\nb")
    assert "type" not in found.fields
    assert found.body == "here\ntype: user\n---\nb"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("k: yes", {"k": "yes"}),
        ("k: True", {"k": True}),
        ("k: 0x1f", {"k": 31}),
        ("k: 012", {"k": 12}),
        ("k: 2026-05-01", {"k": "2026-05-01"}),
        ("k: ~", {"k": None}),
        ("k: 1_000", {"k": "1_000"}),
        ("a: &x 1\nb: *x", {"a": 1, "b": 1}),
        ("k: [a, {b: c}]", {"k": ["a", {"b": "c"}]}),
        ("k:\n- a\n- b", {"k": ["a", "b"]}),
        ("- a: 1\n  b: 2\n- c", [{"a": 1, "b": 2}, "c"]),
        ("k: |\n  a\n  b\nt: 1", {"k": "a\nb\n", "t": 1}),
        ('"n": 5', {"n": 5}),
        ("k: ,a", {"k": ",a"}),
    ],
)
def test_yaml_is_read_as_yaml_1_2(text: str, value: object) -> None:
    assert load(text) == value


@pytest.mark.parametrize(
    "text", ["k: a: b", "k: *nowhere", "k: @x", "k: Note:", "k: a\n  # c\n  d", "\tk: v"]
)
def test_yaml_a_parser_refuses_is_refused(text: str) -> None:
    with pytest.raises(YamlError):
        load(text)


def test_a_stamped_file_is_grouped_by_its_type_and_not_flagged(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "MEMORY.md").write_text(
        "- [testing-policy](feedback_testing.md) \u2014 real database in tests\n"
    )
    (directory / "feedback_testing.md").write_text(STAMPED)
    notes = {n["id"]: n for n in ClaudeStore(directory, record_root=tmp_path / "r").read().notes}
    note = notes["feedback_testing.md"]
    assert (note["nuggetName"], note["type"], note["title"]) == (
        "feedback",
        "feedback",
        "testing-policy",
    )
    assert note["claude"]["flags"] == []


def test_many_continuation_lines_are_read_in_one_pass() -> None:
    """Only the first 30 lines are read: a frontmatter of a million lines costs no more."""
    text = "---\ndescription: x\n" + "  more words\n" * 1_000_000 + "type: user\n---\n"
    assert "within the first 30 lines" in parse(text).problems[0]
