"""Passwords and keys found by where they stand (docs/PROMOTION.md, "Secrets"): in a URL
(`redis://:pass@host`), after a secret-named key (`PGPASSWORD=…`, `"apiKey": "…"`,
`<password>…</password>`), in a `.netrc` or `.pgpass` line, or in a sentence ("the staging DB
password is X"). Command lines have their own module (core/promotion/secret_commands.py).

Pure. Each finder yields the span of the secret itself. Every repeat is bounded and every
pattern starts where a run of its first characters starts, so a text of a few MB costs a few
passes over it, never one a character.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from core.promotion.secret_values import (
    QUOTED,
    VALUE,
    Span,
    password_named,
    placeholder,
    reads_as_secret,
    secret_named,
    stated,
    value_of,
)

# -- URLs ----------------------------------------------------------------------------------------

_URL_PASSWORD = re.compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]{0,200}:([^\s/@]{1,300})@(?=[^\s/@])", re.IGNORECASE
)
_URL_TOKEN = re.compile(
    r"\b[a-z][a-z0-9+.-]{1,20}://([A-Za-z0-9_-]{20,300})@(?=[\w.-])", re.IGNORECASE
)


def url_passwords(text: str) -> Iterator[Span]:
    """`scheme://user:pass@host`, the user possibly empty (`redis://:pass@cache`)."""
    for match in _URL_PASSWORD.finditer(text):
        if not placeholder(match.group(1)):
            yield match.span(1)


def url_tokens(text: str) -> Iterator[Span]:
    """`https://TOKEN@host`: a user of 20 characters or more mixing letters and digits."""
    for match in _URL_TOKEN.finditer(text):
        token = match.group(1)
        if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
            yield match.span(1)


# -- assignments ---------------------------------------------------------------------------------

# A key where a run of name characters starts, an optional closing quote, then `=`, `:=`, `=>`
# or `:`; a bare value stops where a connection string or a query string goes on.
# A key is not one link of a chain (`arn:aws:secretsmanager:…`), but PowerShell's `$env:KEY` is.
# The value is looked at ahead, not taken: it may be a key itself (`Header: X-Api-Key: …`).
_ASSIGNMENT = re.compile(
    r"(?:(?<=\$env:)|(?<![\w.$:-]))(?P<key>[A-Za-z_][\w.-]{0,100})[\"']?[ \t]{0,20}"
    r"(?P<op>:=|=>|=(?!=)|:(?![:/]))"
    r"(?=[ \t]{0,20}(?:" + QUOTED + r"|(?P<bare>[^\s\"'`,;&]{1,300})))"
)
_XML = re.compile(r"<(?P<key>[A-Za-z_][\w:.-]{0,100})>(?P<value>[^<\n]{1,300})</(?P=key)>")


def _docker_auth(value: str) -> bool:
    """A Docker config's `"auth"`: base64 of `user:password`."""
    try:
        decoded = base64.b64decode(value, validate=True).decode()
    except (binascii.Error, ValueError):
        return False
    return ":" in decoded.strip(":")


def _assigned(key: str, value: str, strong: bool) -> bool:
    if key.lower() == "auth":
        return strong and _docker_auth(value)
    if not secret_named(key):
        return False
    password = password_named(key)
    return stated(value, password) if strong else reads_as_secret(value, password)


def assignments(text: str) -> Iterator[Span]:
    """A value given to a secret-named key: after `=`, `:=`, `=>` or in quotes any value that
    is no placeholder; after a bare `:` (YAML, words) one that reads as a secret."""
    for match in _ASSIGNMENT.finditer(text):
        value, span, quoted = value_of(match) or ("", (0, 0), False)
        if _assigned(match.group("key"), value, quoted or match.group("op") != ":"):
            yield span


def xml_elements(text: str) -> Iterator[Span]:
    """`<password>…</password>`, `<apiKey>…</apiKey>`."""
    for match in _XML.finditer(text):
        key, value = match.group("key").rpartition(":")[2], match.group("value")
        if secret_named(key) and stated(value, password_named(key)):
            yield match.span("value")


# -- credential files ----------------------------------------------------------------------------

_NETRC = re.compile(
    r"(?<![\w-])(?:machine[ \t\n]{1,20}[^\s]{1,300}|default)"
    r"(?:\s{1,20}(?:login|account|port)\s{1,20}[^\s]{1,300}){0,3}\s{1,20}password\s{1,20}" + VALUE
)
_LOGIN_PASSWORD = re.compile(
    r"(?<![\w-])login\s{1,20}[^\s]{1,300}\s{1,20}password\s{1,20}" + VALUE, re.IGNORECASE
)
_PGPASS = re.compile(
    r"(?m)^[ \t]*(?:[A-Za-z][\w.-]{0,200}|\*):(?:[0-9]{1,5}|\*):"
    r"[^:\s]{1,200}:[^:\s]{1,200}:([^\s]{1,300})[ \t]*$"
)


def netrc_lines(text: str) -> Iterator[Span]:
    """`machine host login me password X` (any value), and `login me password X` elsewhere
    (one that reads as a secret)."""
    for pattern, sure in ((_NETRC, True), (_LOGIN_PASSWORD, False)):
        for match in pattern.finditer(text):
            value, span, _ = value_of(match) or ("", (0, 0), False)
            if stated(value, True) if sure else reads_as_secret(value, True):
                yield span


def pgpass_lines(text: str) -> Iterator[Span]:
    """`host:port:database:user:password` on a line of its own."""
    for match in _PGPASS.finditer(text):
        if stated(match.group(1), True):
            yield match.span(1)


# -- sentences -----------------------------------------------------------------------------------

_PROSE_KEYS = (
    r"pass(?:word|wd|phrase|code)s?|pw|pwd|secret|token|"
    r"(?:api|secret|private|access|signing|license|licence|encryption|master)[ _-]?key"
)
_PROSE = re.compile(
    r"(?<![\w:/.-])(?P<key>" + _PROSE_KEYS + r")"
    r"(?:[ \t]{1,20}(?:for|of|on|to|at|in)(?:[ \t]{1,20}[\w.@:/-]{1,60}){1,3})?"
    r"(?:[ \t]{1,20}(?:is|was|will[ \t]be|would[ \t]be|is[ \t]set[ \t]to|set[ \t]to|is[ \t]now|"
    r"now[ \t]is|remains|reads|became|becomes|=)[ \t]{1,20}|[ \t]{0,20}(?::|=|:=)[ \t]{0,20})"
    + VALUE,
    re.IGNORECASE,
)


def sentences(text: str) -> Iterator[Span]:
    """ "the staging DB password is X", "pw: X", "the deploy token is X": a password quoted
    that is no placeholder, or a value that reads as a secret (a word does not: "the token is
    `usemtl`" names a token of a parser)."""
    for match in _PROSE.finditer(text):
        value, span, quoted = value_of(match) or ("", (0, 0), False)
        password = match.group("key").lower().startswith(("pass", "pw"))
        if stated(value, password) if quoted and password else reads_as_secret(value, password):
            start, end = span
            yield start, end - (len(value) - len(value.rstrip(".,;:!?)")))
