"""Small hand-built notes and homes for the rule tests (docs/FORMATS.md, PASS.md, RUNS.md,
PROMOTION.md).

`note()` builds a note that phase 2 leaves alone: kind fact, and tags that are exactly the four
derived ones (scope, type, `fact`, the scope's tag), so the token fill never runs. Content given to
it should hold no `/` or `.` (that would derive `files`) and be normalized already. Tests of one
phase can then assert the exact ReflectionResult without noise from the others.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bench.generate import generate
from core.reflection.reflect import plan_pass
from tests.support.moments import at

NOW = at("2026-11-01T09:00:00Z")
NOW_ISO = "2026-11-01T09:00:00.000Z"
OLD = "2026-10-01T00:00:00.000Z"
SCOPE_TAG = {
    "self": "assistant-self",
    "user": "user-memory",
    "shared": "shared-context",
    "project": "shared-context",
}


def tidy_tags(scope: str, type_: str) -> list[str]:
    """The tags phase 2 of the pass (docs/PASS.md) derives for a fact note of this scope and
    type."""
    return [f"scope:{scope}", f"type:{type_}", "fact", SCOPE_TAG[scope]]


def note(note_id: str, content: str = "", title: str = "", **extra: Any) -> dict[str, Any]:
    scope = extra.get("scope", "project")
    type_ = extra.get("type", "fact")
    built: dict[str, Any] = {
        "id": note_id,
        "nuggetName": "project",
        "title": title,
        "content": content,
        "tags": tidy_tags(scope, type_) if scope in SCOPE_TAG else [],
        "links": [],
        "hidden": False,
        "kind": "fact",
        "hits": 0,
        "subject": "shared:project",
        "scope": scope,
        "type": type_,
        "createdAt": OLD,
        "updatedAt": OLD,
    }
    built.update(extra)
    return built


def link(to: str, reason: str = "seen together", created_at: str = OLD) -> dict[str, str]:
    return {"to": to, "reason": reason, "createdAt": created_at}


def run_pass(
    notes: list[dict[str, Any]],
    nugget: str | None = None,
    limit: int | None = 10,
    uncapped: bool = False,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The pass as JSON (the ReflectionResult) and the notes after it, by id."""
    outcome = plan_pass(notes, NOW, nugget, limit, uncapped)
    return outcome.result.to_json_dict(), {n["id"]: n for n in outcome.workspace.notes}


def result(
    inspected: int, changes: list[tuple[str, str, str]], nugget: str = "project"
) -> dict[str, Any]:
    """The expected ReflectionResult JSON for (type, noteId, detail) changes, counted by hand."""
    counts = {"rewrite": 0, "merge": 0, "hide": 0, "tag": 0, "link": 0}
    for change_type, _, _ in changes:
        counts[change_type] += 1
    return {
        "ranAt": NOW_ISO,
        "inspected": inspected,
        "rewritten": counts["rewrite"],
        "merged": counts["merge"],
        "hidden": counts["hide"],
        "tagged": counts["tag"],
        "linked": counts["link"],
        "changes": [
            {"type": t, "nuggetName": nugget, "noteId": i, "detail": d} for t, i, d in changes
        ],
    }


def mixed_notes() -> list[dict]:
    """One note per kind of change, a hidden note linking to the merge loser, an untouched one."""
    return [
        note("h", "scratch words here", title="tmp"),
        note("r", "alpha  beta gamma", tags=["Ops"]),
        note("m1", "kappa lambda mu nu"),
        note("m2", "kappa lambda mu nu", hits=2),
        note("l1", "omega sigma tau"),
        note("l2", "sigma omega upsilon"),
        note("ref", "zulu yankee", links=[link("m2")], hidden=True),
        note("u", "untouched words", links=[link("x"), link("y")]),
    ]


def canonical_bytes(doc: dict[str, Any]) -> bytes:
    """A graph document as the engine writes it (indent 2, UTF-8, trailing newline)."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def make_home(root: Path, notes: list[dict[str, Any]], extra: dict[str, Any] | None = None) -> Path:
    """A home whose graph file holds `notes`, written in the engine's own format."""
    home = root / "home"
    (home / "graph").mkdir(parents=True)
    doc = {"version": 3, **(extra or {}), "notes": notes}
    (home / "graph" / "graph.json").write_bytes(canonical_bytes(doc))
    return home


def sample_notes(count: int = 1000) -> list[dict[str, Any]]:
    """An ordinary agent memory of `count` notes (`bench/generate.py`, fixed seed): realistic
    text, a few near-duplicates, low-value and archived notes, typed and dangling links."""
    return generate(count)["notes"]


def graph_file(home: Path) -> Path:
    return home / "graph" / "graph.json"


def file_notes(home: Path) -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in json.loads(graph_file(home).read_bytes())["notes"]}


def tree_snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and directory (None) under root, by relative path."""
    snapshot: dict[str, bytes | None] = {}
    for directory, dirs, files in os.walk(root):
        base = Path(directory)
        for name in dirs:
            snapshot[str((base / name).relative_to(root)) + "/"] = None
        for name in files:
            snapshot[str((base / name).relative_to(root))] = (base / name).read_bytes()
    return snapshot
