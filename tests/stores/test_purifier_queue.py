"""The purifier's contradictions in the queue (docs/PURIFIER.md, "Contradictions"): open ones to
decide, outdated ones (a claim superseded or retired since) listed apart with every claim's
status, nothing to decide. On the demo workspace (our own generator, core/stores/purifier/demo.py)
and a copy of the real purifier's fixture (how it was made: tests/stores/test_purifier.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.review.contradictions import find_by_rules
from core.stores.purifier.demo import materialize_purifier_demo
from core.stores.registry import open_store
from tests.stores.test_purifier import copied, jsonl, run
from tests.support.tree import hashes


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return materialize_purifier_demo(
        tmp_path / "demo" / "workspace", datetime(2026, 11, 25, tzinfo=UTC)
    )


def test_outdated_contradictions_are_grouped_apart_with_the_claims_status(demo: Path) -> None:
    memory = open_store(demo, "purifier")
    notes = memory.read().notes
    groups = find_by_rules(notes, memory.topic_rules())
    by_id = {n["id"]: n for n in notes}
    records = jsonl(demo / "runtime" / "purified-contradictions.jsonl")
    for record in records:
        sides = {record["claimId"], record["competingClaimId"]}
        group = next(g for g in groups if set(g.note_ids) == sides)
        archived = [i for i in sides if by_id[i]["hidden"]]
        assert bool(group.outdated) == bool(archived)
        for i in sides:
            assert f"{i} {by_id[i]['purifier']['status']}" in group.outdated or not archived
    assert any(g.outdated for g in groups) and any(not g.outdated for g in groups)


def test_conflicts_lists_the_outdated_apart_and_resolve_refuses_them(demo: Path) -> None:
    before = hashes(demo.parent)
    code, out, err = run(demo, "conflicts", "--json")
    assert code == 0, err
    groups = json.loads(out)
    outdated = [g for g in groups if g.get("outdated")]
    assert len(outdated) == 1 and "superseded" in outdated[0]["outdated"]
    code, out, err = run(demo, "conflicts")
    assert out.index("Outdated") < out.index(outdated[0]["id"])
    assert "1 outdated" in err
    for extra in (("--both",), ("--keep", outdated[0]["noteIds"][0])):
        code, _, err = run(demo, "resolve", outdated[0]["id"], *extra, "--apply")
        assert code == 1 and "outdated" in err.splitlines()[-1]
    assert hashes(demo.parent) == before


def test_a_real_open_contradiction_is_not_outdated(tmp_path: Path) -> None:
    workspace = copied(tmp_path, "after-reconciliation")
    groups = json.loads(run(workspace, "conflicts", "--json")[1])
    assert groups and not any(g.get("outdated") for g in groups)
