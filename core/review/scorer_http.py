"""One HTTP POST with a hard deadline that never follows a redirect (the model scorer's wire).

The deadline bounds the whole request, from connecting to the last byte of the reply: a
watchdog shuts the socket down when it passes, so a server that drips a byte at a time cannot
stretch it the way it stretches a socket timeout (which restarts with every byte). A redirect is
returned as it is, never followed, and the environment's proxy settings are not used: whatever
the request carries (the scorer's key) goes only to the scheme, host and port named.
Standard library only (http.client).

API: `post(url, body, headers, ends, limit) -> Reply` (`ends` on `time.monotonic()`'s clock;
`NoReply` when nothing usable came back by then).
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass

from core.errors import NuggetsError


class NoReply(NuggetsError):
    """The endpoint could not be reached, or did not answer in full before the deadline
    (`timed_out`)."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


@dataclass(frozen=True)
class Reply:
    status: int
    location: str  # the Location header, "" when there is none
    body: bytes  # at most `limit` + 1 bytes


class _Watchdog:
    """Shuts the connection's socket down at the deadline, waking any read blocked on it."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self.connection = connection
        self.sock: socket.socket | None = None  # kept: the response outlives connection.sock
        self.fired = threading.Event()
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True

    def _fire(self) -> None:
        self.fired.set()
        sock = self.sock or self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # the plain socket's: it wakes a read under TLS too
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


def post(url: str, body: bytes, headers: dict[str, str], ends: float, limit: int) -> Reply:
    """POST `body` to `url`; the reply's status, Location and first `limit` + 1 bytes."""
    parts = urllib.parse.urlsplit(url)
    seconds = ends - time.monotonic()
    if seconds <= 0:
        raise NoReply("no time left to ask", timed_out=True)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "", parts.port, timeout=seconds)
    watchdog = _Watchdog(connection, seconds)
    response: http.client.HTTPResponse | None = None
    watchdog.timer.start()
    try:
        connection.connect()
        watchdog.sock = connection.sock
        if watchdog.fired.is_set():
            raise NoReply("no reply from the endpoint in time", timed_out=True)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", target, body, headers)
        response = connection.getresponse()
        data = response.read(limit + 1)
        status, location = response.status, response.getheader("Location") or ""
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if watchdog.fired.is_set() or isinstance(exc, TimeoutError):
            raise NoReply("no full reply from the endpoint in time", timed_out=True) from None
        raise NoReply(f"no reply from the endpoint ({_reason(exc)})") from None
    finally:
        watchdog.timer.cancel()
        if response is not None:
            response.close()
        connection.close()
    if watchdog.fired.is_set():  # cut short at the deadline, the body may look complete
        raise NoReply("no full reply from the endpoint in time", timed_out=True)
    return Reply(status, location, data)


def _reason(exc: BaseException) -> str:
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return " ".join(str(reason).split())[:200]
