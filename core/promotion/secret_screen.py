"""Screening what promotion writes for secrets and private data (docs/PROMOTION.md, "Secrets").

MEMORY.md and AGENTS.md are loaded into every prompt and are often synced or shared, so an
entry carrying a credential or contact details is held back like an instruction to the agent.

Pure: `find_secret` returns the first finding (what it is and where), `secret_reason` says it
in words with the secret masked, `masked` hides every finding of a text. A finding is, in order:

- a private key block, or a token of a common provider, recognised by its prefix and shape;
- a JSON Web Token, a `Bearer …` or `Basic …` credential;
- a password in a URL (`scheme://user:pass@host`) or in an assignment (`password=…`,
  `"api_key": "…"`, `secret: …`), placeholders such as `$VAR`, `<password>` or `***` aside;
- an AWS secret access key beside the words "aws" and "secret";
- a long random-looking token: 32 characters or more of the base64/URL alphabet that mix
  lower case, upper case and digits in short pieces (not words, CamelCase or paths) and
  carry at least 4 bits of entropy a character. Hex alone (git SHAs, sha256
  sums, UUIDs) never counts: hashes are common in notes and say nothing secret by themselves;
- an e-mail address or a phone number, unless contact details are allowed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SHOWN_CHARS = 4  # of a secret, in a reason: never more than a quarter of it
NOTE_SCAN_CHARS = 65_536  # of a note, for the console's mark: a note's head is what is read


@dataclass(frozen=True)
class Finding:
    """What was found (`kind`, with its article) and the span of the secret in the text."""

    kind: str
    start: int
    end: int


def mask(secret: str) -> str:
    """The first few characters of a secret and "…": at most 4, at most a quarter of it."""
    return secret[:min(SHOWN_CHARS, len(secret) // 4)] + "…"


# -- recognised by shape -------------------------------------------------------------------------

_PRIVATE_KEY = (r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
                r"(?:[\s\S]{0,20000}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?")
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in (
        ("a private key block", _PRIVATE_KEY),
        ("an Anthropic API key", r"\bsk-ant-[A-Za-z0-9_-]{20,300}"),
        ("an OpenAI API key", r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,300}?[0-9])"
                              r"(?=[A-Za-z0-9_-]{0,300}?[A-Za-z])[A-Za-z0-9_-]{20,300}"),
        ("a GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,300}|github_pat_[A-Za-z0-9_]{22,300})"),
        ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,300}"),
        ("an AWS access key", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
        ("a Slack token", r"\bxox[abposre]-[A-Za-z0-9-]{10,300}"),
        ("a Slack webhook", r"hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,300}"),
        ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}"),
        ("a Google OAuth token", r"\bya29\.[0-9A-Za-z_-]{20,300}"),
        ("a Stripe secret key", r"\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,300}"),
        ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{30,300}"),
        ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("a PyPI token", r"\bpypi-[A-Za-z0-9_-]{50,300}"),
        ("a SendGrid key", r"\bSG\.[A-Za-z0-9_-]{16,300}\.[A-Za-z0-9_-]{16,300}"),
        ("a Telegram bot token", r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),
        ("a JSON Web Token",
         r"\beyJ[A-Za-z0-9_-]{10,300}\.eyJ[A-Za-z0-9_-]{10,300}\.[A-Za-z0-9_-]{0,300}"),
    )
)
# A credential after a word that introduces one; group 1 is the credential. Every repeat is
# bounded (keys are far shorter than 300 characters): a long run costs one pass, not one a start.
_INTRODUCED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in (
        ("a bearer token",
         r"\bbearer\s+((?=[A-Za-z0-9._~+/-]{0,300}?[0-9])[A-Za-z0-9._~+/-]{16,300}=*)"),
        ("basic-auth credentials", r"\bauthorization\s*:\s*basic\s+([A-Za-z0-9+/]{8,300}=*)"),
        ("an AWS secret key",
         r"\baws\w{0,20}?[\s_-]*secret[^\n]{0,30}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})"
         r"(?![A-Za-z0-9/+])"),
    )
)


# -- passwords -----------------------------------------------------------------------------------

_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]+:([^\s/@]+)@[^\s/@]",
                           re.IGNORECASE)
_KEYS = (r"password|passwd|passphrase|pwd|pass|secret|client[_-]?secret|api[_-]?key|apikey|"
         r"access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|"
         r"refresh[_-]?token|token")
_ASSIGNMENT = re.compile(
    r"(?<![a-z0-9])(?:" + _KEYS + r")\b[\"']?\s*(=|:)\s*"
    r"(?:([\"'])([^\"'\n]{1,200})\2|([^\s\"',;]+))", re.IGNORECASE)
# What stands in a config or a doc where the secret would: a variable, a template, a mask (ours
# too), a word, or code that fetches it.
_PLACEHOLDER = re.compile(
    r"\$.*|%\w+%|[<{\[(].*|[*x.…•]+|.{0,4}…|"
    r"(?:your|my|the|some|new|old)[_-]?\w*|example\w*|placeholder|redacted|changeme|secret|"
    r"password|none|null|nil|true|false|undefined|env|required|optional|string|str|"
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_][\w.]*[(\[].*",
    re.IGNORECASE)


def _secret_looking(value: str) -> bool:
    """A value after `secret: ` reads as a secret rather than words: digits and letters mixed,
    or a symbol in it."""
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    has_symbol = any(not c.isalnum() and c not in "-_." for c in value)
    return len(value) >= 8 and (has_digit and has_alpha or has_symbol)


def _assigned_password(text: str) -> Iterator[tuple[int, int]]:
    for match in _ASSIGNMENT.finditer(text):
        group = 3 if match.group(3) is not None else 4
        value = match.group(group).strip()
        if not value or _PLACEHOLDER.fullmatch(value) or value.isdigit() and len(value) < 6:
            continue
        if (match.group(1) == "=" or group == 3) and len(value) >= 4 or _secret_looking(value):
            yield match.start(group), match.end(group)


def _url_password(text: str) -> Iterator[tuple[int, int]]:
    for match in _URL_PASSWORD.finditer(text):
        if not _PLACEHOLDER.fullmatch(match.group(1)):
            yield match.start(1), match.end(1)


# -- random-looking tokens -----------------------------------------------------------------------

_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{32,}")
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9+/_=-]*")
_HEX = re.compile(r"[0-9a-fA-F-]+")
# A token cut where its character class changes, an upper-case letter starting a word: random
# text falls into short pieces, words and CamelCase into long ones.
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^A-Za-z0-9]+")
MIN_RANDOM_CHARS = 32
MAX_PIECE_LENGTH = 3.0  # random alphanumerics: 2.0 on average, above 3.0 in 1 of 1,000
MIN_ENTROPY = 4.0  # bits a character; random alphanumerics of 32 characters: 4.2 or more in 99 %


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def random_looking(token: str) -> bool:
    """A token that reads as random: long, not hex, upper and lower case and digits mixed in
    short pieces (not words, CamelCase or paths), and dense in information."""
    body = token.rstrip("=")
    if len(body) < MIN_RANDOM_CHARS or _HEX.fullmatch(body):
        return False
    if not (any(c.islower() for c in body) and any(c.isupper() for c in body)
            and any(c.isdigit() for c in body)):
        return False
    pieces = len(_PIECE.findall(body))
    return len(body) <= MAX_PIECE_LENGTH * pieces and _entropy(body) >= MIN_ENTROPY


def _random_tokens(text: str) -> Iterator[tuple[int, int]]:
    for match in _TOKEN.finditer(text):
        if random_looking(match.group()):
            yield match.span()


# -- contact details -----------------------------------------------------------------------------

_EMAIL = re.compile(r"(?<![\w.+%-])([A-Za-z0-9._%+-]+)@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
_EXAMPLE_DOMAIN = re.compile(r"(?:.*\.)?(?:example\.(?:com|org|net)|example|test|invalid|"
                             r"localhost|local)", re.IGNORECASE)
_PHONE_WORDS = ("phone", "tel", "mobile", "cell", "whatsapp", "sms", "fax")
_PHONES = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    r"(?<![\w+])\+[0-9]{1,3}(?:[ .-]?\(?[0-9]{1,4}\)?){2,6}(?![\w])",
    r"(?<![\w.-])(?:\([0-9]{3}\) ?|[0-9]{3}[.-])[0-9]{3}[.-][0-9]{4}(?![\w.-])",
    r"\b(?:phone|tel|mobile|cell|whatsapp|sms|fax)\b\W{0,3}(\+?[0-9][0-9 ().-]{5,}[0-9])",
))


def _emails(text: str) -> Iterator[tuple[int, int]]:
    for match in _EMAIL.finditer(text):
        local, domain = match.group(1), match.group(2)
        if local.lower() != "git" and not _EXAMPLE_DOMAIN.fullmatch(domain):
            yield match.span()


def _phones(text: str) -> Iterator[tuple[int, int]]:
    lowered = text.lower()
    worded = any(word in lowered for word in _PHONE_WORDS)
    for pattern, wanted in zip(_PHONES, ("+" in text, True, worded), strict=True):
        if not wanted:
            continue
        for match in pattern.finditer(text):
            group = 1 if pattern.groups else 0
            digits = sum(c.isdigit() for c in match.group(group))
            if 7 <= digits <= 15:
                yield match.span(group)


# -- all of them ---------------------------------------------------------------------------------

Finder = Callable[[str], Iterator[tuple[int, int]]]
# What it is, how it is found, and words one of which the text holds (in lower case) when it
# may be there: most notes hold none, and a pattern that may start anywhere costs a pass.
Detector = tuple[str, Finder, tuple[str, ...]]
_NEEDLES = {
    "a private key block": ("private key",), "an Anthropic API key": ("sk-ant-",),
    "an OpenAI API key": ("sk-",),
    "a GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "a GitLab token": ("glpat-",), "an AWS access key": ("akia", "asia", "abia", "acca"),
    "a Slack token": ("xox",), "a Slack webhook": ("hooks.slack.com",),
    "a Google API key": ("aiza",), "a Google OAuth token": ("ya29.",),
    "a Stripe secret key": ("k_live_", "k_test_"), "a Hugging Face token": ("hf_",),
    "an npm token": ("npm_",), "a PyPI token": ("pypi-",), "a SendGrid key": ("sg.",),
    "a Telegram bot token": (":aa",), "a JSON Web Token": ("eyj",),
    "a bearer token": ("bearer",), "basic-auth credentials": ("basic",),
    "an AWS secret key": ("aws",),
}


def _spans(pattern: re.Pattern[str], group: int = 0) -> Finder:
    return lambda text: (m.span(group) for m in pattern.finditer(text))


_SECRETS: tuple[Detector, ...] = (
    *((kind, _spans(pattern), _NEEDLES[kind]) for kind, pattern in _SHAPES),
    *((kind, _spans(pattern, 1), _NEEDLES[kind]) for kind, pattern in _INTRODUCED),
    ("a password in a URL", _url_password, ("://",)),
    ("a password or key in an assignment", _assigned_password,
     ("pass", "pwd", "secret", "key", "token")),
    ("a random-looking token", _random_tokens, ()),
)
_CONTACT: tuple[Detector, ...] = (
    ("an e-mail address", _emails, ("@",)),
    ("a phone number", _phones, ()),
)


def _detectors(text: str, allow_contact: bool) -> Iterator[tuple[str, Finder]]:
    """The detectors that may find something in `text`, in order."""
    lowered = text.lower()
    for kind, find, needles in _SECRETS if allow_contact else _SECRETS + _CONTACT:
        if not needles or any(needle in lowered for needle in needles):
            yield kind, find


def find_secret(text: str, allow_contact: bool = False) -> Finding | None:
    """The first kind of secret (in the order above) the text carries, where it first is."""
    for kind, find in _detectors(text, allow_contact):
        first = next(find(text), None)
        if first is not None:
            return Finding(kind, *first)
    return None


def secret_reason(text: str, allow_contact: bool = False) -> str | None:
    """"carries <what> (<masked>)", or None: the reason an entry is held back."""
    found = find_secret(text, allow_contact)
    if found is None:
        return None
    return f"carries {found.kind} ({mask(text[found.start:found.end])})"


def note_secret(title: str, content: str, allow_contact: bool = False) -> str | None:
    """Why a note holds a secret (the reason, masked), from its title and the first
    `NOTE_SCAN_CHARS` characters: the console marks such notes for the operator to archive."""
    head = f"{title[:NOTE_SCAN_CHARS]}\n{content[:NOTE_SCAN_CHARS]}"[:NOTE_SCAN_CHARS]
    return secret_reason(head, allow_contact)


def masked(text: str, allow_contact: bool = False) -> str:
    """The text with every secret it carries masked (`mask`), to be shown."""
    spans = sorted((span for _, find in _detectors(text, allow_contact) for span in find(text)),
                   key=lambda span: (span[0], -span[1]))  # the widest first where several start
    parts, at = [], 0
    for start, end in spans:
        if start < at:  # overlaps one masked already
            continue
        tail = _TOKEN_TAIL.match(text, end)  # a key longer than a pattern's bound, whole
        end = tail.end() if tail else end
        parts += [text[at:start], mask(text[start:end])]
        at = end
    return "".join(parts) + text[at:]
