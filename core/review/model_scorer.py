"""The optional model scorer (docs/VERDICTS.md, "A model scorer"): an OpenAI-compatible
chat-completions endpoint the user names scores the notes in batches; every reply is recovered,
validated, and a batch whose reply still fails is scored by the default scorer instead, saying so.

Recovery ladder of a reply's text: the JSON as it is; inside a ``` fence; the first JSON object
found in prose. Validation: a `verdicts` list holding every note of the batch exactly once, six
scores in [0, 1], a strength within 0.01 of the formula, a known verdict with its field
(`compress_target` for compress, `merge_candidate_ids` for merge). Token usage: exact when the
endpoint reports it, approximate (characters / 4) when it does not, unavailable when no reply
came back. Standard library only (urllib).

API: `ModelScorer(url, model="local", key_env=KEY_ENV, batch_size=25, timeout=60.0)`, called
as a `ModelJudge` by `core.review.verdicts.judge(..., model=scorer)`; `parse_reply(text) -> dict`
(`ReplyError`); `check_url(url) -> str` (the endpoint, or `NuggetsError`).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from core.errors import NuggetsError
from core.models import RawNote
from core.notes import fields
from core.review.default_scorer import SCORE_NAMES, ScoringContext
from core.review.verdicts import (
    VERDICTS,
    Judgement,
    Siblings,
    StrengthDriftError,
    Verdict,
    check_strength,
    default_verdict,
)

KEY_ENV = "NUGGETS_SCORER_KEY"
REPLY_BYTES = 8 * 1024 * 1024
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)

SYSTEM_PROMPT = (
    "You score memory notes of an AI agent. For every note give six scores in [0, 1]: "
    "durability, future_judgment_value, action_value, identity_relationship_weight, "
    "cross_time_persistence, noise_risk; strength = the sum of the first five minus noise_risk; "
    "and one verdict: reject, defer, compress (with compress_target, the note absorbing it), "
    "merge (with merge_candidate_ids) or promote. Score every note exactly once. "
    "Begin with {, end with }, output only the JSON object: no fences, no prose."
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdicts"],
    "properties": {"verdicts": {"type": "array", "items": {
        "type": "object",
        "required": ["note_id", "scores", "strength", "verdict", "reason"],
        "properties": {
            "note_id": {"type": "string"},
            "scores": {"type": "object", "required": list(SCORE_NAMES),
                       "properties": {n: {"type": "number", "minimum": 0, "maximum": 1}
                                      for n in SCORE_NAMES}},
            "strength": {"type": "number"},
            "verdict": {"type": "string", "enum": list(VERDICTS)},
            "reason": {"type": "string"},
            "compress_target": {"type": "string"},
            "merge_candidate_ids": {"type": "array", "items": {"type": "string"}},
        },
    }}},
}


class ReplyError(NuggetsError):
    pass


def check_url(url: str) -> str:
    """The chat-completions endpoint of `url` (a base URL gets `/chat/completions`)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NuggetsError(f"--scorer {url!r}: not an http(s) URL of a chat-completions "
                           "endpoint (e.g. http://127.0.0.1:8080/v1)")
    path = parts.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def parse_reply(text: str) -> dict[str, Any]:
    """The reply's JSON object: as it is, else inside a fence, else the first object in prose."""
    if not text.strip():
        raise ReplyError("the reply is empty")
    attempts = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for attempt in attempts:
        try:
            value = json.loads(attempt)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict) and "verdicts" in value:
            return value
    raise ReplyError("no JSON object in the reply (tried as is, in a fence, in prose)")


def _score(item: dict[str, Any], name: str) -> float:
    value = item["scores"].get(name) if isinstance(item.get("scores"), dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ReplyError(f"note {item.get('note_id')}: score {name} missing or not in [0, 1]")
    return float(value)


def validate(reply: dict[str, Any], batch: list[str], known: set[str]) -> list[Verdict]:
    """The batch's verdicts in batch order, or ReplyError naming the first problem."""
    items = reply.get("verdicts")
    if not isinstance(items, list):
        raise ReplyError("the reply has no `verdicts` list")
    found: dict[str, Verdict] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("note_id"), str):
            raise ReplyError("a verdict without a note_id")
        note_id = item["note_id"]
        if note_id not in batch:
            raise ReplyError(f"note {note_id} is not in this batch")
        if note_id in found:
            raise ReplyError(f"note {note_id} is scored twice")
        found[note_id] = _verdict(item, note_id, known)
    missing = [i for i in batch if i not in found]
    if missing:
        raise ReplyError(f"notes not scored: {', '.join(missing)}")
    return [found[i] for i in batch]


def _verdict(item: dict[str, Any], note_id: str, known: set[str]) -> Verdict:
    scores = {name: _score(item, name) for name in SCORE_NAMES}
    strength = item.get("strength")
    if isinstance(strength, bool) or not isinstance(strength, int | float):
        raise ReplyError(f"note {note_id}: no strength")
    try:
        check_strength(scores, float(strength))
    except StrengthDriftError as exc:
        raise ReplyError(f"note {note_id}: {exc}") from None
    verdict = item.get("verdict")
    if verdict not in VERDICTS:
        raise ReplyError(f"note {note_id}: unknown verdict {verdict!r}")
    target = item.get("compress_target")
    merge_ids = item.get("merge_candidate_ids")
    if verdict == "compress" and (not isinstance(target, str) or target not in known
                                  or target == note_id):
        raise ReplyError(f"note {note_id}: compress without a known compress_target")
    if verdict == "merge" and (not isinstance(merge_ids, list) or not merge_ids
                               or not all(isinstance(i, str) and i in known for i in merge_ids)):
        raise ReplyError(f"note {note_id}: merge without known merge_candidate_ids")
    why = item.get("reason") if isinstance(item.get("reason"), str) else ""
    reasons = {name: "scored by the model" for name in SCORE_NAMES}
    return Verdict(note_id, scores, round(float(strength), 4), verdict, reasons,
                   why or "the model's verdict", target if verdict == "compress" else None,
                   tuple(merge_ids) if verdict == "merge" else (), "model")


@dataclass
class _Usage:
    prompt: int = 0
    completion: int = 0
    exact: int = 0
    approximate: int = 0

    def add(self, usage: Any, prompt_text: str, reply_text: str) -> None:
        if (isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int)
                and isinstance(usage.get("completion_tokens"), int)):
            self.prompt += usage["prompt_tokens"]
            self.completion += usage["completion_tokens"]
            self.exact += 1
        else:
            self.prompt += len(prompt_text) // 4
            self.completion += len(reply_text) // 4
            self.approximate += 1

    def words(self) -> str:
        if not self.exact and not self.approximate:
            return "unavailable"
        source = "approximate" if self.approximate else "exact"
        return f"{source}: {self.prompt} prompt + {self.completion} completion tokens"


@dataclass
class ModelScorer:
    url: str
    model: str = "local"
    key_env: str = KEY_ENV
    batch_size: int = 25
    timeout: float = 60.0

    def __post_init__(self) -> None:
        self.endpoint = check_url(self.url)

    def __call__(self, visible: list[RawNote], context: ScoringContext,
                 found: Siblings) -> Judgement:
        known = {n["id"] for n in visible}
        usage = _Usage()
        verdicts: list[Verdict] = []
        notices: list[str] = []
        batches = [visible[i:i + self.batch_size]
                   for i in range(0, len(visible), self.batch_size)]
        for number, batch in enumerate(batches, start=1):
            ids = [n["id"] for n in batch]
            try:
                verdicts += validate(self._ask(batch, found, usage), ids, known)
            except NuggetsError as exc:
                why = str(exc)
                notices.append(f"model batch {number} of {len(batches)} ({len(batch)} notes) "
                               f"refused: {why}; scored by the default scorer instead")
                verdicts += [_fallback(n, context, found, number, why) for n in batch]
        return Judgement(verdicts, notices, usage.words())

    def _ask(self, batch: list[RawNote], found: Siblings, usage: _Usage) -> dict[str, Any]:
        prompt = json.dumps({"notes": [_note_view(n, found) for n in batch]}, ensure_ascii=False)
        body = {"model": self.model, "temperature": 0,
                "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                             {"role": "user", "content": prompt}],
                "response_format": {"type": "json_schema", "json_schema": {
                    "name": "verdicts", "strict": True, "schema": SCHEMA}}}
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.endpoint, json.dumps(body).encode("utf-8"),
                                         headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read(REPLY_BYTES + 1)
        except urllib.error.HTTPError as exc:
            raise ReplyError(f"the endpoint answered HTTP {exc.code}") from None
        except (OSError, http.client.HTTPException) as exc:  # refused, timed out, cut short
            reason = getattr(exc, "reason", exc)
            raise ReplyError(f"no reply from the endpoint ({reason})") from None
        if len(raw) > REPLY_BYTES:
            raise ReplyError("the reply is too large")
        try:
            envelope = json.loads(raw.decode("utf-8"))
            text = envelope["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ReplyError("not a chat-completions reply") from None
        if not isinstance(text, str):
            raise ReplyError("the reply holds no text")
        usage.add(envelope.get("usage"), json.dumps(body), text)
        return parse_reply(text)


def _note_view(note: RawNote, found: Siblings) -> dict[str, Any]:
    view = {"note_id": note["id"], "title": fields.text(note, "title"),
            "content": fields.text(note, "content"), "hits": fields.hits(note)}
    for name in ("type", "scope", "subject", "source", "stability"):
        view[name] = fields.meta(note, name)
    for name in ("confidence", "createdAt", "updatedAt"):
        if name in note:
            view[name] = note[name]
    if note["id"] in found.compress_target:
        view["near_duplicate_of"] = found.compress_target[note["id"]]
    if note["id"] in found.merge_with:
        view["disagrees_or_duplicates"] = list(found.merge_with[note["id"]])
    return view


def _fallback(note: RawNote, context: ScoringContext, found: Siblings, number: int,
              why: str) -> Verdict:
    verdict = default_verdict(note, context, found)
    return Verdict(**{**verdict.__dict__,
                      "scorer": f"default (model batch {number} refused: {why})"})
