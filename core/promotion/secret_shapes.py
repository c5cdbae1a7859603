"""Secrets recognised by their shape (docs/PROMOTION.md, "Secrets"): private key blocks, the
tokens of common providers by prefix and shape (whole, or split by spaces or hyphens into
pieces: `ghp_Ab3d E6gH …`), JSON Web Tokens, and credentials after a word that introduces them
(`Bearer …`, `Authorization: Basic …`, `Authorization: token …`, an AWS secret key).

Pure. Every repeat is bounded (keys are far shorter than 300 characters): a long run costs one
pass, not one a start.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

Span = tuple[int, int]

_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,5}PRIVATE KEY(?: BLOCK)?-----")
_END = re.compile(r"-----END (?:[A-Z0-9]{1,20} ){0,5}PRIVATE KEY(?: BLOCK)?-----")
MOST_KEY_CHARS = 20_000  # between a private key's first line and its last


def private_keys(text: str) -> Iterator[Span]:
    """A private key block, from its first line to its last (or its first line alone): the
    ends are found in one pass and each block takes the first after it."""
    if "PRIVATE KEY" not in text:
        return
    ends = [(end.start(), end.end()) for end in _END.finditer(text)]
    for begin in _BEGIN.finditer(text):
        at = bisect_left(ends, (begin.end(), 0))
        close = ends[at] if at < len(ends) else None
        near = close is not None and close[0] - begin.end() <= MOST_KEY_CHARS
        yield begin.start(), close[1] if close is not None and near else begin.end()


# (what it is, its pattern, words one of which a text holds in lower case when it may be there)
SHAPES: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (kind, re.compile(pattern), needles)
    for kind, pattern, needles in (
        ("an Anthropic API key", r"\bsk-ant-[A-Za-z0-9_-]{20,300}", ("sk-ant-",)),
        (
            "an OpenAI API key",
            r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,300}?[0-9])"
            r"(?=[A-Za-z0-9_-]{0,300}?[A-Za-z])[A-Za-z0-9_-]{20,300}",
            ("sk-",),
        ),
        (
            "a GitHub token",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,300}|github_pat_[A-Za-z0-9_]{22,300})",
            ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        ),
        ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,300}", ("glpat-",)),
        (
            "an AWS access key",
            r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
            ("akia", "asia", "abia", "acca"),
        ),
        ("a Slack token", r"\bxox[abposre]-[A-Za-z0-9-]{10,300}", ("xox",)),
        (
            "a Slack webhook",
            r"hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,300}",
            ("hooks.slack.com",),
        ),
        ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}", ("aiza",)),
        ("a Google OAuth token", r"\bya29\.[0-9A-Za-z_-]{20,300}", ("ya29.",)),
        (
            "a Stripe secret key",
            r"\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,300}",
            ("k_live_", "k_test_"),
        ),
        ("a Stripe webhook secret", r"\bwhsec_[A-Za-z0-9+/]{24,300}", ("whsec_",)),
        ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{30,300}", ("hf_",)),
        ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b", ("npm_",)),
        ("a PyPI token", r"\bpypi-[A-Za-z0-9_-]{50,300}", ("pypi-",)),
        ("a SendGrid key", r"\bSG\.[A-Za-z0-9_-]{16,300}\.[A-Za-z0-9_-]{16,300}", ("sg.",)),
        ("a Telegram bot token", r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])", (":aa",)),
        (
            "a Discord bot token",
            r"\b[MNO](?=[A-Za-z0-9_-]{0,25}[0-9])[A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\."
            r"[A-Za-z0-9_-]{27,38}\b",
            (".",),
        ),
        ("a DigitalOcean token", r"\bdo[opr]_v1_[a-f0-9]{64}\b", ("_v1_",)),
        ("a Shopify token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", ("shp",)),
        ("a Databricks token", r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b", ("dapi",)),
        ("a Twilio API key", r"\bSK[0-9a-f]{32}\b", ("sk",)),
        ("a Mailgun key", r"\bkey-(?=[a-zA-Z]{0,31}[0-9])[0-9a-zA-Z]{32}\b", ("key-",)),
        ("a Groq API key", r"\bgsk_[A-Za-z0-9]{48,300}", ("gsk_",)),
        ("an xAI API key", r"\bxai-[A-Za-z0-9]{60,300}", ("xai-",)),
        ("a Replicate token", r"\br8_[A-Za-z0-9]{37,300}", ("r8_",)),
        ("a Linear API key", r"\blin_api_[A-Za-z0-9]{40,300}", ("lin_api_",)),
        (
            "a Notion token",
            r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,300})\b",
            ("secret_", "ntn_"),
        ),
        ("an Atlassian token", r"\bATATT3[A-Za-z0-9_=-]{100,300}", ("atatt3",)),
        ("a Doppler token", r"\bdp\.(?:st|ct|sa|scim|audit|pt)\.[A-Za-z0-9_.-]{40,300}", ("dp.",)),
        ("a HashiCorp Vault token", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,300}", ("hvs.", "hvb.", "hvr.")),
        ("an age secret key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", ("age-secret-key-",)),
        ("a Sentry token", r"\bsntry[su]_[A-Za-z0-9+/=_-]{30,300}", ("sntry",)),
        ("a Grafana token", r"\bgl(?:sa|c)_[A-Za-z0-9_=+/-]{32,300}", ("glsa_", "glc_")),
        ("a Pulumi token", r"\bpul-[a-f0-9]{40}\b", ("pul-",)),
        (
            "a Terraform Cloud token",
            r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,300}",
            ("atlasv1",),
        ),
        (
            "a Mapbox secret token",
            r"\bsk\.eyJ[A-Za-z0-9_-]{20,300}\.[A-Za-z0-9_-]{10,300}",
            ("sk.eyj",),
        ),
        (
            "a JSON Web Token",
            r"\beyJ[A-Za-z0-9_-]{10,300}\.eyJ[A-Za-z0-9_-]{10,300}\.[A-Za-z0-9_-]{0,300}",
            ("eyj",),
        ),
    )
)
# A credential after a word that introduces one; group 1 is the credential.
INTRODUCED: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE), needles)
    for kind, pattern, needles in (
        (
            "a bearer token",
            r"\bbearer\s{1,20}((?=[A-Za-z0-9._~+/-]{0,300}?[0-9])[A-Za-z0-9._~+/-]{16,300}=*)",
            ("bearer",),
        ),
        (
            "basic-auth credentials",
            r"\bauthorization\s{0,20}:\s{0,20}basic\s{1,20}([A-Za-z0-9+/]{8,300}=*)",
            ("basic",),
        ),
        (
            "a token in an Authorization header",
            r"\bauthorization\s{0,20}[:=]\s{0,20}[\"']?(?:token|apikey|api-key|key|sso-key)"
            r"\s{1,20}((?=[A-Za-z0-9._~+/=-]{0,300}?[0-9])(?=[A-Za-z0-9._~+/=-]{0,300}?[A-Za-z])"
            r"[A-Za-z0-9._~+/=-]{12,300})",
            ("authorization",),
        ),
        (
            "an AWS secret key",
            r"\baws\w{0,20}?[\s_-]{0,20}secret[^\n]{0,30}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})"
            r"(?![A-Za-z0-9/+])",
            ("aws",),
        ),
    )
)


# -- tokens split into pieces --------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """A provider's token as it may be written in pieces: its prefix, the characters of its
    body, how long the body is at least, whether a hyphen may part the pieces (not when the
    body may hold one), and the words one of which a text holds when it may be there."""

    kind: str
    prefix: re.Pattern[str]
    body: re.Pattern[str]
    length: int
    hyphens: bool
    needles: tuple[str, ...]


def _split(kind: str, prefix: str, body: str, length: int, *needles: str) -> Split:
    return Split(
        kind,
        re.compile(r"(?<![A-Za-z0-9_-])" + prefix),
        re.compile(f"[{body}]+"),
        length,
        not body.endswith("-"),
        needles,
    )


SPLITS: tuple[Split, ...] = (
    _split("an Anthropic API key", "sk-ant-", "A-Za-z0-9_-", 40, "sk-ant-"),
    _split("an OpenAI API key", "sk-(?!ant-)(?:proj-|svcacct-|admin-)?", "A-Za-z0-9_-", 32, "sk-"),
    _split("a GitHub token", "gh[pousr]_", "A-Za-z0-9", 36, "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    _split("a GitHub token", "github_pat_", "A-Za-z0-9_", 82, "github_pat_"),
    _split("a GitLab token", "glpat-", "A-Za-z0-9_-", 20, "glpat-"),
    _split(
        "an AWS access key", "(?:AKIA|ASIA|ABIA|ACCA)", "A-Z0-9", 16, "akia", "asia", "abia", "acca"
    ),
    _split("a Google API key", "AIza", "A-Za-z0-9_-", 35, "aiza"),
    _split("a Stripe secret key", "[sr]k_(?:live|test)_", "A-Za-z0-9", 24, "k_live_", "k_test_"),
    _split("a Hugging Face token", "hf_", "A-Za-z0-9", 34, "hf_"),
    _split("an npm token", "npm_", "A-Za-z0-9", 36, "npm_"),
)
# Pieces parted by a space or a hyphen. A part is never a character of a piece, so a run is
# read once.
_RUN = {
    True: re.compile(r"[ \t-]?[A-Za-z0-9_]{1,100}(?:[ \t-][A-Za-z0-9_]{1,100}){0,100}"),
    False: re.compile(r"[ \t]?[A-Za-z0-9_-]{1,100}(?:[ \t][A-Za-z0-9_-]{1,100}){0,100}"),
}
_PART = {True: re.compile(r"[ \t-]"), False: re.compile(r"[ \t]")}
_PIECE = {True: re.compile(r"[A-Za-z0-9_]+"), False: re.compile(r"[A-Za-z0-9_-]+")}
_CLASS_RUN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")
MOST_CLASS_RUN = 3.5  # characters of one class in a row, on average: random text, not words


def _random_body(body: str) -> bool:
    """Pieces of a key, not words: letters and digits, and where both cases are allowed short
    runs of one class (a sentence after `ghp_` has long ones)."""
    if not (_DIGIT.search(body) and _LETTER.search(body)):
        return False
    return body.upper() == body or len(body) <= MOST_CLASS_RUN * len(_CLASS_RUN.findall(body))


def _split_at(split: Split, text: str, start: int, end: int) -> Span | None:
    """The span of a token in pieces whose prefix is text[start:end], or None: two pieces or
    more of its body's characters (the first may stand apart from the prefix), up to the body's
    length, that read as random. What is read stops 2 body lengths on (pieces of 1 character,
    each time)."""
    run = _RUN[split.hyphens].match(text, end, min(len(text), end + 2 * split.length))
    if run is None or run.end() - end <= split.length:  # one piece, or too short with its parts
        return None
    pieces = run.group()
    body = _PART[split.hyphens].sub("", pieces)[: split.length]
    first = _PIECE[split.hyphens].search(pieces)
    if (
        len(body) < split.length
        or first is None
        or first.end() - first.start() >= split.length
        or not split.body.fullmatch(body)
        or not _random_body(body)
    ):
        return None
    taken = 0
    for piece in _PIECE[split.hyphens].finditer(pieces):
        taken += len(piece.group())
        if taken >= split.length:
            return start, end + piece.end()
    return None


def split_tokens(split: Split, text: str) -> Iterator[Span]:
    """A provider's token written in pieces (`ghp_Ab3d E6gH …`, `AKIA-ABCD-…`)."""
    for prefix in split.prefix.finditer(text):
        found = _split_at(split, text, *prefix.span())
        if found:
            yield found
