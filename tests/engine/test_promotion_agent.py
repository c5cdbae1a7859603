"""Promotion beside the agent (docs/PROMOTION.md): the agent's section rule, one note per section
and title (the most recently updated, the others named as shadowed), every title in its one right
section, the agent's flush-left continuation lines read as part of their entry, and alternating with
the agent's own promotion (tests/support/agent_promotion.py) settling on one file. Hand-written
lines keep
every byte, line endings included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from core.promotion.candidates import plan_promotion, section_of
from nuggets_tui.cli import main
from tests.support.agent_promotion import AGENT_HEADER, agent_promote
from tests.support.note_builders import note
from tests.support.paths import FIXTURES_DIR
from tests.support.reliability_support import make_home


def fact(note_id: str, title: str, content: str, hits: int = 3, **extra: Any) -> dict:
    return note(note_id, content, title=title, hits=hits, **extra)


def plan(notes: list[dict], before: str = ""):  # type: ignore[no-untyped-def]
    return plan_promotion(notes, Path("/m/MEMORY.md"), before, True, 3)


@pytest.mark.parametrize(
    ("fields", "section"),
    [
        ({"subject": "assistant:self", "scope": "self", "tags": ["learnings"]}, "assistant-self"),
        ({"subject": "user:primary", "scope": "project", "tags": ["preferences"]}, "user"),
        ({"subject": "team:core", "scope": "shared", "tags": ["learnings"]}, "shared-context"),
        ({"subject": "session:x", "scope": "project"}, "shared-context"),
        (
            {"subject": "session:x", "scope": "session", "tags": ["learnings", "preferences"]},
            "preferences",
        ),
        (
            {
                "subject": "session:x",
                "scope": "session",
                "tags": ["learnings"],
                "type": "preference",
            },
            "learnings",
        ),
        (
            {
                "subject": "session:x",
                "scope": "session",
                "title": "Learned: pin",
                "type": "preference",
                "nuggetName": "agent",
            },
            "agent",
        ),
    ],
)
def test_the_section_is_the_agents_rule_subject_and_scope_first(fields: dict, section: str) -> None:
    assert section_of(fact("n", fields.pop("title", "Title"), "x", **fields)) == section


def test_the_most_recently_updated_same_title_note_is_written_and_the_others_named() -> None:
    notes = [
        fact(
            "old", "Editor", "vim", subject="user:a", updatedAt="2026-10-02T00:00:00.000Z", hits=9
        ),
        fact("new", "Editor", "helix", subject="user:b", updatedAt="2026-10-05T00:00:00.000Z"),
        fact("tie", "Editor", "emacs", subject="user:c", updatedAt="2026-10-02T00:00:00.000Z"),
    ]
    made = plan(notes)
    assert "- **Editor**: helix" in made.after_text and "vim" not in made.after_text
    [entry] = made.entries
    assert entry.note_id == "new"
    assert [s.note_id for s in entry.shadowed] == ["old", "tie"]
    # a tie goes to the later note in the file
    tied = plan([notes[0], notes[2]])
    assert [e.note_id for e in tied.entries] == ["tie"]
    assert [s.note_id for s in tied.entries[0].shadowed] == ["old"]
    assert "shadowed" in tied.entries[0].to_json_dict()


OLD_RULE_FILE = """# Memory

## learnings

- **Pin versions**: pin express
- **Keep**: a learning no note of that title belongs elsewhere

## preferences

- **Dark theme**: use dark theme

## user

- **Name**: Sam
"""


def test_an_entry_an_earlier_rule_put_in_another_section_is_moved_to_its_own() -> None:
    notes = [
        fact("p", "Pin versions", "pin express", tags=["learnings"]),  # project scope: shared
        fact("d", "Dark theme", "use dark theme", tags=["preferences"], subject="user:primary"),
        fact("n", "Name", "Sam", subject="user:primary"),
    ]
    made = plan(notes, OLD_RULE_FILE)
    assert (
        made.after_text
        == """# Memory

## learnings

- **Keep**: a learning no note of that title belongs elsewhere

## shared-context

- **Pin versions**: pin express

## user

- **Name**: Sam
- **Dark theme**: use dark theme
"""
    )
    moved = {e.note_id: e.moved_from for e in made.entries}
    assert moved == {"p": ["learnings"], "d": ["preferences"], "n": []}


def test_a_title_stands_in_two_sections_only_when_notes_of_it_belong_to_both() -> None:
    notes = [
        fact("u", "Editor", "vim", subject="user:primary"),
        fact("s", "Editor", "the team uses vim", scope="shared"),
    ]
    text = plan(
        notes, "## user\n\n- **Editor**: vim\n\n## shared-context\n\n- **Editor**: x\n"
    ).after_text
    assert text.count("**Editor**") == 2


def test_flush_left_lines_under_an_entry_are_part_of_it() -> None:
    before = (
        "## shared-context\n\n- **Deploy**: make deploy\nthen check the logs\n"
        "- **Other**: kept\n\nHand-written after a blank line.\n"
    )
    made = plan([fact("d", "Deploy", "make deploy\nthen watch the dashboard")], before)
    assert made.after_text == (
        "## shared-context\n\n- **Deploy**: make deploy\nthen watch the dashboard\n"
        "- **Other**: kept\n\nHand-written after a blank line.\n"
    )


def test_a_content_paragraph_the_agent_wrote_after_a_blank_line_is_part_of_the_entry() -> None:
    content = "make deploy\n\nthen check the logs"
    note_ = fact("d", "Deploy", content)
    agent = agent_promote([note_], "")
    assert "make deploy\n\nthen check the logs" in agent
    ours = plan([note_], agent).after_text
    assert ours == agent  # written as the agent writes it: nothing to change
    assert plan([note_], agent).entries[0].action == "same"


def _ours(notes: list[dict], before: str) -> str:
    return plan(notes, before).after_text


def test_our_runs_alternating_with_the_agents_give_the_same_file() -> None:
    notes = [
        fact(
            "a",
            "Pin versions",
            "pin express\nafter the outage",
            tags=["learnings"],
            scope="session",
            subject="session:x",
        ),
        fact("b", "Editor", "vim", subject="user:a", updatedAt="2026-10-09T00:00:00.000Z"),
        fact("c", "Editor", "helix", subject="user:b", updatedAt="2026-10-01T00:00:00.000Z"),
        fact("d", "Deploy", "make deploy\n\nthen check the logs"),
        fact("e", "Tone", "plain words", subject="assistant:self", scope="self"),
        fact("f", "Zeta", "from zeta", nuggetName="zeta", scope="session", subject="s:x"),
        fact("g", "Dark theme", "use dark theme", tags=["preferences"], subject="user:primary"),
    ]
    start = agent_promote(notes, OLD_RULE_FILE)
    first = _ours(notes, start)
    second = _ours(notes, agent_promote(notes, first))
    assert second == first
    assert _ours(notes, agent_promote(notes, second)) == first


SECTION_OF = st.fixed_dictionaries(
    {
        "subject": st.sampled_from(["user:primary", "assistant:self", "shared:x", "s:x"]),
        "scope": st.sampled_from(["project", "session", "self", "shared"]),
        "tags": st.lists(st.sampled_from(["learnings", "preferences"]), max_size=2, unique=True),
        "nuggetName": st.sampled_from(["p", "zz"]),
        "updatedAt": st.sampled_from(["2026-10-01", "2026-10-02"]),
    }
)
WORDS = st.sampled_from(["Deploy", "Editor", "Name", "Tone", "x"])
CONTENT = (
    st.lists(st.sampled_from(["alpha", "beta", "", "gamma delta"]), min_size=1, max_size=3)
    .map("\n".join)
    .filter(lambda c: c.strip() and "\n\n\n" not in c)
)


@st.composite
def agent_notes(draw: st.DrawFn) -> list[dict]:
    notes = []
    for i in range(draw(st.integers(1, 6))):
        content = draw(CONTENT).strip("\n")
        section: dict[str, Any] = draw(SECTION_OF)
        notes.append(fact(f"n{i}", draw(WORDS), content, **section))
    return notes


def _titles_by_section(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    section = ""
    for line in text.split("\n"):
        if line.startswith("## "):
            section = line[3:]
        elif line.startswith("- **"):
            found.setdefault(section, []).append(line[4:].split("**:")[0])
    return found


@settings(max_examples=150, deadline=None)
@given(agent_notes(), st.sampled_from(["", OLD_RULE_FILE]))
def test_alternating_settles_and_no_title_lands_in_two_sections(
    notes: list[dict], before: str
) -> None:
    first = _ours(notes, agent_promote(notes, before))
    second = _ours(notes, agent_promote(notes, first))
    assert second == first
    nuggets: dict[tuple[str, str], set[str]] = {}
    for n in notes:
        nuggets.setdefault((section_of(n), n["title"]), set()).add(n["nuggetName"])
    if all(len(names) == 1 for names in nuggets.values()):
        # (across nuggets the agent's order is its own: there our pick may differ from its pick)
        assert agent_promote(notes, first) == first  # not a byte changed by either of us
    owners: dict[str, set[str]] = {}
    for n in notes:
        owners.setdefault(n["title"], set()).add(section_of(n))
    for section, titles in _titles_by_section(first).items():
        assert len(titles) == len(set(titles)), (section, titles)
        for title in titles:
            assert title not in owners or section in owners[title], (title, section)
    assert first.startswith(AGENT_HEADER)


def test_crlf_lines_and_odd_line_breaks_inside_hand_written_lines_are_kept_byte_for_byte() -> None:
    before = (
        "# Memory\r\n\r\nMine: a\u2028b and a\x0cform feed, a lone \r inside.\r\n\r\n"
        "## user\r\n\r\n- **Name**: Sam\r\n"
    )
    made = plan(
        [
            fact("e", "Editor", "vim", subject="user:primary"),
            fact("n", "Name", "Samantha", subject="user:primary"),
        ],
        before,
    )
    assert made.after_text == (
        "# Memory\r\n\r\nMine: a\u2028b and a\x0cform feed, a lone \r inside.\r\n\r\n"
        "## user\r\n\r\n- **Name**: Samantha\r\n- **Editor**: vim\r\n"
    )
    assert (
        plan([fact("n", "Name", "Samantha", subject="user:primary")], made.after_text).after_text
        == made.after_text
    )


def test_a_new_section_in_an_lf_file_with_a_stray_crlf_line_is_written_with_lf() -> None:
    before = "# Memory\n\nwindows line\r\n"
    text = plan([fact("e", "Editor", "vim", subject="user:primary")], before).after_text
    assert text == "# Memory\n\nwindows line\r\n\n## user\n\n- **Editor**: vim\n"


def test_the_command_line_names_shadowed_notes_and_moved_titles(tmp_path: Path) -> None:
    home = make_home(
        tmp_path,
        [
            fact("old", "Editor", "vim", subject="user:a", updatedAt="2026-10-02T00:00:00.000Z"),
            fact("new", "Editor", "helix", subject="user:b", updatedAt="2026-10-05T00:00:00.000Z"),
        ],
        memory_md="# Memory\n\n## preferences\n\n- **Editor**: vim\n",
    )
    env = {
        "NUGGETS_NOW": "2026-11-01T10:00:00Z",
        "TZ": "UTC",
        "NUGGETS_HOME": "",
        "NUGGETS_MEMORY_MD": str(home / "memory" / "MEMORY.md"),
    }
    held = CliRunner().invoke(main, ["--home", str(home), "promote"], env=env).stdout
    assert "(new): it is in the contradiction queue (c-" in held  # vim or helix: undecided
    group = held.split("nuggets resolve ", 1)[1].split()[0]
    both = CliRunner().invoke(
        main, ["--home", str(home), "resolve", group, "--both", "--apply"], env=env
    )
    assert both.exit_code == 0, both.output
    shown = CliRunner().invoke(main, ["--home", str(home), "promote"], env=env)
    assert "shadows old [project], updated 2026-10-02T00:00:00.000Z" in shown.stdout
    assert "taken out of: preferences" in shown.stdout
    data = json.loads(
        CliRunner().invoke(main, ["--home", str(home), "promote", "--json"], env=env).stdout
    )
    [entry] = data["entries"]
    assert entry["noteId"] == "new" and entry["movedFrom"] == ["preferences"]
    assert [s["noteId"] for s in entry["shadowed"]] == ["old"]


def _not_owned(lines: list[str]) -> list[str]:
    """Lines that are no entry, no heading, and not directly under an entry (docs/FORMATS.md)."""
    found, under_entry = [], False
    for line in lines:
        text = line.rstrip("\r")
        if text.startswith("- **"):
            under_entry = True
        elif text.startswith("#") or not text.strip():
            under_entry = False
            if not text.startswith("## "):
                found.append(line)
        elif not under_entry:
            found.append(line)
    return found


HAND_LINES = st.lists(
    st.sampled_from(
        [
            "",
            "hand",
            "odd\u2028inside",
            "feed\x0cinside",
            "lone\rcr",
            "next\x85line",
            "\ttab",
            "## user",
            "## learnings",
            "- **Editor**: old",
            "  indented",
            "# Title",
        ]
    ),
    max_size=10,
)


@settings(max_examples=200, deadline=None)
@given(HAND_LINES, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_every_line_the_tool_does_not_own_keeps_every_byte(
    lines: list[str], ending: str, final: bool
) -> None:
    before = ending.join(lines) + (ending if final and lines else "")
    notes = [
        fact("e", "Editor", "vim\nor helix", subject="user:primary"),
        fact("d", "Deploy", "make deploy", scope="session", subject="s:x", tags=["learnings"]),
    ]
    after = plan(notes, before).after_text
    kept = after.split("\n")
    last = kept[-1]
    # an unterminated last line takes the file's ending once something is written after it
    kept += [line[:-1] for line in kept if ending == "\r\n" and not final and line.endswith("\r")]
    # and a line that ends up last in a file without a final line break loses its ending
    if ending == "\r\n" and not final:
        kept.append(last + "\r")
    for line in _not_owned(before.split("\n")):
        assert line in kept, (line, after)
    if ending == "\r\n" and lines and final:
        assert "\n" not in after.replace("\r\n", "")


# -- files written by the agent's own promotion --------------------------------------------------
# tests/fixtures/agent_promotion/ was made outside the project by running the agent's own code
# (its `donna` fork, commit e56bfd4, src/nuggets/ compiled unchanged with tsc, under Node 20):
# a home holding the notes of notes.json (graph/graph.json, and an empty fact file per nugget so
# that its shelf loads them), then `shelf.loadAll(); promoteFacts(shelf)` with HOME and the
# working directory chosen so that its MEMORY.md is the file given. agent-1.md is its promotion
# of before.md (a file our earlier rule wrote); agent-2.md its promotion of the file our
# promotion made of agent-1.md. Only these outputs are in the repository.

FIXTURES = FIXTURES_DIR / "agent_promotion"


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode()


def test_the_re_telling_of_the_agent_writes_what_the_agent_wrote() -> None:
    notes = json.loads(_fixture("notes.json"))
    assert agent_promote(notes, _fixture("before.md")) == _fixture("agent-1.md")


def test_our_promotion_of_what_the_agent_wrote_is_the_same_after_its_next_run() -> None:
    notes = json.loads(_fixture("notes.json"))
    ours = _ours(notes, _fixture("agent-1.md"))
    assert ours == _fixture("agent-2.md")  # the agent's next run changed nothing of ours
    assert agent_promote(notes, ours) == _fixture("agent-2.md")
    assert ours.count("**Dark theme**") == 1 and ours.count("then check the logs") == 1
    assert "- **Editor**: vim" in ours  # the most recently updated of the two


def _cut_plan(notes: list[dict], now: str, last: str | None):  # type: ignore[no-untyped-def]
    return plan_promotion(notes, Path("/m/MEMORY.md"), now, True, 3, last_written=last)


def test_an_entry_cut_to_its_first_line_since_our_last_write_is_left_cut() -> None:
    meeting = fact(
        "m",
        "Meeting",
        "sync on Mondays\nbring the numbers",
        subject="session:x",
        scope="session",
        nuggetName="scratch",
    )
    whole = plan([meeting]).after_text
    cut = whole.replace("sync on Mondays\nbring the numbers", "sync on Mondays")
    assert cut != whole
    for last in (whole, cut):  # our last write left it whole, or left it cut already
        made = _cut_plan([meeting], cut, last)
        assert [e.action for e in made.entries] == ["same"] and made.after_text == cut
    # without our journal, or with a note changed since, the entry is written whole
    assert _cut_plan([meeting], cut, None).after_text == whole
    changed = {**meeting, "content": "sync on Mondays\nbring the charts"}
    assert "bring the charts" in _cut_plan([changed], cut, whole).after_text
    # a first line that changed is an update too
    other = cut.replace("sync on Mondays", "sync on Tuesdays")
    assert _cut_plan([meeting], other, whole).after_text == whole


def test_lost_lines_names_cut_and_gone_entries_but_not_updated_ones() -> None:
    from core.promotion.lost_lines import lost_lines

    last = (
        "# Memory\n\nmine\n\n## s\n\n- **A**: one\ntwo\n\nthree\n- **B**: x\n- **C**: old\nmore\n"
    )
    now = "# Memory\n\n## s\n\n- **A**: one\n- **C**: new\nlines\n"
    assert lost_lines(last, now) == [
        "“A” (s) lost 2 of its 3 lines",
        "“B” (s) is gone",
        "1 other line (not an entry) is gone",
    ]
    assert lost_lines(last, last) == []
    many = "## s\n" + "".join(f"- **T{i}**: a\nb\n" for i in range(7))
    cut = "## s\n" + "".join(f"- **T{i}**: a\n" for i in range(7))
    assert lost_lines(many, cut)[-1] == "and 2 more entries" and len(lost_lines(many, cut)) == 6
