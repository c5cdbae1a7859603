"""A pair let "both stand" stays decided through the agent's own rewrites of its notes
(docs/VERDICTS.md, "Both stand"): its save, which collapses whitespace, and its morning pass,
which drops blank lines; a change of what a note says asks again.

tests/fixtures/agent_whitespace/ was made by running the agent's own code (its `donna` fork,
commit e56bfd4, src/nuggets/ compiled unchanged with tsc and run under Node 20, outside this
repository; only the data it wrote is kept here):

- `graph-before.json`: six notes written as a tool other than the agent would write them, among
  them a contradiction pair (`user:pref:indent`) whose first note holds CRLF, a tab, runs of
  spaces, four blank lines, indentation and a trailing NBSP;
- `conflicts-settled-raw-key.json`: what `nuggets resolve <pair> --both --apply` of the version
  before this test wrote for that pair (its key taken on the raw text);
- `graph-after-agent-start.json`: the graph after the agent's next start (its load and save
  normalise every note's whitespace, nothing else changes);
- `graph-after-agent-pass.json`: after the agent's morning pass (`reflectAndCleanMemory`), which
  rewrote both notes of the pair without their blank line, retagged and linked.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from core.models import RawNote
from core.review.contradictions import Group, find_contradictions
from core.review.decisions import open_groups, read_settled, settled_key

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "agent_whitespace"
PAIR = "user:pref:indent"


def _notes(name: str) -> list[RawNote]:
    notes: list[RawNote] = json.loads((FIXTURE / name).read_text(encoding="utf-8"))["notes"]
    return notes


def _pair(notes: list[RawNote]) -> tuple[list[Group], dict[str, RawNote]]:
    groups = [g for g in find_contradictions(notes) if g.topic == PAIR]
    assert len(groups) == 1
    return groups, {n["id"]: n for n in notes}


def test_both_stand_holds_through_the_agents_save_and_its_pass() -> None:
    groups, by_id = _pair(_notes("graph-before.json"))
    settled = {settled_key(by_id[i] for i in groups[0].note_ids)}
    for later in ("graph-after-agent-start.json", "graph-after-agent-pass.json"):
        groups, by_id = _pair(_notes(later))
        assert open_groups(groups, by_id, settled) == [], later


def test_a_change_of_what_a_note_says_asks_again() -> None:
    groups, by_id = _pair(_notes("graph-before.json"))
    settled = {settled_key(by_id[i] for i in groups[0].note_ids)}
    notes = _notes("graph-after-agent-pass.json")
    first = next(n for n in notes if n["title"] == PAIR)
    first["content"] = first["content"].replace("tabs", "tabs only")
    groups, by_id = _pair(notes)
    assert open_groups(groups, by_id, settled) == groups


def test_a_file_written_with_raw_keys_still_reads_its_pairs_as_let_stand(tmp_path: Path) -> None:
    shutil.copyfile(FIXTURE / "conflicts-settled-raw-key.json", tmp_path / "conflicts-settled.json")
    settled = read_settled(tmp_path)
    groups, by_id = _pair(_notes("graph-before.json"))
    assert settled_key(by_id[i] for i in groups[0].note_ids) not in settled  # the old key
    assert open_groups(groups, by_id, settled) == []
