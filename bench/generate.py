"""Deterministic benchmark graphs: ordinary agent memories of any size, and shapes beyond them.

Realistic text (template sentences with names, paths, versions and ticket numbers, so notes share
common words but rarely whole sentences), ~3% near-duplicates of earlier notes (same text up to
case, whitespace or one extra word), ~2% low-value notes (blank, tiny, tmp-titled), messy
whitespace (repeated lines, tabs, double spaces, CRLF, blank-line runs), typed links with a few
duplicate and dangling ones, archived notes, hits 0-6, and a vector basis on every note.

A large memory to try the console on: `python -m bench.generate --notes 100000 --out DIR`
writes DIR/graph/graph.json, which `nuggets --home DIR` opens.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core.clock import to_iso
from core.notes.text import note_tokens
from core.safeio.atomic_write import atomic_write
from core.stores.nuggets.graph_file import dump_graph, graph_path

NOW = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
NEAR_DUPLICATES = 0.03
LOW_VALUE = 0.02
ARCHIVED = 0.02
PROGRESS_EVERY = 10_000

P = {
    "name": "Ana Maria Denis Kenji Priya Omar Lena Tomas Sofia Ravi Chen Ines Marco Yuki Olga "
    "Pablo Noor Felix Hana Ivan Lucia Sam Aisha Jonas Mei".split(),
    "editor": "Cursor Zed VS-Code Neovim JetBrains Helix Emacs Sublime".split(),
    "theme": ["dark mode", "light mode", "high contrast", "solarized", "large fonts"],
    "os": ["macOS", "Ubuntu", "Arch Linux", "Windows 11", "Fedora", "NixOS"],
    "machine": ["ThinkPad", "Mac mini", "MacBook Air", "desktop tower", "Framework laptop"],
    "phone": ["an Android phone", "an iPhone", "a Pixel", "a Fairphone"],
    "relation": ["mother", "father", "partner", "sister", "brother", "friend", "colleague"],
    "month": "January February March April May June July August September October November "
    "December".split(),
    "weekday": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
    "remind": [
        "invoices",
        "domain renewals",
        "standups",
        "taxes",
        "backups",
        "1:1s",
        "rent",
        "gym",
        "medication",
        "plant watering",
        "passport renewal",
    ],
    "fav": ["coffee shop", "keyboard", "IDE", "podcast", "restaurant", "font", "shell"],
    "favval": [
        "the corner cafe",
        "a split keyboard",
        "Berkeley Mono",
        "fish",
        "zsh",
        "the ramen place",
        "a 60% board",
        "JetBrains Mono",
        "Hacker News",
    ],
    "place": [
        "university",
        "Medellin",
        "Lisbon",
        "the climbing gym",
        "a hackathon",
        "Berlin",
        "the old job",
        "Osaka",
    ],
    "topic": ["AI agents", "climbing", "chess", "rust", "startups", "music", "gardening"],
    "lang": ["Go", "Python", "Rust", "TypeScript", "Bash", "Zig", "Kotlin", "Elixir"],
    "task": ["quick scripts", "CLIs", "data work", "web backends", "prototypes"],
    "product": ["SaaS subscriptions", "handmade ceramics", "online courses", "coffee beans"],
    "platform": ["Shopify", "Stripe", "Gumroad", "Etsy", "Paddle"],
    "component": [
        "router",
        "gateway",
        "indexer",
        "billing",
        "scheduler",
        "worker",
        "api",
        "cron runner",
        "webhook relay",
        "telemetry",
        "search",
        "media upload",
        "heartbeat loop",
        "auth service",
        "notifier",
        "sync engine",
        "importer",
    ],
    "lib": "express fastify zod pino typebox prisma drizzle httpx pydantic celery redis kafka "
    "tokio axum serde sqlx".split(),
    "purpose": [
        "HTTP calls",
        "validation",
        "job queues",
        "logging",
        "caching",
        "retries",
        "schema checks",
        "rate limits",
        "auth tokens",
        "migrations",
    ],
    "runtime": ["Node 20", "Bun 1.1", "Deno 2", "Python 3.11", "Go 1.22", "Rust 1.79"],
    "proxy": ["nginx", "Caddy", "HAProxy", "Traefik", "Envoy"],
    "port": ["3000", "4000", "8000", "8080", "9000", "5173"],
    "trigger": [
        "the OAuth token expires",
        "two cron jobs overlap",
        "a webhook times out",
        "the queue backs up",
        "the model API rate limits us",
        "disk fills up",
        "the cache is cold",
        "DNS flaps",
    ],
    "path": [
        "src/gateway/cron.ts",
        "infra/terraform/main.tf",
        ".github/workflows/ci.yml",
        "src/db/migrations",
        "config/settings.yaml",
        "docker-compose.yml",
        "docs/ARCHITECTURE.md",
        "tests/integration",
        "src/auth/keys.ts",
        "scripts/release.sh",
        "src/nuggets/graph.ts",
        "packages/ui/button.tsx",
    ],
    "cmd": [
        "cargo clippy",
        "tsc --noEmit",
        "ruff check .",
        "npm run lint",
        "go vet ./...",
        "pytest -x",
        "pnpm test",
    ],
    "flag": [
        "new_onboarding",
        "memory_v2",
        "proactive_pings",
        "fast_search",
        "dark_launch",
        "smart_reminders",
        "batch_sync",
    ],
    "feature": ["recall", "search", "reminders", "reflection", "onboarding", "billing"],
    "env": ["staging", "the demo box", "canary", "preview"],
    "monitor": ["Loki", "Grafana", "CloudWatch", "Sentry", "Datadog"],
    "logsink": ["Grafana Cloud", "Loki", "CloudWatch", "Papertrail"],
    "branch": ["main", "release", "staging", "develop"],
    "ci": ["GitHub Actions", "GitLab CI", "Buildkite", "CircleCI"],
    "suite": ["smoke", "integration", "contract", "end-to-end"],
    "deploy": ["pm2 reload", "kubectl rollout", "fly deploy", "a blue-green switch"],
    "db": ["Postgres 14", "Postgres 16", "MySQL 8", "SQLite", "CockroachDB"],
    "fmt": ["ruff format", "prettier", "gofmt", "rustfmt", "biome"],
    "action": [
        "run the tests first",
        "cite the file path",
        "double-check dates",
        "confirm reminders",
        "keep answers short",
        "offer a summary",
        "ask before deleting",
    ],
    "situation": [
        "the user is busy",
        "a task is ambiguous",
        "the request touches production",
        "a cron job fails",
        "the user is on mobile",
        "it is late at night",
    ],
    "risky": [
        "file deletions",
        "production changes",
        "sending emails",
        "force pushes",
        "spending money",
    ],
    "tone": ["warm but direct", "calm", "playful", "concise", "formal"],
    "insight": [
        "reminders work better with an exact time",
        "long answers on WhatsApp get ignored",
        "I over-explained the deploy steps yesterday",
        "the user likes bullet lists",
        "asking one question at a time works better",
        "summaries need the decision first",
    ],
    "channel": ["email", "Slack", "WhatsApp", "Discord", "Telegram"],
    "pending": [
        "the onboarding flow",
        "a flaky test",
        "the memory cleanup",
        "the invoice format",
        "the release date",
        "the new schema",
    ],
    "project": [
        "the mobile app",
        "the memory graph",
        "the landing page",
        "the billing revamp",
        "the CLI",
        "the data pipeline",
    ],
    "bug": ["Discord reactions", "timezone", "double send", "stale cache", "login loop"],
    "daypart": ["mornings", "evenings", "weekends", "late nights"],
    "music": ["techno", "lo-fi", "jazz", "silence", "film scores"],
}

USER = [
    "User prefers {theme} in {editor}.",
    "User uses {os} on a {machine} and {phone} as a phone.",
    "User's {relation} {name} has a birthday on {month} {day}. User wants a reminder a week "
    "before.",
    "User wants reminders for {remind} every {weekday}.",
    "User's favourite {fav} is {favval}.",
    "{name} is a friend from {place}; they talk about {topic}.",
    "User works on {project} most {daypart}. User prefers {music} while coding.",
    "User prefers {lang} over {lang} for {task}.",
    "User's business sells {product} through {platform}. User wants weekly numbers on {weekday}.",
]
PROJECT = [
    "the {component} depends on {lib} for {purpose}.",
    "The {component} service runs on {runtime} behind {proxy} on port {port}.",
    "Known issue: {component} leaks memory when {trigger}. Workaround is to restart the "
    "{component} worker and check {path}.",
    "Tests in {path} are flaky when {trigger}. Re-run with {cmd} before blaming the code.",
    "Feature flag {flag} gates the new {feature} flow. Turn {flag} on in {env} first and watch "
    "{monitor}.",
    "Logs for {component} ship to {logsink} with {days} day retention.",
    "Config for {component} is read from {path} and overridden by env vars.",
    "Edited {path} to fix {purpose} in {component}.",
    "Run {cmd} before pushing to {branch}. CI pipeline on {ci} runs lint, unit tests and {suite} "
    "tests.",
    "Deploys to {env} happen via {deploy} every {weekday}.",
    "Staging database is {db}; production uses managed {db}.",
    "The {component} repo uses {lang} with {fmt} for formatting.",
]
AGENT = [
    "I should {action} when {situation}.",
    "When unsure about {risky}, I ask a clarifying question first.",
    "My tone with the user is {tone}.",
    "Reflection: {insight}.",
    "I summarize long threads before answering on {channel}.",
]
SESSION = [
    "Waiting for the user to confirm {pending} for {project}.",
    "User is currently working on {project}, the {bug} bug.",
]
DECORATIONS = (
    " checked on 2026-{m:02d}-{d:02d}",
    " since v{a}.{b}.{c}",
    " ticket OPS-{n}",
    " (PR #{n})",
    " per thread {n}",
    " as of build {n}",
)
# nugget -> [(weight, subject, scope, types, templates, title styles)]
SHAPES: dict[str, list[tuple[float, str, str, tuple[str, ...], list[str]]]] = {
    "user": [
        (
            1.0,
            "user:primary",
            "user",
            ("preference", "preference", "note", "fact", "relationship"),
            USER,
        )
    ],
    "project": [
        (0.6, "shared:project", "project", ("project", "project", "note", "fact"), PROJECT),
        (0.4, "shared:project", "shared", ("project", "note", "fact"), PROJECT),
    ],
    "agent": [
        (
            0.55,
            "assistant:self",
            "self",
            ("self_model", "self_model", "style", "reflection"),
            AGENT,
        ),
        (0.45, "session:current", "session", ("note",), SESSION),
    ],
}
NUGGET_WEIGHTS = (("project", 0.44), ("user", 0.36), ("agent", 0.20))
TITLE_TRAPS = (
    "Template for standup notes",
    "Temperature setting for the local model",
    "Temporal workflows",
    "scratchy audio on calls",
)
LINK_REASONS = ("related note", "same project", "see also", "follow-up")
SOURCES = ("explicit_user", "explicit_user", "tool_observation", "inferred", "agent_reflection")


def _fill(rng: random.Random, template: str) -> str:
    values = {key: rng.choice(P[key]) for key in P if "{" + key + "}" in template}
    return template.format(day=rng.randint(1, 28), days=rng.choice((7, 14, 30, 90)), **values)


def _decorate(rng: random.Random, sentence: str) -> str:
    if rng.random() < 0.08:
        return sentence
    tail = rng.choice(DECORATIONS).format(
        m=rng.randint(1, 10),
        d=rng.randint(1, 28),
        a=rng.randint(1, 4),
        b=rng.randint(0, 20),
        c=rng.randint(0, 9),
        n=rng.randint(100, 99999),
    )
    return sentence[:-1] + tail + "."


def _title(rng: random.Random, nugget: str, sentence: str) -> str:
    words = [w.strip(".,;:()'") for w in sentence.split()[:6] if len(w) > 3]
    slug = "_".join(w.lower() for w in words[:3]) or "note"
    style = rng.randrange(5)
    if style == 0:
        return f"{nugget}:{slug}"
    if style == 1 and nugget == "user":
        return f"pref: {' '.join(words[1:3])}"
    if style == 1 and nugget == "agent":
        return f"learned: {' '.join(words[:2])}"
    if style == 2:
        return " ".join(words[:3]).lower()
    if rng.random() < 0.01:
        return rng.choice(TITLE_TRAPS)
    return " ".join(words[:4])


def _messy(rng: random.Random, lines: list[str]) -> str:
    roll = rng.random()
    if roll < 0.08:
        lines = lines + [lines[0]]
    elif roll < 0.12:
        lines = ["\t" + line.replace(" ", " \t", 1) for line in lines]
    elif roll < 0.18:
        lines = [line.replace(" ", "  ", 2) + "   " for line in lines]
    joiner = "\n" if rng.random() < 0.5 else " "
    roll = rng.random()
    if roll < 0.03:
        joiner = "\r\n"
    elif roll < 0.06:
        joiner = "\n\n\n"
    text = joiner.join(lines)
    if rng.random() < 0.02:
        text = f"\n{text}\n\n"
    return text


def _stamps(rng: random.Random) -> tuple[str, str]:
    created = NOW - timedelta(days=rng.uniform(5, 400))
    updated = min(created + timedelta(days=rng.expovariate(1 / 30)), NOW - timedelta(hours=1))
    return to_iso(created), to_iso(updated)


def _basis(note: dict[str, Any]) -> list[str]:
    title_tokens = note_tokens(note["title"], "")[:3]
    content_tokens = note_tokens("", note["content"])[:6]
    return [
        f"kind:{note['kind']}",
        f"subject:{note['subject']}",
        f"scope:{note['scope']}",
        f"type:{note['type']}",
        f"source:{note['source']}",
        f"stability:{note['stability']}",
        f"note:{note['id']}",
        *(f"title:{t}" for t in title_tokens),
        *(f"content:{t}" for t in content_tokens),
    ]


def _note(rng: random.Random, index: int) -> dict[str, Any]:
    nugget = rng.choices([n for n, _ in NUGGET_WEIGHTS], [w for _, w in NUGGET_WEIGHTS])[0]
    shapes = SHAPES[nugget]
    _, subject, scope, types, templates = rng.choices(shapes, [s[0] for s in shapes])[0]
    lines = [
        _decorate(rng, _fill(rng, rng.choice(templates)))
        for _ in range(rng.choice((1, 1, 2, 2, 2, 3)))
    ]
    kind = "fact" if rng.random() < 0.29 else "note"
    created, updated = _stamps(rng)
    # An odd multiplier makes the id a bijection of the index, so ids never collide.
    note_id = f"{kind}-{nugget}-{(index * 2654435761 + 12345) % 2**32:08x}"
    note_type = rng.choice(types)
    tags = rng.choice(
        (
            [],
            [],
            [nugget],
            [nugget, f"scope:{scope}", f"type:{note_type}"],
            [nugget.title(), " Ops Notes "],
        )
    )
    note: dict[str, Any] = {
        "id": note_id,
        "nuggetName": nugget,
        "title": _title(rng, nugget, lines[0]),
        "content": _messy(rng, lines),
        "tags": tags,
        "links": [],
        "vector": {},
        "hidden": False,
        "kind": kind,
        "hits": rng.choice((0, 0, 0, 0, 1, 2, 3, 4, 5, 6)),
        "lastHitSession": f"sess-{rng.getrandbits(24):06x}",
        "createdAt": created,
        "updatedAt": updated,
        "lastAccessedAt": updated,
        "subject": subject,
        "scope": scope,
        "type": note_type,
        "source": rng.choice(SOURCES),
        "confidence": round(rng.uniform(0.5, 0.95), 2),
        "stability": "durable" if rng.random() < 0.9 else "temporary",
    }
    if kind == "fact":
        note["sourceKey"] = note["title"].strip().lower().replace(" ", "_")
    return note


def _near_duplicate(rng: random.Random, original: dict[str, Any], index: int) -> dict[str, Any]:
    copy = {**original, "tags": list(original["tags"]), "links": [], "hidden": False}
    copy["id"] = f"{original['id'][:-8]}{(index * 2654435761 + 12345) % 2**32:08x}"
    copy.pop("archivedAt", None)
    content = original["content"]
    roll = rng.random()
    if roll < 0.3:
        content = content.upper()
    elif roll < 0.6 and len(note_tokens(copy["title"], content)) >= 10:
        content = content + " Reconfirmed."
    elif roll < 0.8:
        content = "  " + content.replace(" ", "  ", 3) + "\n"
    copy["content"] = content
    copy["createdAt"], copy["updatedAt"] = _stamps(rng)
    copy["lastAccessedAt"] = copy["updatedAt"]
    return copy


def _low_value(rng: random.Random, note: dict[str, Any]) -> None:
    note["hits"] = 0
    if rng.random() < 0.5:
        note["content"] = rng.choice(("", "  ", "ok", "x", "\n"))
    else:
        note["title"] = rng.choice(("tmp", "Temp notes", "scratch: idea", "tmp_1", "TMP"))


def _link(rng: random.Random, note: dict[str, Any], target: str) -> dict[str, str]:
    stamp = max(note["createdAt"], note["updatedAt"])
    return {"to": target, "reason": rng.choice(LINK_REASONS), "createdAt": stamp}


def _add_links(rng: random.Random, notes: list[dict[str, Any]]) -> None:
    by_nugget: dict[str, list[str]] = {}
    for note in notes:
        by_nugget.setdefault(note["nuggetName"], []).append(note["id"])
    for note in notes:
        pool = by_nugget[note["nuggetName"]]
        for _ in range(rng.choice((0, 0, 0, 1, 1, 1, 2, 2, 3))):
            target = rng.choice(pool)
            if target != note["id"]:
                note["links"].append(_link(rng, note, target))
        if note["links"] and rng.random() < 0.01:
            note["links"].append(dict(note["links"][0]))
        if rng.random() < 0.005:
            note["links"].append(_link(rng, note, "note-gone-00000000"))


@dataclass(frozen=True)
class Shape:
    """What a generated graph looks like beyond today's sample (`TODAY`): parameters only, so
    the engine sees ordinary notes and never a special case."""

    label: str
    near_duplicates: float = NEAR_DUPLICATES  # share of notes copied from one earlier note
    cluster: int = 1  # near-duplicates come in clusters of this many copies of one note
    nugget: str | None = None  # every note in this one nugget (subjects and scopes kept)
    zipf_words: int = 0  # content drawn from a Zipf vocabulary of this many words (0: templates)
    zipf_nuggets: int = 5  # nuggets of the Zipf notes
    never_linkable: float = 0.0  # share of notes that are empty or one word
    one_link: float = 0.0  # share of notes given exactly one link (0: today's link counts)
    hub_every: int = 0  # one hub note per this many notes (at least one; 0: none)
    hub_backlinks: int = 10_000  # links into each hub, from notes drawn at random
    long_notes: int = 0  # this many notes of `long_bytes` each
    long_bytes: int = 10_000
    own_subjects: bool = False  # each note its own subject, scope user: no two compatible


TODAY = Shape("today's sample")
SHAPES_BY_NUMBER = {
    1: TODAY,
    2: Shape(
        "5% never linkable, Zipf vocabulary", zipf_words=20_000, never_linkable=0.05, one_link=0.2
    ),
    3: Shape("one nugget holding everything", nugget="everything"),
    4: Shape("no duplicates", near_duplicates=0.0),
    5: Shape("10% in clusters of near-duplicates", near_duplicates=0.10, cluster=10),
    6: Shape("hubs with 10,000 backlinks", hub_every=20_000),
    7: Shape("10,000 long notes (10 KB)", long_notes=10_000),
    8: Shape(
        "one nugget, shared tokens, incompatible subjects",
        nugget="user",
        own_subjects=True,
        near_duplicates=0.0,
    ),
}


def _zipf_text(rng: random.Random, weights: list[float], words: int) -> str:
    chosen = rng.choices(range(len(weights)), cum_weights=weights, k=words)
    return " ".join(f"w{index}" for index in chosen)


def _reshape(
    rng: random.Random, note: dict[str, Any], index: int, shape: Shape, zipf: list[float]
) -> None:
    if shape.zipf_words:
        note["nuggetName"] = f"n{rng.randrange(shape.zipf_nuggets)}"
        note["content"] = _zipf_text(rng, zipf, rng.randint(5, 30))
        note["title"] = _zipf_text(rng, zipf, 2)
    if shape.long_notes and index < shape.long_notes:
        lines: list[str] = []
        while sum(map(len, lines)) < shape.long_bytes:
            lines.append(_decorate(rng, _fill(rng, rng.choice(PROJECT + USER))))
        note["content"] = "\n".join(lines)
    if shape.own_subjects:
        note["subject"], note["scope"] = f"user:{index}", "user"
    if shape.nugget is not None:
        note["nuggetName"] = shape.nugget
    if rng.random() < shape.never_linkable:
        note["title"] = ""
        note["content"] = rng.choice(("", f"w{rng.randrange(50)}"))


def _near(rng: random.Random, notes: list[dict[str, Any]], shape: Shape) -> dict[str, Any]:
    """The note a near-duplicate copies: any earlier one, or the head of the current cluster."""
    if shape.cluster <= 1:
        return rng.choice(notes)
    return notes[-1 - (len(notes) - 1) % shape.cluster]


def _shape_links(rng: random.Random, notes: list[dict[str, Any]], shape: Shape) -> None:
    if shape.one_link:
        for note in notes:
            note["links"] = []
            if rng.random() < shape.one_link:
                target = rng.choice(notes)["id"]
                if target != note["id"]:
                    note["links"].append(_link(rng, note, target))
    hubs = max(1, len(notes) // shape.hub_every) if shape.hub_every else 0
    for hub in notes[:hubs]:
        for source in rng.sample(notes, min(shape.hub_backlinks, len(notes))):
            if source is not hub:
                source["links"].append(_link(rng, source, hub["id"]))


def generate(
    count: int, seed: int = 7, shape: Shape = TODAY, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """A graph document of `count` notes; the same count, seed and shape give the same
    document (today's shape gives the document it always gave). `progress` hears the number
    of notes made so far, every `PROGRESS_EVERY` notes."""
    rng = random.Random(seed)
    zipf: list[float] = []
    for rank in range(1, shape.zipf_words + 1):
        zipf.append((zipf[-1] if zipf else 0.0) + 1 / rank**1.1)
    notes: list[dict[str, Any]] = []
    for index in range(count):
        if progress is not None and index and index % PROGRESS_EVERY == 0:
            progress(index)
        if shape.cluster > 1:
            in_cluster = (
                index % shape.cluster != 0
                and notes
                and ((index // shape.cluster) % round(1 / shape.near_duplicates) == 0)
            )
            if in_cluster:
                notes.append(_near_duplicate(rng, _near(rng, notes, shape), index))
                continue
        elif notes and rng.random() < shape.near_duplicates:
            notes.append(_near_duplicate(rng, _near(rng, notes, shape), index))
            continue
        note = _note(rng, index)
        if shape != TODAY:
            _reshape(rng, note, index, shape, zipf)
        if rng.random() < LOW_VALUE:
            _low_value(rng, note)
        elif rng.random() < ARCHIVED:
            note["hidden"] = True
            note["archivedAt"] = note["updatedAt"]
        notes.append(note)
    _add_links(rng, notes)
    _shape_links(rng, notes, shape)
    for index, note in enumerate(notes):
        note["vector"] = {
            "seed": index,
            "basis": _basis(note) + [f"link:{link['to']}" for link in note["links"]],
        }
    return {"version": 3, "notes": notes}


# -- the command line ------------------------------------------------------------------------

SHAPE_NAMES = {
    "today": 1,
    "zipf": 2,
    "one-nugget": 3,
    "no-duplicates": 4,
    "clusters": 5,
    "hubs": 6,
    "long-notes": 7,
    "incompatible": 8,
}
MAX_NOTES = 10_000_000


def _note_count(text: str) -> int:
    try:
        count = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= count <= MAX_NOTES:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_NOTES:,}, not {count:,}")
    return count


def _shape(text: str) -> Shape:
    number = SHAPE_NAMES.get(text.lower(), int(text) if text.isdigit() else 0)
    if number not in SHAPES_BY_NUMBER:
        raise argparse.ArgumentTypeError(
            f"no shape {text!r}; known: {', '.join(SHAPE_NAMES)} (or 1-{len(SHAPES_BY_NUMBER)})"
        )
    return SHAPES_BY_NUMBER[number]


def _parser() -> argparse.ArgumentParser:
    shapes = "; ".join(
        f"{name}: {SHAPES_BY_NUMBER[number].label}" for name, number in SHAPE_NAMES.items()
    ).replace("%", "%%")
    parser = argparse.ArgumentParser(
        prog="python -m bench.generate",
        description="Write a generated agent memory to DIR/graph/graph.json, a home that "
        "`nuggets --home DIR` opens. The same notes, shape and seed always give "
        "the same file.",
    )
    parser.add_argument(
        "--notes",
        type=_note_count,
        required=True,
        metavar="N",
        help="how many notes (1 to 10,000,000; 100000 or 100_000)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="the home to create; it must not hold a graph yet",
    )
    parser.add_argument(
        "--shape",
        type=_shape,
        default=TODAY,
        metavar="NAME",
        help=f"what the memory looks like (default today). {shapes}",
    )
    parser.add_argument("--seed", type=int, default=7, metavar="N", help="default 7")
    return parser


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    path = graph_path(args.out)
    if path.exists() or path.is_symlink():
        parser.error(
            f"{path} already exists; choose a new directory (a memory is never overwritten)"
        )
    loud = args.notes >= PROGRESS_EVERY
    say = _say if loud else (lambda _text: None)
    say(f"generating {args.notes:,} notes ({args.shape.label}, seed {args.seed})")
    doc = generate(
        args.notes,
        args.seed,
        args.shape,
        progress=(lambda done: say(f"  {done:,} notes")) if loud else None,
    )
    data = dump_graph(doc, path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        _say(f"error: cannot write {path}: {exc.strerror or exc}")
        return 1
    say(f"wrote {path} ({len(data) / 1e6:,.1f} MB)")
    print(f"{args.notes:,} notes in {path}; open them with: nuggets --home {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
