"""Finding contradictions (docs/VERDICTS.md), with each store's topic key: on hand-built
memories."""

from __future__ import annotations

import pytest

from core.review.contradictions import (
    UnknownGroupError,
    find_contradictions,
    find_group,
    group_id,
    statement,
)
from core.review.topics import nuggets_topic, title_topic
from core.stores.microclaw.topics import microclaw_key, microclaw_topic
from tests.support.conflict_builders import answers_memory, pref


def test_a_trailing_date_is_the_same_title() -> None:
    assert title_topic("pref: answers, noted 2026-09-18") == "pref: answers"
    assert title_topic("Pref:  Answers (as of 2026-09-18)") == "pref: answers"
    assert title_topic("deploy 2026-09-18T10:00:00Z") == "deploy"
    assert title_topic("release 2026") == "release 2026"  # a year alone is not a date


def test_the_nuggets_topic_needs_nugget_subject_and_title() -> None:
    a = pref("a", "x")
    assert nuggets_topic(a) == ("user", "user:primary", "pref: answers")
    assert nuggets_topic(pref("b", "x", subject="user:other")) != nuggets_topic(a)
    assert nuggets_topic(pref("c", "x", nuggetName="agent")) != nuggets_topic(a)
    assert nuggets_topic(pref("d", "x", title="  ")) is None
    assert nuggets_topic(pref("e", "x", title="Untitled")) is None
    assert nuggets_topic(pref("f", "x", title="quick note, noted 2026-01-02")) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("The database port is 5433", "db_port"),
        ("DB runs on port 5432 now", "db_port"),
        ("Project deadline is Friday", "deadline"),
        ("Due date moved to May", "deadline"),
        ("My time zone is UTC+2", "timezone"),
        ("Timezone: Europe/Paris", "timezone"),
        ("Server IP is 10.0.0.2", "server_ip"),
        ("the IP address changed", "server_ip"),
        ("User's favourite colour: blue-green, really", "users_favourite_colour_bluegreen"),
        ("Hi", "hi"),
        ("!!! ???", ""),
    ],
)
def test_the_microclaw_key(text: str, key: str) -> None:
    assert microclaw_key(text) == key


def test_contradicting_notes_form_one_group_and_paraphrases_agree() -> None:
    groups = find_contradictions(answers_memory())
    assert len(groups) == 1
    group = groups[0]
    assert group.kind == "topic" and group.nugget == "user" and group.topic == "pref: answers"
    assert group.note_ids == ("a-direct", "a-bullets", "a-direct-2", "a-short")
    assert group.positions == (("a-direct", "a-direct-2"), ("a-bullets",), ("a-short",))
    assert group.id == group_id(reversed(group.note_ids))  # stable: the ids, not their order


def test_agreeing_paraphrases_alone_are_a_duplicate_set_not_a_contradiction() -> None:
    notes = [
        pref("p1", "User prefers direct answers with small examples of code"),
        pref("p2", "User prefers direct answers, with small examples of code!"),
        pref("p3", "USER PREFERS DIRECT ANSWERS WITH SMALL EXAMPLES OF CODE"),
    ]
    (group,) = find_contradictions(notes)
    assert group.duplicate and group.positions == (("p1", "p2", "p3"),)


def test_provenance_lines_repeated_lines_and_trailing_punctuation_do_not_disagree() -> None:
    said = "Owns the billing service; on call the first week of the month"
    notes = [
        pref("p1", said),
        pref("p2", said + "!\nConfirmed by the user on 2026-10-02."),
        pref("p3", said + "\nChecked again on 2026-09-30."),
        pref("p4", said + "\nSource: the team channel."),
        pref("p5", said + "\nSee also the runbook in docs/runbooks."),
        pref("p6", said + "\nSeen in session sess-4f2a."),
        pref("p7", f"  {said}  \n{said.upper()}\n"),
    ]
    (group,) = find_contradictions(notes)
    assert group.duplicate and len(group.positions) == 1
    assert statement(notes[1]["content"]) == statement(said)


def test_contradictions_come_before_the_duplicate_sets() -> None:
    notes = [
        pref("d1", "Likes tea"),
        pref("d2", "likes tea."),
        {**pref("c1", "Lives in Lisbon"), "title": "user: city"},
        {**pref("c2", "Lives in Berlin since October"), "title": "user: city"},
    ]
    groups = find_contradictions(notes)
    assert [g.duplicate for g in groups] == [False, True]


def test_hidden_notes_and_other_nuggets_stay_out() -> None:
    notes = [
        pref("v", "Direct answers"),
        pref("h", "Bullet answers", hidden=True),
        pref("o", "Bullet answers", nuggetName="agent"),
    ]
    assert find_contradictions(notes) == []


def test_notes_promotion_would_shadow_are_a_group() -> None:
    # Different subjects: no topic group; one section ("preferences") and title: shadowed.
    notes = [
        pref(
            "x",
            "Indent with tabs",
            title="indent",
            subject="shared:project",
            scope="project",
            hits=4,
            tags=["preferences"],
        ),
        pref(
            "y",
            "Indent with spaces, four of them",
            title="indent",
            subject="shared:team",
            scope="project",
            hits=5,
            tags=["preferences"],
        ),
    ]
    groups = find_contradictions(notes)
    assert [(g.kind, g.note_ids) for g in groups] == [("promotion", ("x", "y"))]
    assert groups[0].topic == "shared-context: indent"
    assert find_contradictions(notes, promotion=False) == []


def test_a_promotion_group_inside_a_topic_group_is_not_listed_twice() -> None:
    notes = [pref(n["id"], n["content"], title=n["title"], hits=3) for n in answers_memory()]
    assert [g.kind for g in find_contradictions(notes)] == ["topic"]


def test_a_store_supplies_its_topic_key() -> None:
    rows = [
        pref("mc-1", "Database port is 5432", nuggetName="global"),
        pref("mc-2", "Database port is 6543 since May", nuggetName="global"),
        pref("mc-3", "Database port is 5432", nuggetName="chat-7"),
    ]
    groups = find_contradictions(rows, topic=microclaw_topic, promotion=False)
    assert [(g.note_ids, g.topic) for g in groups] == [(("mc-1", "mc-2"), "db_port")]


def test_an_unknown_group_is_a_clear_error() -> None:
    with pytest.raises(UnknownGroupError, match="no contradiction group c-nope"):
        find_group(find_contradictions(answers_memory()), "c-nope")


def test_finding_is_one_pass_over_a_large_topic() -> None:
    """Thousands of notes on one topic: positions are bounded, so this stays linear."""
    notes = [pref(f"n{i}", f"answer style number {i} token{i} other{i}") for i in range(3000)]
    groups = find_contradictions(notes)
    assert len(groups) == 1 and len(groups[0].note_ids) == 3000
