"""Deterministic benchmark graphs: realistic text and token overlap, ~3% near-duplicates,
~2% low-value notes, messy whitespace, links."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from core.clock import to_iso

NUGGETS = ("user", "project", "agent")
SHAPES = {
    "user": ("user:primary", "user", ("preference", "fact", "note")),
    "project": ("shared:project", "project", ("project", "fact", "note")),
    "agent": ("assistant:self", "self", ("self_model", "reflection", "style")),
}
TOPICS = (
    "deploy",
    "billing",
    "auth",
    "search",
    "ingest",
    "reports",
    "webhooks",
    "cache",
    "onboarding",
    "metrics",
    "exports",
    "scheduler",
    "payments",
    "uploads",
    "sessions",
)
THINGS = (
    "redis",
    "postgres",
    "fastify",
    "httpx",
    "pnpm",
    "terraform",
    "docker",
    "nginx",
    "celery",
    "kafka",
    "sqlite",
    "vite",
    "pytest",
    "ruff",
    "grafana",
    "sentry",
)
VERBS = (
    "depends on",
    "breaks without",
    "is configured by",
    "is tested with",
    "logs through",
    "is deployed with",
    "caches in",
    "talks to",
)
PATHS = (
    "src/auth/keys/public.pem",
    "infra/terraform/main.tf",
    ".github/workflows/ci.yml",
    "src/db/migrations",
    "config/settings.toml",
    "scripts/release.sh",
)
KINDS = ("notes", "quirks", "setup", "facts")
BASE = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def _sentence(rng: random.Random) -> str:
    topic, thing = rng.choice(TOPICS), rng.choice(THINGS)
    tail = rng.choice(
        (
            "",
            f" see {rng.choice(PATHS)}",
            f" since v{rng.randint(1, 9)}.{rng.randint(0, 20)}",
            f" (ticket {rng.randint(100, 99999)})",
            f" for team {rng.randint(1, 400)}",
        )
    )
    return f"the {topic} service {rng.choice(VERBS)} {thing}{tail}."


def _messy(rng: random.Random, lines: list[str]) -> str:
    if rng.random() < 0.1:
        lines = lines + [lines[0]]
    if rng.random() < 0.1:
        lines = [line.replace(" ", "  ") + "  " for line in lines]
    joiner = "\r\n" if rng.random() < 0.03 else ("\n\n\n" if rng.random() < 0.05 else "\n")
    return joiner.join(lines)


def _note(rng: random.Random, index: int, nugget: str, moment: datetime) -> dict[str, Any]:
    subject, scope, types = SHAPES[nugget]
    lines = [_sentence(rng) for _ in range(rng.randint(1, 4))]
    stamp = to_iso(moment)
    return {
        "id": f"note-{nugget}-{index:08x}",
        "nuggetName": nugget,
        "title": f"{rng.choice(TOPICS)} {rng.choice(THINGS)} {rng.choice(KINDS)}",
        "content": _messy(rng, lines),
        "tags": rng.choice(([], [], [nugget], [rng.choice(TOPICS).title()])),
        "links": [],
        "hidden": rng.random() < 0.02,
        "kind": rng.choice(("note", "note", "fact")),
        "hits": rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 6)),
        "lastHitSession": f"sess-{rng.randint(0, 99999):05x}",
        "createdAt": stamp,
        "updatedAt": stamp,
        "lastAccessedAt": stamp,
        "subject": subject,
        "scope": scope,
        "type": rng.choice(types),
        "source": "agent_reflection",
        "confidence": round(rng.uniform(0.4, 0.95), 2),
        "stability": "durable",
        "vector": {"seed": index, "basis": [f"topic:{rng.choice(TOPICS)}"]},
    }


def _near_duplicate(rng: random.Random, original: dict[str, Any], index: int) -> dict[str, Any]:
    copy = dict(original, id=f"{original['id'][:-8]}{index:08x}", links=[], tags=[])
    copy["content"] = (
        original["content"].upper() if rng.random() < 0.5 else original["content"] + " "
    )
    return copy


def _low_value(rng: random.Random, note: dict[str, Any]) -> None:
    choice = rng.randrange(3)
    note["hits"] = 0
    if choice == 0:
        note["content"] = rng.choice(("", "  ", "ok"))
    else:
        note["title"] = rng.choice(("tmp", "Temp notes", "scratch: idea", "tmp_1"))


def generate(count: int, seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    notes: list[dict[str, Any]] = []
    for index in range(count):
        moment = BASE - timedelta(minutes=rng.randint(60, 90 * 24 * 60))
        if notes and rng.random() < 0.03:
            note = _near_duplicate(rng, rng.choice(notes[-200:]), index)
        else:
            note = _note(rng, index, rng.choice(NUGGETS), moment)
            if rng.random() < 0.02:
                _low_value(rng, note)
        notes.append(note)
    for note in notes:
        for _ in range(rng.choice((0, 0, 1, 2))):
            target = notes[rng.randrange(len(notes))]
            if target is not note and target["nuggetName"] == note["nuggetName"]:
                note["links"].append(
                    {"to": target["id"], "reason": "related", "createdAt": note["createdAt"]}
                )
    return {"version": 3, "notes": notes}
