"""The agent's own morning pass, as the agent runs it, computed on notes without writing: what the
outlooks (outlook.py) tell before a write of ours.

This is not our pass: the agent's keeps no decision of the operator's, and its rules differ
(docs/PASS.md, "The agent's own pass, as it runs it"). Its pass tool loads a fresh shelf first,
and loading re-creates every fact note from its fact: un-archived, its content the fact's
value, its hits the fact's, dated now. Then, on the notes of the nugget `memory` only:

1. it takes the `limit` notes (1 to 10) of highest score, archived ones included: age since
   `updatedAt` in ms, plus an hour without tags, plus an hour without links, minus a day when
   archived; ties keep `updatedAt` order (oldest first), then file order;
2. of those that are visible: archives a low-value one (blank content; at most 2 characters
   and never recalled; or never recalled with a title that *begins* with tmp, temp or scratch,
   whatever follows); else drops blank and repeated lines (and indentation) from its content,
   and retags it when its first six tags change;
3. over every visible note (oldest `updatedAt` first, notes it wrote in step 2 last), merges
   two notes of one subject, scope and type whose token sets are at least 90% alike, neither
   archived nor merged in this run, `limit` merges at most: the longer text wins, its lines and
   the loser's joined without repeats, hits summed; the loser is archived.

Its links (step 4) are not foretold: no outlook tells them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core.clock import epoch_ms, epoch_ms_of, to_iso
from core.models import RawNote
from core.notes import fields
from core.notes.agent_normalize import js_truthy, pass_content
from core.notes.js_strings import (
    JS_SPACE,
    js_lower,
    js_trim,
    normalize_tag,
    normalize_whitespace,
    utf16_length,
)
from core.reflection.merge_index import MergeIndex

NUGGET = "memory"  # the pass tool's only nugget
LIMIT = 10  # the agent clamps whatever it is asked to 1..10
HOUR_MS = 3_600_000
DAY_MS = 86_400_000
SIMILAR = 0.9

# The pass's own stop words (not those of its graph code).
_STOP = frozenset("a an and are as at be by for from in is it of on or the to with".split())
_TOKEN = re.compile(r"[a-z0-9/_:-]{2,}")
_SCRATCH = re.compile(r"^(tmp|temp|scratch)", re.IGNORECASE)
# What the agent's save changes in a content: whitespace other than a lone space or newline, a
# line's leading or trailing space, a run of spaces, three line breaks, and either end.
_OTHER_SPACE = JS_SPACE.replace("\n", "").replace(" ", "")
_UNSAVED = re.compile(f"[{_OTHER_SPACE}]|\\A[ \n]|[ \n]\\Z|  |\n | \n|\n\n\n")

ARCHIVED = "archive"  # as low value
REWRITTEN = "rewrite"  # blank and repeated lines dropped
RETAGGED = "tag"
MERGED_INTO = "merged into"  # archived, its lines joined into the winner's (detail: its id)
ABSORBS = "absorbs"  # the winner of a merge (detail: the loser's id)
BROUGHT_BACK = "brought back"  # a fact note its load un-archives


@dataclass
class AgentPass:
    """What the agent's pass does, by note id: (what, detail) in the order it does it."""

    done: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def tell(self, note_id: str, what: str, detail: str = "") -> None:
        self.done.setdefault(note_id, []).append((what, detail))

    def of(self, note_id: str) -> list[tuple[str, str]]:
        return self.done.get(note_id, [])


def tokens(note: Mapping[str, Any]) -> list[str]:
    """The pass's tokens of a note's title and content: ASCII only."""
    text = js_lower(f"{note.get('title') or ''} {note.get('content') or ''}")
    return [t for t in _TOKEN.findall(text) if t not in _STOP]


def similarity(a: list[str], b: list[str]) -> float:
    left, right = set(a), set(b)
    union = left | right
    return len(left & right) / len(union) if union else 0.0


def low_value(note: Mapping[str, Any]) -> bool:
    content = js_trim(note["content"])
    if not content:
        return True
    never = note["hits"] == 0
    return (utf16_length(content) <= 2 and never) or (bool(_SCRATCH.match(note["title"])) and never)


def derived_tags(note: Mapping[str, Any]) -> list[str]:
    """Its tags after a pass's retag: the first six of its own and those the pass derives."""
    own = [t for t in (js_lower(js_trim(t)) for t in note["tags"]) if t]
    extra = [f"scope:{note['scope']}", f"type:{note['type']}"]
    title, content = js_lower(note["title"]), note["content"]
    extra += [
        tag
        for tag, yes in (
            ("fact", note["kind"] == "fact"),
            ("preferences", title.startswith("pref:")),
            ("learnings", title.startswith("learn")),
            ("files", "/" in content or "." in content),
            ("assistant-self", note["scope"] == "self"),
            ("user-memory", note["scope"] == "user"),
            ("shared-context", note["scope"] in ("shared", "project")),
        )
        if yes
    ]
    for token in tokens(note):
        if len(extra) >= 4:
            break
        if len(token) >= 4:
            extra.append(token)
    return list(dict.fromkeys(own + extra))[:6]


def _age(note: Mapping[str, Any], now_ms: int) -> int:
    updated = epoch_ms_of(note["updatedAt"] or note["createdAt"])
    return 0 if updated is None else max(0, now_ms - updated)


def _score(note: Mapping[str, Any], now_ms: int) -> int:
    score = _age(note, now_ms)
    score += HOUR_MS if not note["tags"] else 0
    score += HOUR_MS if not note["links"] else 0
    return score - (DAY_MS if note["hidden"] else 0)


def loaded(
    notes: Iterable[RawNote], facts: Mapping[str, Mapping[str, Any]], now: str
) -> list[dict[str, Any]]:
    """The notes as the pass's fresh load leaves them (pure): what the pass reads of each, as
    the agent's save writes it, and each fact note of `memory` whose fact (by lower-cased key)
    is in its file re-created from it. Its notes only; the others are never read."""
    out = []
    for note in notes:
        if fields.nugget(note) != NUGGET:
            continue
        form = _form(note)
        key = str(note.get("sourceKey") or "").lower()
        fact = facts.get(key) if form["kind"] == "fact" and key else None
        if fact is not None:
            was = form["hidden"]
            form.update(
                hidden=False,
                content=_saved(str(fact.get("value", ""))),
                updatedAt=now,
                brought_back=was,
            )
            if isinstance(fact.get("hits"), int):
                form["hits"] = fact["hits"]
        out.append(form)
    return out


def _form(note: RawNote) -> dict[str, Any]:
    """What the pass reads of a note, as the agent's save leaves it (`agent_form`, the fields
    the pass reads)."""
    title, content = note.get("title"), note.get("content")
    tags = [normalize_tag(t) for t in note.get("tags") or [] if isinstance(t, str)]
    created = note.get("createdAt")
    updated = note.get("updatedAt") if note.get("updatedAt") is not None else created
    hits = note.get("hits")
    return {
        "id": note["id"],
        "title": js_trim(title) if isinstance(title, str) else "",
        "content": _saved(content) if isinstance(content, str) else "",
        "tags": [t for t in dict.fromkeys(tags) if t],
        "links": note.get("links") or [],
        "hidden": js_truthy(note.get("hidden")),
        "kind": "fact" if note.get("kind") == "fact" else "note",
        "hits": hits if hits is not None else 0,
        "updatedAt": updated if isinstance(updated, str) else "",
        "createdAt": created if isinstance(created, str) else "",
        **{name: fields.meta(note, name) for name in ("subject", "scope", "type")},
    }


def _saved(content: str) -> str:
    """The content as the agent's save writes it; most need nothing, and are seen so fast."""
    return normalize_whitespace(content) if _UNSAVED.search(content) else content


def agent_pass(
    notes: Iterable[RawNote],
    now: datetime,
    facts: Mapping[str, Mapping[str, Any]] | None = None,
    limit: int = LIMIT,
) -> AgentPass:
    """What the agent's pass would do to these notes (graph order) at `now`, its fact file
    holding `facts` (by lower-cased key); writes nothing (pure)."""
    stamp = to_iso(now)
    shelf = loaded(notes, facts or {}, stamp)
    told = AgentPass()
    for form in shelf:
        if form.pop("brought_back", False):
            told.tell(form["id"], BROUGHT_BACK)
    limit = max(1, min(limit, LIMIT))
    now_ms = epoch_ms(now)
    by_age = sorted(shelf, key=lambda n: n["updatedAt"])
    chosen = sorted(by_age, key=lambda n: -_score(n, now_ms))[:limit]
    gone: set[str] = set()
    written = iter(range(1, 1 << 30))  # each write dates the note a little later

    def later() -> str:
        return f"{stamp}~{next(written):09d}"

    for note in chosen:
        if note["hidden"]:
            continue
        if low_value(note):
            note.update(hidden=True, updatedAt=later())
            gone.add(note["id"])
            told.tell(note["id"], ARCHIVED)
            continue
        tags = derived_tags(note)
        normalized = pass_content(note["content"])
        if normalized and normalized != note["content"]:
            note.update(content=normalized, updatedAt=later())
            told.tell(note["id"], REWRITTEN)
        if tags != note["tags"]:
            scoped = [*tags, f"scope:{note['scope']}", f"type:{note['type']}"]
            note.update(
                tags=[t for t in dict.fromkeys(map(normalize_tag, scoped)) if t],
                updatedAt=later(),
            )
            told.tell(note["id"], RETAGGED, ", ".join(tags))
    _merges(sorted(shelf, key=lambda n: n["updatedAt"]), gone, limit, told)
    return told


def _merges(shelf: list[dict[str, Any]], gone: set[str], limit: int, told: AgentPass) -> None:
    """Step 3 over a snapshot of the visible notes: who merges into whom. Each note, in order,
    merges with the first later one it may (core/reflection/merge_index.py finds it without
    comparing every pair, as the agent does)."""
    live = [n for n in shelf if not n["hidden"]]
    sets = [frozenset(tokens(n)) for n in live]
    groups: dict[tuple[str, str, str], list[int]] = {}
    for place, note in enumerate(live):
        if sets[place]:  # no tokens: a Jaccard of 0 for the agent
            groups.setdefault(_group(note), []).append(place)
    indexes = {key: MergeIndex(places, [sets[p] for p in places]) for key, places in groups.items()}
    merged = 0
    for place, a in enumerate(live):
        if merged >= limit:
            break
        if a["id"] in gone or not sets[place]:
            continue
        found = indexes[_group(a)].first_partner(place, lambda p: live[p]["id"] not in gone)
        if found is None:
            continue
        b = live[found]
        winner, loser = (
            (a, b) if utf16_length(a["content"]) >= utf16_length(b["content"]) else (b, a)
        )
        told.tell(winner["id"], ABSORBS, loser["id"])
        told.tell(loser["id"], MERGED_INTO, winner["id"])
        gone.update((a["id"], b["id"]))
        merged += 1


def _group(note: Mapping[str, Any]) -> tuple[str, str, str]:
    return (note["subject"], note["scope"], note["type"])
