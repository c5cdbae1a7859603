"""Hostile scorer servers on the loopback address (docs/VERDICTS.md, "A model scorer"): one that
never answers, ones that drip a byte at a time, ones that redirect elsewhere; the run stays
bounded, the model is asked no more after a dead batch, the key never leaves the URL named,
and the run gives one warning."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.notes import fields
from core.review.model_scorer import ModelScorer
from core.review.verdicts import Judgement, judge
from core.settings import SettingError, load
from core.stores.nuggets.graph_file import graph_path, read_graph
from nuggets_tui.cli import main
from tests.support.conflict_builders import answers_memory
from tests.support.figures import record
from tests.support.note_builders import NOW as MAYBE_NOW

Behave = Callable[["RawServer", socket.socket, int], None]  # server, connection, request number
KEY = "sk-test-not-a-real-key"
assert MAYBE_NOW is not None
NOW = MAYBE_NOW


class RawServer:
    """Reads each request whole (unless `read_first` is off: a TLS client speaks first and waits),
    records it, then lets `behave` answer (or not)."""

    def __init__(self, behave: Behave, read_first: bool = True) -> None:
        self.behave = behave
        self.read_first = read_first
        self.requests: list[bytes] = []
        self.stop = threading.Event()
        self.hung_up = threading.Event()  # the client closed while we were still sending
        self.sent = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            self.requests.append(
                read_request(connection) if self.read_first else connection.recv(65536)
            )
            self.behave(self, connection, len(self.requests))

    def send(self, connection: socket.socket, data: bytes) -> bool:
        try:
            connection.sendall(data)
        except OSError:
            self.hung_up.set()
            return False
        self.sent += len(data)
        return True

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(5)
        self.listener.close()


def read_request(connection: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def answer(status: str, body: bytes = b"", extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
    ).encode() + body


def good_reply(request: bytes) -> bytes:
    body = json.loads(request.partition(b"\r\n\r\n")[2])
    ids = [n["note_id"] for n in json.loads(body["messages"][1]["content"])["notes"]]
    scores = {
        "durability": 0.5,
        "future_judgment_value": 0.5,
        "action_value": 0.5,
        "identity_relationship_weight": 0.5,
        "cross_time_persistence": 0.5,
        "noise_risk": 0.1,
    }
    verdicts = [
        {"note_id": i, "scores": scores, "strength": 2.4, "verdict": "promote", "reason": "ok"}
        for i in ids
    ]
    content = json.dumps({"verdicts": verdicts})
    return answer("200 OK", json.dumps({"choices": [{"message": {"content": content}}]}).encode())


def never_answers(server: RawServer, connection: socket.socket, number: int) -> None:
    server.stop.wait(5)


def drip(head: bytes, pause: float = 0.05, count: int = 60) -> Behave:
    """Sends `head`, then one byte every `pause` seconds, `count` bytes: far longer in all than
    the scorer's deadline, each byte well within a socket timeout."""

    def behave(server: RawServer, connection: socket.socket, number: int) -> None:
        if not server.send(connection, head):
            return
        for _ in range(count):
            if server.stop.wait(pause) or not server.send(connection, b" "):
                return

    return behave


def answers_then_hangs(server: RawServer, connection: socket.socket, number: int) -> None:
    if number == 1:
        server.send(connection, good_reply(server.requests[0]))
    else:
        server.stop.wait(5)


@pytest.fixture
def serve() -> Iterator[Callable[..., RawServer]]:
    servers: list[RawServer] = []

    def start(behave: Behave, read_first: bool = True) -> RawServer:
        servers.append(RawServer(behave, read_first))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def score(
    url: str,
    timeout: float = 0.5,
    deadline: float = 300,
    batch_size: int = 2,
    key: str | None = KEY,
) -> Judgement:
    scorer = ModelScorer(url, key=key, batch_size=batch_size, timeout=timeout, deadline=deadline)
    return judge(answers_memory(), NOW, model=scorer)  # 5 notes: 3 batches of 2


def test_a_server_that_never_answers_costs_one_batch(serve: Callable[..., RawServer]) -> None:
    record("hostile scorer servers tried")
    server = serve(never_answers)
    judged = score(server.url)
    assert len(server.requests) == 1  # batches 2 and 3 were not sent
    assert [v.scorer.split(":")[0] for v in judged.verdicts] == ["default (model batch 1"] * 2 + [
        "default (model batch 2"
    ] * 2 + ["default (model batch 3"]
    (notice,) = judged.notices
    assert notice == (
        "model scorer: 3 of 3 batches (5 notes) scored by the default scorer "
        "instead; batch 1: no full reply from the endpoint within the 0.5 s a "
        "batch may take; batches 2-3: not sent after batch 1 got no reply"
    )
    assert judged.usage == "unavailable"


@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{",  # the body, a byte at a time
        b"HTTP/1.1 200 OK\r\nX-Slow: ",  # the headers, a byte at a time
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{",  # no length: the body runs to the close
    ],
    ids=["body", "headers", "body-to-close"],
)
def test_a_drip_fed_reply_is_cut_at_the_batch_deadline(
    serve: Callable[..., RawServer], head: bytes
) -> None:
    record("hostile scorer servers tried")
    server = serve(drip(head))
    judged = score(server.url)
    assert server.hung_up.wait(5)  # we hung up while it was still dripping
    assert len(server.requests) == 1
    (notice,) = judged.notices
    assert "batch 1: no full reply from the endpoint within the 0.5 s a batch may take" in notice
    assert all(v.scorer.startswith("default (model batch ") for v in judged.verdicts)


def test_a_drip_fed_tls_handshake_is_cut_at_the_batch_deadline(
    serve: Callable[..., RawServer],
) -> None:
    record("hostile scorer servers tried")
    server = serve(drip(b"\x16\x03\x03\x40\x00\x02"), read_first=False)  # a handshake record
    judged = score(server.url.replace("http://", "https://"))
    assert server.hung_up.wait(5)
    assert len(server.requests) == 1
    assert "batch 1: no full reply from the endpoint within the 0.5 s" in judged.notices[0]


def test_the_run_deadline_cuts_a_batch_in_flight(serve: Callable[..., RawServer]) -> None:
    record("hostile scorer servers tried")
    server = serve(answers_then_hangs)
    judged = score(server.url, timeout=60, deadline=1)
    assert [v.scorer for v in judged.verdicts[:2]] == ["model", "model"]
    assert len(server.requests) == 2
    (notice,) = judged.notices
    assert notice.endswith(
        "batch 2: no full reply from the endpoint within the run's 1 s "
        "($NUGGETS_SCORER_DEADLINE); batch 3: not sent after batch 2 got "
        "no reply"
    )


def test_a_deadline_of_zero_sends_nothing(serve: Callable[..., RawServer]) -> None:
    server = serve(answers_then_hangs)
    deadline = load({"NUGGETS_SCORER_DEADLINE": "0"}).settings.scorer_deadline
    judged = judge(
        answers_memory(), NOW, model=ModelScorer(server.url, batch_size=2, deadline=deadline)
    )
    assert server.requests == []
    assert judged.notices == [
        "model scorer: 3 of 3 batches (5 notes) scored by the default "
        "scorer instead; batches 1-3: not sent: the run's 0 s had passed "
        "($NUGGETS_SCORER_DEADLINE)"
    ]


@pytest.mark.parametrize(("value", "seconds"), [("", 300.0), ("45", 45.0), (" 600 ", 600.0)])
def test_the_run_deadline_setting(value: str, seconds: float) -> None:
    assert load({"NUGGETS_SCORER_DEADLINE": value}).settings.scorer_deadline == seconds


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "1e3", "90000"])
def test_a_bad_run_deadline_setting_is_one_line(value: str) -> None:
    with pytest.raises(SettingError, match=r"^\$NUGGETS_SCORER_DEADLINE must be a whole number"):
        load({"NUGGETS_SCORER_DEADLINE": value})


@pytest.mark.parametrize(
    "status",
    [
        "301 Moved Permanently",
        "302 Found",
        "303 See Other",
        "307 Temporary Redirect",
        "308 Permanent Redirect",
    ],
)
@pytest.mark.parametrize("where", ["another-port", "same-server"])
def test_a_redirect_is_not_followed_and_the_key_stays_home(
    serve: Callable[..., RawServer], status: str, where: str
) -> None:
    record("hostile scorer servers tried")

    def answers(server: RawServer, connection: socket.socket, number: int) -> None:
        server.send(connection, good_reply(server.requests[-1]))

    elsewhere = serve(answers)
    target = f"{elsewhere.url}/chat/completions" if where == "another-port" else "/v2/x"

    def redirect(server: RawServer, connection: socket.socket, number: int) -> None:
        server.send(connection, answer(status, extra=f"Location: {target}\r\n"))

    named = serve(redirect)
    judged = score(named.url, batch_size=25)
    assert elsewhere.requests == []  # not a byte went to the other port, let alone the key
    assert (
        len(named.requests) == 1 and b"Authorization: Bearer " + KEY.encode() in named.requests[0]
    )
    (notice,) = judged.notices
    assert (
        f"batch 1: the endpoint answered HTTP {status.split()[0]}, a redirect to {target}; "
        "not followed, as the key goes only to the URL named" in notice
    )


def test_the_command_line_sends_the_key_its_settings_give(
    serve: Callable[..., RawServer], tmp_path: Path
) -> None:
    """$NUGGETS_SCORER_KEY, read once where the command starts, reaches the endpoint named."""

    def answers(server: RawServer, connection: socket.socket, number: int) -> None:
        server.send(connection, good_reply(server.requests[number - 1]))

    server = serve(answers)
    env = {
        "NUGGETS_DEMO_DIR": str(tmp_path / "demo"),
        "NUGGETS_NOW": "2026-11-01T09:00:00Z",
        "NUGGETS_SCORER_KEY": KEY,
    }
    result = CliRunner().invoke(main, ["--demo", "verdicts", "--scorer", server.url], env=env)
    assert result.exit_code == 0, result.output
    assert server.requests
    assert all(b"Authorization: Bearer " + KEY.encode() in r for r in server.requests)
    assert KEY not in result.output


def test_an_unreachable_scorer_gives_one_warning_for_the_demo(tmp_path: Path) -> None:
    record("hostile scorer servers tried")
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
    env = {"NUGGETS_DEMO_DIR": str(tmp_path / "demo"), "NUGGETS_NOW": "2026-11-01T09:00:00Z"}
    result = CliRunner().invoke(main, ["--demo", "verdicts", "--scorer", url], env=env)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "model scorer" in line]
    visible = sum(not fields.hidden(n) for n in read_graph(graph_path(tmp_path / "demo")).notes)
    batches = -(-visible // 25)  # the scorer's batches of 25 notes
    assert len(warnings) == 1
    assert f"{batches} of {batches} batches ({visible} notes)" in warnings[0]
    assert f"batches 2-{batches}: not sent after batch 1 got no reply" in warnings[0]


def test_a_bad_deadline_setting_stops_verdicts_in_one_line(tmp_path: Path) -> None:
    env = {"NUGGETS_DEMO_DIR": str(tmp_path / "demo"), "NUGGETS_SCORER_DEADLINE": "soon"}
    result = CliRunner().invoke(
        main, ["--demo", "verdicts", "--scorer", "http://127.0.0.1:9/v1"], env=env
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "$NUGGETS_SCORER_DEADLINE must be a whole number" in result.stderr
