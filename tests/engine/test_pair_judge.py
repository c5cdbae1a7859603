"""With `--scorer URL` a model judges the pairs of a topic the minimal-pair rule finds nothing
in (docs/VERDICTS.md, "A model judges what the rule cannot"): the rule's own pairs are never
sent, a pair the model says disagrees joins a group, a batch that fails leaves the rule's
answer and is said in one line."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from core.review.contradictions import find_contradictions
from core.review.model_scorer import ModelScorer
from nuggets_tui.cli import main
from tests.engine.test_modelscorer import FakeEndpoint, envelope
from tests.support.conflict_builders import pref
from tests.support.note_builders import make_home

CITY = [
    pref("lisbon", "Works from Lisbon.", title="user: city"),
    pref("berlin", "Moved to Berlin in October.", title="user: city"),
    pref("tabs", "User indents Go code with tabs.", title="pref: indent"),
    pref("spaces", "User indents Go code with spaces.", title="pref: indent"),
]


def test_the_judge_is_asked_only_what_the_rule_left_apart_and_joins_what_it_says() -> None:
    asked: list[list[tuple[str, str]]] = []

    def judge(pairs: list[tuple[str, str]]) -> list[bool | None]:
        asked.append(pairs)
        return [True for _ in pairs]

    assert [g.note_ids for g in find_contradictions(CITY)] == [("tabs", "spaces")]
    groups = find_contradictions(CITY, judge=judge)
    assert sorted(g.note_ids for g in groups) == [("lisbon", "berlin"), ("tabs", "spaces")]
    assert asked == [[("Works from Lisbon.", "Moved to Berlin in October.")]]  # one call


def test_no_answer_leaves_the_rule_standing() -> None:
    groups = find_contradictions(CITY, judge=lambda pairs: [None for _ in pairs])
    assert [g.note_ids for g in groups] == [("tabs", "spaces")]
    assert groups[0].related == ()


def pairs_reply(answer: bool) -> Any:
    def reply(body: dict[str, Any]) -> tuple[int, str]:
        pairs = json.loads(body["messages"][1]["content"])["pairs"]
        judged = [{"pair": p["pair"], "disagree": answer} for p in pairs]
        return 200, envelope(json.dumps({"pairs": judged}))

    return reply


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def test_the_model_scorer_judges_pairs_in_batches(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [pairs_reply(True), lambda body: (500, "")]
    scorer = ModelScorer(endpoint.url, batch_size=2)
    answers = scorer.judge_pairs([("a", "b"), ("c", "d"), ("e", "f")])
    assert answers == [True, True, None]
    assert endpoint.requests[0]["response_format"]["json_schema"]["name"] == "pairs"
    [said] = scorer.pair_notices
    assert said.startswith("model scorer: 1 of 2 pair batches (1 pair) left to the rule alone")
    assert "batch 2: the endpoint answered HTTP 500" in said


def run(home: Path, *args: str) -> Any:
    env = {"NUGGETS_NOW": "2026-11-01T10:00:00Z", "TZ": "UTC", "NUGGETS_HOME": ""}
    return CliRunner().invoke(main, ["--home", str(home), *args], env=env)


def test_conflicts_with_a_scorer_lists_what_the_model_judged(
    tmp_path: Path, endpoint: FakeEndpoint
) -> None:
    home = make_home(tmp_path, CITY)
    endpoint.replies = [pairs_reply(True), pairs_reply(True)]
    listed = run(home, "conflicts", "--json", "--scorer", endpoint.url)
    assert listed.exit_code == 0, listed.output
    groups = json.loads(listed.stdout)
    assert sorted(g["noteIds"] for g in groups) == [["lisbon", "berlin"], ["tabs", "spaces"]]
    judged = next(g["id"] for g in groups if g["noteIds"] == ["lisbon", "berlin"])
    decided = run(home, "resolve", judged, "--keep", "berlin", "--scorer", endpoint.url)
    assert decided.exit_code == 0, decided.output
    assert "berlin stands (dry run)" in decided.stdout
    assert len(endpoint.requests) == 2  # one batch each: only the pair the rule left apart


def test_an_unreachable_scorer_leaves_the_rule_and_says_so_once(tmp_path: Path) -> None:
    home = make_home(tmp_path, CITY)
    listed = run(home, "conflicts", "--scorer", "http://127.0.0.1:9/v1")
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.count("c-") == 1  # the rule's group only
    told = [line for line in listed.stderr.splitlines() if "model scorer" in line]
    assert len(told) == 1 and "left to the rule alone" in told[0]
