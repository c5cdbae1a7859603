"""The optional model scorer (docs/VERDICTS.md, "A model scorer"): an OpenAI-compatible
chat-completions endpoint the user names scores the notes in batches; every reply is recovered,
validated, and a batch whose reply still fails is scored by the default scorer instead, saying so
in one warning for the run.

Time is bounded: a batch's request may take `timeout` seconds from connecting to the last byte,
the whole run `deadline` seconds (the settings' scorer_deadline, $NUGGETS_SCORER_DEADLINE, 300
unless set); after a batch that
got no reply, or once the deadline has passed, the remaining batches are not sent. A redirect is
not followed (core/review/scorer_http.py), so the key goes only to the URL named. A reply or
envelope nested deeper than the parser can go is refused in one line, the reading of a reply
stays linear in its length, and a score or strength that is not a finite number is refused like
any invalid reply.

Recovery ladder of a reply's text: the JSON as it is; inside a ``` fence; the first JSON object
found in prose. Validation: a `verdicts` list holding every note of the batch exactly once, six
scores in [0, 1], a strength within 0.01 of the formula, a known verdict with its field
(`compress_target` for compress, `merge_candidate_ids` for merge). Token usage: exact when the
endpoint reports it, approximate (characters / 4) when it does not, unavailable when no reply
came back. Standard library only.

API: `ModelScorer(url, model="local", key=None, batch_size=25, timeout=60.0, deadline=300)`
(`key`: the settings' scorer_key, $NUGGETS_SCORER_KEY), called as a `ModelJudge` by
`core.review.verdicts.judge(..., model=scorer)`; `parse_reply(text) -> dict` (`ReplyError`);
`check_url(url) -> str` (the endpoint, or `NuggetsError`).
"""

from __future__ import annotations

import json
import math
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from core.errors import ArgumentError, NuggetsError
from core.models import RawNote
from core.notes import fields
from core.review.default_scorer import SCORE_NAMES, ScoringContext
from core.review.scorer_http import NoReply, Reply, post
from core.review.verdicts import (
    VERDICTS,
    Judgement,
    Siblings,
    StrengthDriftError,
    Verdict,
    check_strength,
    default_verdict,
)
from core.safeio.json_read import JsonReadError, loads, raw_decode
from core.settings import DEFAULT_DEADLINE, variable

DEADLINE_SETTING = f"${variable('scorer_deadline')}"  # named when the deadline cuts a run
REPLY_BYTES = 8 * 1024 * 1024
SHOWN_REASONS = 3  # reasons a run's warning spells out; each verdict names its own
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_OPEN = re.compile(r"\{")

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
    "properties": {
        "verdicts": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["note_id", "scores", "strength", "verdict", "reason"],
                "properties": {
                    "note_id": {"type": "string"},
                    "scores": {
                        "type": "object",
                        "required": list(SCORE_NAMES),
                        "properties": {
                            n: {"type": "number", "minimum": 0, "maximum": 1} for n in SCORE_NAMES
                        },
                    },
                    "strength": {"type": "number"},
                    "verdict": {"type": "string", "enum": list(VERDICTS)},
                    "reason": {"type": "string"},
                    "compress_target": {"type": "string"},
                    "merge_candidate_ids": {"type": "array", "items": {"type": "string"}},
                },
            },
        }
    },
}


PAIR_PROMPT = (
    "You judge pairs of statements from an AI agent's memory; the two statements of a pair are "
    "notes under one title. For every pair say whether they disagree: true only when both "
    "cannot hold at once (the same thing said with another value, or one denying or retiring "
    "the other), false when they state compatible or unrelated facts. Judge every pair exactly "
    "once. Begin with {, end with }, output only the JSON object: no fences, no prose."
)

PAIR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["pairs"],
    "properties": {
        "pairs": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["pair", "disagree"],
                "properties": {"pair": {"type": "integer"}, "disagree": {"type": "boolean"}},
            },
        }
    },
}


class ReplyError(NuggetsError):
    pass


def check_url(url: str) -> str:
    """The chat-completions endpoint of `url` (a base URL gets `/chat/completions`)."""
    parts = urllib.parse.urlsplit(url)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise ArgumentError(
            f"--scorer {url!r}: not an http(s) URL of a chat-completions "
            "endpoint (e.g. http://127.0.0.1:8080/v1)"
        )
    path = parts.path.rstrip("/")
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def parse_reply(text: str, holding: str = "verdicts") -> dict[str, Any]:
    """The reply's JSON object: as it is, else inside a fence, else the first object in prose
    that holds `holding` (`verdicts`; `pairs` for the pairs judged)."""
    if not text.strip():
        raise ReplyError("the reply is empty")
    try:
        found = _as_is_or_fenced(text) or _in_prose(text, holding)
    except JsonReadError as exc:  # a hostile depth ends here, whichever way it was read
        raise ReplyError(f"the reply is {exc}") from None
    if found is None:
        raise ReplyError("no JSON object in the reply (tried as is, in a fence, in prose)")
    return found


def _as_is_or_fenced(text: str) -> dict[str, Any] | None:
    for attempt in [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]:
        try:
            value = loads(attempt)
        except ValueError:  # too deep too: the prose is read next, value by value
            continue
        if isinstance(value, dict):
            return value
    return None


def _in_prose(text: str, holding: str) -> dict[str, Any] | None:
    """Objects side by side in the prose, each tried once from its `{`: an object's inside is
    not tried again, so the work stays linear in the reply's length."""
    resume = 0
    for match in _OPEN.finditer(text):
        if match.start() < resume:
            continue
        try:
            value, resume = raw_decode(text, match.start())
        except json.JSONDecodeError as exc:
            resume = exc.pos
            continue
        if isinstance(value, dict) and holding in value:
            return value
    return None


def _finite(value: Any) -> float | None:
    """A JSON number as a finite float; None for anything else (NaN, Infinity, 1e400, a bool,
    an integer too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _score(item: dict[str, Any], name: str) -> float:
    value = _finite(item["scores"].get(name) if isinstance(item.get("scores"), dict) else None)
    if value is None or not 0 <= value <= 1:
        raise ReplyError(f"note {item.get('note_id')}: score {name} missing or not in [0, 1]")
    return value


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
    strength = _finite(item.get("strength"))
    if strength is None:
        raise ReplyError(f"note {note_id}: no strength, or one that is not a finite number")
    try:
        check_strength(scores, strength)
    except StrengthDriftError as exc:
        raise ReplyError(f"note {note_id}: {exc}") from None
    verdict = item.get("verdict")
    if verdict not in VERDICTS:
        raise ReplyError(f"note {note_id}: unknown verdict {verdict!r}")
    target = item.get("compress_target")
    merge_ids = item.get("merge_candidate_ids")
    if verdict == "compress" and (
        not isinstance(target, str) or target not in known or target == note_id
    ):
        raise ReplyError(f"note {note_id}: compress without a known compress_target")
    if verdict == "merge" and (
        not isinstance(merge_ids, list)
        or not merge_ids
        or not all(isinstance(i, str) and i in known for i in merge_ids)
    ):
        raise ReplyError(f"note {note_id}: merge without known merge_candidate_ids")
    why = item.get("reason") if isinstance(item.get("reason"), str) else ""
    reasons = {name: "scored by the model" for name in SCORE_NAMES}
    return Verdict(
        note_id,
        scores,
        round(strength, 4),
        verdict,
        reasons,
        why or "the model's verdict",
        target if verdict == "compress" else None,
        tuple(merge_ids) if verdict == "merge" and merge_ids else (),
        "model",
    )


@dataclass
class _Usage:
    prompt: int = 0
    completion: int = 0
    exact: int = 0
    approximate: int = 0

    def add(self, usage: Any, prompt_text: str, reply_text: str) -> None:
        if (
            isinstance(usage, dict)
            and isinstance(usage.get("prompt_tokens"), int)
            and isinstance(usage.get("completion_tokens"), int)
        ):
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


@dataclass(frozen=True)
class Refusal:
    batch: int  # 1-based
    notes: int
    why: str


@dataclass
class ModelScorer:
    url: str
    model: str = "local"
    key: str | None = field(default=None, repr=False)  # sent as a Bearer token when set
    batch_size: int = 25
    timeout: float = 60.0  # one batch's request, from connecting to the reply's last byte
    deadline: float = DEFAULT_DEADLINE  # the whole run (the settings' scorer_deadline)
    pair_notices: list[str] = field(default_factory=list)  # judging pairs: what fell back

    def __post_init__(self) -> None:
        self.endpoint = check_url(self.url)

    def __call__(
        self, visible: list[RawNote], context: ScoringContext, found: Siblings
    ) -> Judgement:
        known = {n["id"] for n in visible}
        usage = _Usage()
        run_ends = time.monotonic() + self.deadline
        verdicts: list[Verdict] = []
        refused: list[Refusal] = []
        dead: str | None = None  # why the remaining batches are not sent
        batches = [
            visible[i : i + self.batch_size] for i in range(0, len(visible), self.batch_size)
        ]
        for number, batch in enumerate(batches, start=1):
            if dead is None and time.monotonic() >= run_ends:
                dead = f"not sent: the run's {self.deadline:g} s had passed ({DEADLINE_SETTING})"
            why = dead
            if why is None:
                try:
                    reply = self._ask(batch, found, usage, run_ends)
                    verdicts += validate(reply, [n["id"] for n in batch], known)
                    continue
                except NoReply as exc:
                    why, dead = str(exc), f"not sent after batch {number} got no reply"
                except NuggetsError as exc:
                    why = str(exc)
            refused.append(Refusal(number, len(batch), why))
            verdicts += [_fallback(n, context, found, number, why) for n in batch]
        notices = [fallback_notice(refused, len(batches))] if refused else []
        return Judgement(verdicts, notices, usage.words())

    def judge_pairs(self, pairs: list[tuple[str, str]]) -> list[bool | None]:
        """Whether each pair of statements disagrees, as the model judges it (a PairJudge,
        core/review/contradictions.py), in batches as the notes are scored, with the same
        deadlines and circuit; a batch that fails is None throughout (the rule stands), and
        one line for the run goes to `pair_notices`."""
        usage = _Usage()
        run_ends = time.monotonic() + self.deadline
        answers: list[bool | None] = []
        refused: list[Refusal] = []
        dead: str | None = None
        batches = [pairs[i : i + self.batch_size] for i in range(0, len(pairs), self.batch_size)]
        for number, batch in enumerate(batches, start=1):
            if dead is None and time.monotonic() >= run_ends:
                dead = f"not sent: the run's {self.deadline:g} s had passed ({DEADLINE_SETTING})"
            why = dead
            if why is None:
                try:
                    answers += _pair_answers(self._ask_pairs(batch, usage, run_ends), len(batch))
                    continue
                except NoReply as exc:
                    why, dead = str(exc), f"not sent after batch {number} got no reply"
                except NuggetsError as exc:
                    why = str(exc)
            refused.append(Refusal(number, len(batch), why))
            answers += [None] * len(batch)
        if refused:
            self.pair_notices.append(pair_notice(refused, len(batches)))
        return answers

    def _ask_pairs(
        self, batch: list[tuple[str, str]], usage: _Usage, run_ends: float
    ) -> dict[str, Any]:
        shown = [{"pair": n, "a": a, "b": b} for n, (a, b) in enumerate(batch)]
        prompt = json.dumps({"pairs": shown}, ensure_ascii=False)
        return self._post(prompt, PAIR_PROMPT, "pairs", PAIR_SCHEMA, usage, run_ends)

    def _ask(
        self, batch: list[RawNote], found: Siblings, usage: _Usage, run_ends: float
    ) -> dict[str, Any]:
        prompt = json.dumps({"notes": [_note_view(n, found) for n in batch]}, ensure_ascii=False)
        return self._post(prompt, SYSTEM_PROMPT, "verdicts", SCHEMA, usage, run_ends)

    def _post(
        self,
        prompt: str,
        system: str,
        holding: str,
        schema: dict[str, Any],
        usage: _Usage,
        run_ends: float,
    ) -> dict[str, Any]:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": holding, "strict": True, "schema": schema},
            },
        }
        sent = json.dumps(body)
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        started = time.monotonic()
        ends = min(started + self.timeout, run_ends)
        try:
            reply = post(self.endpoint, sent.encode("utf-8"), headers, ends, REPLY_BYTES)
        except NoReply as exc:
            if not exc.timed_out:
                raise
            limit = (
                f"the run's {self.deadline:g} s ({DEADLINE_SETTING})"
                if ends == run_ends
                else f"the {self.timeout:g} s a batch may take"
            )
            raise NoReply(f"no full reply from the endpoint within {limit}", True) from None
        text, reported = read_envelope(reply)
        usage.add(reported, sent, text)
        return parse_reply(text, holding)


def read_envelope(reply: Reply) -> tuple[str, Any]:
    """The reply's text and its `usage`, or ReplyError: an HTTP error, a redirect (never
    followed), a body too large, too deep or not a chat-completions reply."""
    if 300 <= reply.status < 400:
        to = f" to {reply.location[:200]}" if reply.location else ""
        raise ReplyError(
            f"the endpoint answered HTTP {reply.status}, a redirect{to}; not "
            "followed, as the key goes only to the URL named"
        )
    if not 200 <= reply.status < 300:
        raise ReplyError(f"the endpoint answered HTTP {reply.status}")
    if len(reply.body) > REPLY_BYTES:
        raise ReplyError("the reply is too large")
    try:
        envelope = loads(reply.body.decode("utf-8"))
        text = envelope["choices"][0]["message"]["content"]
    except JsonReadError as exc:  # a hostile depth ends here
        raise ReplyError(f"the envelope is {exc}") from None
    except (ValueError, KeyError, IndexError, TypeError):
        raise ReplyError("not a chat-completions reply") from None
    if not isinstance(text, str):
        raise ReplyError("the reply holds no text")
    return text, envelope.get("usage")


def fallback_notice(refused: list[Refusal], batches: int) -> str:
    """The run's one warning: which batches the default scorer took over, and why."""
    reasons: dict[str, list[int]] = {}
    for refusal in refused:
        reasons.setdefault(refusal.why, []).append(refusal.batch)
    shown = [f"{_numbers(numbers)}: {why}" for why, numbers in reasons.items()]
    if len(shown) > SHOWN_REASONS:
        shown[SHOWN_REASONS:] = [
            f"{len(shown) - SHOWN_REASONS} more reasons (each verdict names its own)"
        ]
    notes = sum(r.notes for r in refused)
    return (
        f"model scorer: {len(refused)} of {batches} batch{'es' if batches != 1 else ''} "
        f"({notes} note{'s' if notes != 1 else ''}) scored by the default scorer instead; "
        + "; ".join(shown)
    )


def _pair_answers(reply: dict[str, Any], count: int) -> list[bool | None]:
    """Each pair's answer in batch order, or ReplyError naming the first problem."""
    items = reply.get("pairs")
    if not isinstance(items, list):
        raise ReplyError("the reply has no `pairs` list")
    found: dict[int, bool] = {}
    for item in items:
        number = item.get("pair") if isinstance(item, dict) else None
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < count:
            raise ReplyError(f"an answer for no pair of this batch ({number!r})")
        if number in found:
            raise ReplyError(f"pair {number} is judged twice")
        if not isinstance(item.get("disagree"), bool):
            raise ReplyError(f"pair {number}: `disagree` is not true or false")
        found[number] = item["disagree"]
    missing = [str(n) for n in range(count) if n not in found]
    if missing:
        raise ReplyError(f"pairs not judged: {', '.join(missing)}")
    return [found[n] for n in range(count)]


def pair_notice(refused: list[Refusal], batches: int) -> str:
    """The run's one warning about the pairs: which batches the rule alone decided, and why."""
    reasons: dict[str, list[int]] = {}
    for refusal in refused:
        reasons.setdefault(refusal.why, []).append(refusal.batch)
    shown = [f"{_numbers(numbers)}: {why}" for why, numbers in reasons.items()]
    if len(shown) > SHOWN_REASONS:
        shown[SHOWN_REASONS:] = [f"{len(shown) - SHOWN_REASONS} more reasons"]
    pairs = sum(r.notes for r in refused)
    return (
        f"model scorer: {len(refused)} of {batches} pair batch{'es' if batches != 1 else ''} "
        f"({pairs} pair{'s' if pairs != 1 else ''}) left to the rule alone; " + "; ".join(shown)
    )


def _numbers(numbers: list[int]) -> str:
    """Batch numbers in runs: `batch 2`, `batches 2-13`, `batches 1, 3-4`."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    spans = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    return f"batch{'es' if len(numbers) > 1 else ''} {', '.join(spans)}"


def _note_view(note: RawNote, found: Siblings) -> dict[str, Any]:
    view = {
        "note_id": note["id"],
        "title": fields.text(note, "title"),
        "content": fields.text(note, "content"),
        "hits": fields.hits(note),
    }
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


def _fallback(
    note: RawNote, context: ScoringContext, found: Siblings, number: int, why: str
) -> Verdict:
    verdict = default_verdict(note, context, found)
    return Verdict(**{**verdict.__dict__, "scorer": f"default (model batch {number}: {why})"})
