"""The model scorer (docs/VERDICTS.md) against a fake chat-completions endpoint on the loopback
address: the recovery ladder, validation, per-batch fallback, token usage."""

from __future__ import annotations

import json
import math
import sys
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from core.errors import NuggetsError
from core.review.default_scorer import SCORE_NAMES
from core.review.model_scorer import ModelScorer, ReplyError, check_url, parse_reply
from core.review.verdicts import Judgement, judge
from tests.support.conflict_builders import answers_memory
from tests.support.figures import record
from tests.support.note_builders import NOW

Reply = Callable[[dict[str, Any]], tuple[int, str]]  # request body -> (status, body)


class QuietServer(ThreadingHTTPServer):
    """A client that hangs up before the reply is written (a scorer that timed out) is no
    error of the server's: nothing is printed for it; any other error still is."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class FakeEndpoint:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests.append(body)
                endpoint.headers.append(dict(self.headers))
                reply = endpoint.replies.pop(0) if endpoint.replies else good()
                status, text = reply(body)
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


def notes_of(body: dict[str, Any]) -> list[str]:
    return [n["note_id"] for n in json.loads(body["messages"][1]["content"])["notes"]]


def item(note_id: str, strength: float | None = None, **extra: Any) -> dict[str, Any]:
    scores = dict.fromkeys(SCORE_NAMES, 0.5) | {"noise_risk": 0.1}
    return {
        "note_id": note_id,
        "scores": scores,
        "strength": 2.4 if strength is None else strength,
        "verdict": "promote",
        "reason": "stands on its own",
    } | extra


def envelope(content: str, usage: dict[str, int] | None = None) -> str:
    doc: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": content}}]}
    if usage is not None:
        doc["usage"] = usage
    return json.dumps(doc)


def good(
    wrap: Callable[[str], str] = lambda s: s,
    edit: Callable[[list], list] = lambda v: v,
    usage: dict[str, int] | None = None,
) -> Reply:
    def reply(body: dict[str, Any]) -> tuple[int, str]:
        verdicts = edit([item(i) for i in notes_of(body)])
        return 200, envelope(wrap(json.dumps({"verdicts": verdicts})), usage)

    return reply


def run(
    endpoint: FakeEndpoint,
    *replies: Reply,
    batch_size: int = 10,
    timeout: float = 5,
    key: str | None = None,
) -> Judgement:
    endpoint.replies = list(replies)
    scorer = ModelScorer(endpoint.url, key=key, batch_size=batch_size, timeout=timeout)
    return judge(answers_memory(), NOW, model=scorer)


def test_a_clean_reply_is_used_with_exact_usage(endpoint: FakeEndpoint) -> None:
    judged = run(
        endpoint, good(usage={"prompt_tokens": 100, "completion_tokens": 40}), key="sekrit"
    )
    assert [v.scorer for v in judged.verdicts] == ["model"] * 5
    assert judged.verdicts[0].verdict == "promote" and judged.verdicts[0].why == "stands on its own"
    assert judged.notices == [] and judged.usage == "exact: 100 prompt + 40 completion tokens"
    request = endpoint.requests[0]
    assert request["response_format"]["type"] == "json_schema"
    assert endpoint.headers[0]["Authorization"] == "Bearer sekrit"
    assert endpoint.requests and endpoint.server.server_address[0] == "127.0.0.1"


@pytest.mark.parametrize(
    "wrap",
    [
        lambda s: f"```json\n{s}\n```",  # fenced
        lambda s: f"```\n{s}\n```",  # a bare fence
        lambda s: f"Sure! Here are the scores:\n{s}\nLet me know if you need more.",  # chatty
        lambda s: f"Here you go:\n```json\n{s}\n```\nDone.",  # prose around a fence
    ],
    ids=["fenced", "bare-fence", "chatty", "prose-and-fence"],
)
def test_wrapped_json_is_recovered(endpoint: FakeEndpoint, wrap: Callable[[str], str]) -> None:
    judged = run(endpoint, good(wrap))
    assert {v.scorer for v in judged.verdicts} == {"model"} and judged.notices == []
    assert judged.usage.startswith("approximate: ")  # no usage in the reply


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (lambda b: (200, envelope("I cannot score these notes.")), "no JSON object"),
        (
            lambda b: (200, envelope('{"verdicts": [{"note_id": "a-direct", "scor')),
            "no JSON object",
        ),
        (lambda b: (200, envelope("")), "the reply is empty"),
        (lambda b: (200, "<html>not json</html>"), "not a chat-completions reply"),
        (good(edit=lambda v: [v[0] | {"strength": 3.9}, *v[1:]]), "drifts from the formula"),
        (good(edit=lambda v: v[1:]), "notes not scored: a-direct"),
        (good(edit=lambda v: [*v, v[0]]), "note a-direct is scored twice"),
        (good(edit=lambda v: [*v, item("stranger")]), "note stranger is not in this batch"),
        (
            good(edit=lambda v: [v[0] | {"verdict": "compress"}, *v[1:]]),
            "compress without a known compress_target",
        ),
        (
            good(edit=lambda v: [v[0] | {"verdict": "merge", "merge_candidate_ids": []}, *v[1:]]),
            "merge without known merge_candidate_ids",
        ),
        (good(edit=lambda v: [v[0] | {"verdict": "keep"}, *v[1:]]), "unknown verdict"),
        (good(edit=lambda v: [v[0] | {"scores": {"durability": 2}}, *v[1:]]), "not in [0, 1]"),
        (lambda b: (500, "{}"), "HTTP 500"),
    ],
    ids=[
        "malformed",
        "truncated",
        "empty",
        "not-chat",
        "wrong-strength",
        "missing-note",
        "duplicate-note",
        "unknown-note",
        "compress-no-target",
        "merge-no-ids",
        "bad-verdict",
        "bad-score",
        "http-error",
    ],
)
def test_a_failing_batch_falls_back_to_the_default_scorer(
    endpoint: FakeEndpoint, reply: Reply, why: str
) -> None:
    judged = run(endpoint, reply)
    assert all(v.scorer.startswith("default (model batch 1: ") for v in judged.verdicts)
    assert why in judged.verdicts[0].scorer
    (notice,) = judged.notices
    assert (
        notice.startswith(
            "model scorer: 1 of 1 batch (5 notes) scored by the default scorer instead; batch 1: "
        )
        and why in notice
    )
    assert all(v.reasons["noise_risk"] != "scored by the model" for v in judged.verdicts)


def test_only_the_failing_batch_falls_back(endpoint: FakeEndpoint) -> None:
    judged = run(endpoint, good(), lambda b: (503, "{}"), good(), batch_size=2)
    scorers = [v.scorer for v in judged.verdicts]
    assert scorers[:2] == ["model", "model"] and scorers[4] == "model"
    assert all(s.startswith("default (model batch 2: ") for s in scorers[2:4])
    assert len(judged.notices) == 1 and len(endpoint.requests) == 3


def test_a_timeout_falls_back(endpoint: FakeEndpoint) -> None:
    gate = threading.Event()

    def slow(body: dict[str, Any]) -> tuple[int, str]:
        gate.wait(3)
        return good()(body)

    judged = run(endpoint, slow, timeout=0.2)
    gate.set()
    assert "no full reply from the endpoint within the 0.2 s a batch may take" in judged.notices[0]
    assert judged.usage == "unavailable"


def test_an_unreachable_endpoint_falls_back_with_usage_unavailable() -> None:
    scorer = ModelScorer("http://127.0.0.1:9/v1", timeout=2)
    judged = judge(answers_memory(), NOW, model=scorer)
    assert judged.usage == "unavailable" and "no reply" in judged.notices[0]
    assert len(judged.verdicts) == 5


@pytest.mark.parametrize("url", ["ftp://x/v1", "localhost:8080", "http:///v1", "nonsense"])
def test_a_bad_url_is_a_clear_error(url: str) -> None:
    with pytest.raises(NuggetsError, match="not an http"):
        check_url(url)


def test_the_endpoint_path() -> None:
    assert check_url("http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080/v1/chat/completions"
    assert check_url("https://h/v1/chat/completions") == "https://h/v1/chat/completions"


def test_parse_reply_refuses_a_top_level_array() -> None:
    with pytest.raises(ReplyError):
        parse_reply("[1, 2]")


DEEP = 200_000


def nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (
            lambda b: (200, '{"choices":' + "[" * DEEP + "]" * DEEP + "}"),
            "the envelope is nested too deeply to read",
        ),
        (lambda b: (200, envelope(nested(DEEP))), "the reply is nested too deeply to read"),
        (
            lambda b: (200, envelope(f"```json\n{nested(DEEP)}\n```")),
            "the reply is nested too deeply to read",
        ),
        (
            lambda b: (200, envelope(f'He said " {nested(DEEP)}')),
            "the reply is nested too deeply to read",
        ),
    ],
    ids=["envelope", "reply", "reply-in-a-fence", "reply-in-prose"],
)
def test_a_deeply_nested_reply_falls_back_in_one_line(
    endpoint: FakeEndpoint, reply: Reply, why: str
) -> None:
    record("hostile scorer servers tried")
    judged = run(endpoint, reply)
    (notice,) = judged.notices
    assert why in notice and "\n" not in notice
    assert all(v.scorer.startswith("default (model batch 1: ") for v in judged.verdicts)


def test_a_reply_nested_within_bounds_is_used(endpoint: FakeEndpoint) -> None:
    judged = run(endpoint, good(edit=lambda v: [v[0] | {"extra": [[[["deep"]]]]}, *v[1:]]))
    assert {v.scorer for v in judged.verdicts} == {"model"} and judged.notices == []


@pytest.mark.parametrize(
    "strength",
    [float("nan"), float("inf"), float("-inf"), 10**400],
    ids=["nan", "infinity", "minus-infinity", "too-large-for-a-float"],
)
def test_a_strength_that_is_not_a_finite_number_is_refused(
    endpoint: FakeEndpoint, strength: float
) -> None:
    record("hostile scorer servers tried")
    judged = run(endpoint, good(edit=lambda v: [v[0] | {"strength": strength}, *v[1:]]))
    (notice,) = judged.notices
    assert "note a-direct: no strength, or one that is not a finite number" in notice
    assert all(math.isfinite(v.strength) for v in judged.verdicts)
    json.dumps([v.to_json_dict() for v in judged.verdicts], allow_nan=False)  # --json works


def test_a_score_that_is_not_a_finite_number_is_refused(endpoint: FakeEndpoint) -> None:
    scores = dict.fromkeys(SCORE_NAMES, 0.5) | {"durability": float("nan")}
    judged = run(endpoint, good(edit=lambda v: [v[0] | {"scores": scores}, *v[1:]]))
    assert "score durability missing or not in [0, 1]" in judged.notices[0]


def test_prose_is_read_once_whatever_its_braces() -> None:
    """Objects inside an object that failed are not tried again: a reply of 40k braces, each
    opening an object 100 levels deep (within the reader's bound) that breaks, is read in one
    pass, not 40k."""
    record("hostile scorer servers tried")
    unit = '{"a":' * 100 + "x"
    calls = []
    real = json.JSONDecoder.raw_decode

    def counting(self: json.JSONDecoder, s: str, idx: int = 0) -> Any:
        calls.append(idx)
        return real(self, s, idx)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json.JSONDecoder, "raw_decode", counting)
        with pytest.raises(ReplyError, match="no JSON object"):
            parse_reply('He said " ' + unit * 400)
    assert len(calls) == 1 + 400  # as is, then once per broken object (not per brace: 40,000)


def test_an_object_after_broken_ones_in_prose_is_found() -> None:
    text = 'Draft: {"verdicts": [1,} then {not json} and finally {"verdicts": []} done'
    assert parse_reply(text) == {"verdicts": []}


def test_the_fake_endpoint_is_quiet_when_a_client_hangs_up_and_only_then(
    endpoint: FakeEndpoint, capfd: pytest.CaptureFixture[str]
) -> None:
    def handled(error: Exception) -> str:
        try:
            raise error
        except Exception:
            endpoint.server.handle_error(None, ("127.0.0.1", 1))
        return capfd.readouterr().err

    assert handled(BrokenPipeError(32, "Broken pipe")) == ""
    assert handled(ConnectionResetError(104, "Connection reset by peer")) == ""
    assert "ValueError: a bug in a reply" in handled(ValueError("a bug in a reply"))
