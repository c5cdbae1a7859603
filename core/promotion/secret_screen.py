"""Screening what promotion writes for secrets and private data (docs/PROMOTION.md, "Secrets").

MEMORY.md and AGENTS.md are loaded into every prompt and are often synced or shared, so an
entry carrying a credential or contact details is held back like an instruction to the agent.

Pure: `find_secret` returns the first finding (what it is and where), `secret_reason` says it
in words with the secret masked, `masked` hides every finding of a text. A finding is, in order:

- a private key block, or a token of a common provider, recognised by its prefix and shape,
  whole or split into pieces by spaces or hyphens (core/promotion/secret_shapes.py);
- a JSON Web Token, a `Bearer …`, `Basic …` or `Authorization: token …` credential, an AWS
  secret access key beside the words "aws" and "secret";
- a password where it stands (core/promotion/secret_passwords.py): in a URL (the user may be
  empty), on a command line, in a `.netrc` or `.pgpass` line, after a secret-named key
  (`PGPASSWORD=`, `SECRET_KEY_BASE=`, `"apiKey":`, any value, hex too), in an XML element, or
  in a sentence ("the DB password is X"); placeholders such as `$VAR`, `<password>` or `***`
  aside (core/promotion/secret_values.py);
- any of those in a run of base64, decoded (one level, bounded);
- a long random-looking token: 32 characters or more of the base64/URL alphabet that mix
  lower case, upper case and digits in short pieces (not words, CamelCase or paths) and
  carry at least 4 bits of entropy a character. Hex alone (git SHAs, sha256 sums, UUIDs)
  never counts here: hashes are common in notes and say nothing secret by themselves;
- an e-mail address or a phone number, unless contact details are allowed.

Every finder reads the text in a bounded number of passes: a note of a few MB is screened in
time linear in its length.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate

from core.promotion import secret_passwords as passwords
from core.promotion.secret_commands import command_lines
from core.promotion.secret_shapes import (
    INTRODUCED,
    SHAPES,
    SPLITS,
    Split,
    private_keys,
    split_tokens,
)

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
    return secret[: min(SHOWN_CHARS, len(secret) // 4)] + "…"


# -- random-looking tokens -----------------------------------------------------------------------

_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{32,}")
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9+/_=-]*")
_HEX = re.compile(r"[0-9a-fA-F-]+")
# A token cut where its character class changes, an upper-case letter starting a word: random
# text falls into short pieces, words and CamelCase into long ones.
_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_SYMBOL = re.compile(r"[^A-Za-z0-9]")
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
    if not (
        any(c.islower() for c in body)
        and any(c.isupper() for c in body)
        and any(c.isdigit() for c in body)
    ):
        return False
    # Only letters and digits are counted: a path's slashes would cut it into short pieces.
    letters_and_digits = len(body) - len(_SYMBOL.findall(body))
    pieces = len(_PIECE.findall(body))
    return letters_and_digits <= MAX_PIECE_LENGTH * pieces and _entropy(body) >= MIN_ENTROPY


_PUBLIC_KEY_BEFORE = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519"
    r"@openssh\.com)[ \t]+$"
)


_PUBLISHABLE = re.compile(r"pk_(?:live|test)_|pk\.")  # Stripe's and Mapbox's public keys


def _random_tokens(text: str) -> Iterator[tuple[int, int]]:
    """Random-looking tokens, but an SSH public key's body or a publishable key."""
    for match in _TOKEN.finditer(text):
        if (
            random_looking(match.group())
            and not _PUBLISHABLE.match(match.group())
            and not _PUBLIC_KEY_BEFORE.search(text, max(0, match.start() - 40), match.start())
        ):
            yield match.span()


# -- base64 ------------------------------------------------------------------------------------

_BASE64 = re.compile(
    r"(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/]{16,}|[A-Za-z0-9_-]{16,})={0,2}"
    r"(?![A-Za-z0-9+/=_-])"
)
MOST_BASE64_RUN = 16_384  # characters of one run decoded: a secret sits near its start
MOST_BASE64_TOTAL = 1 << 20  # characters decoded from one text
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd]")
MIN_PRINTABLE = 0.95  # of the decoded characters, for them to read as text


def _decoded(run: str) -> str | None:
    """A run of base64 decoded, when it decodes to text (UTF-8, nearly all printable)."""
    run = run[: MOST_BASE64_RUN - MOST_BASE64_RUN % 4].rstrip("=")
    run += "=" * (-len(run) % 4)
    try:
        data = (
            base64.urlsafe_b64decode(run)
            if "-" in run or "_" in run
            else base64.b64decode(run, validate=True)
        )
        text = data.decode()
    except (binascii.Error, ValueError):
        return None
    unprintable = len(_UNPRINTABLE.findall(text))
    return text if text and unprintable <= (1 - MIN_PRINTABLE) * len(text) else None


# -- contact details -----------------------------------------------------------------------------

_EMAIL = re.compile(r"(?<![\w.+%-])([A-Za-z0-9._%+-]+)@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
_EXAMPLE_DOMAIN = re.compile(
    r"(?:.*\.)?(?:example\.(?:com|org|net)|example|test|invalid|"
    r"localhost|local)",
    re.IGNORECASE,
)
_PHONE_WORDS = ("phone", "tel", "mobile", "cell", "whatsapp", "sms", "fax")
_PHONES = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # One character a step, each of one kind: a run of digits is never cut two ways.
        r"(?<![\w+])\+[0-9](?:[0-9]|[ .-](?=[0-9(])|\((?=[0-9])|(?<=[0-9])\)){6,40}(?![\w])",
        r"(?<![\w.-])(?:\([0-9]{3}\) ?|[0-9]{3}[.-])[0-9]{3}[.-][0-9]{4}(?![\w.-])",
        r"\b(?:phone|tel|mobile|cell|whatsapp|sms|fax)\b\W{0,3}(\+?[0-9][0-9 ().-]{5,40}[0-9])",
    )
)


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
_PROSE_WORDS = ("pass", "pw", "secret", "token", "key")


def _spans(pattern: re.Pattern[str], group: int = 0) -> Finder:
    return lambda text: (m.span(group) for m in pattern.finditer(text))


def _pieces(split: Split) -> Finder:
    return lambda text: split_tokens(split, text)


_PLAIN: tuple[Detector, ...] = (
    ("a private key block", private_keys, ("private key",)),
    *((kind, _spans(pattern), needles) for kind, pattern, needles in SHAPES),
    *((split.kind, _pieces(split), split.needles) for split in SPLITS),
    *((kind, _spans(pattern, 1), needles) for kind, pattern, needles in INTRODUCED),
    ("a password in a URL", passwords.url_passwords, ("://",)),
    ("a token in a URL", passwords.url_tokens, ("://",)),
    ("a password on a command line", command_lines, ()),
    ("credentials in a .netrc line", passwords.netrc_lines, ("password",)),
    ("a password in a .pgpass line", passwords.pgpass_lines, (":",)),
    (
        "a password or key in an assignment",
        passwords.assignments,
        ("pass", "pw", "secret", "key", "token", "credential", "cred", "auth"),
    ),
    ("a password or key in an XML element", passwords.xml_elements, ("</",)),
    ("a password or key in a sentence", passwords.sentences, _PROSE_WORDS),
)
_CONTACT: tuple[Detector, ...] = (
    ("an e-mail address", _emails, ("@",)),
    ("a phone number", _phones, ()),
)
_RANDOM: Detector = ("a random-looking token", _random_tokens, ())


def _detectors(text: str, detectors: tuple[Detector, ...]) -> Iterator[tuple[str, Finder]]:
    """The detectors that may find something in `text`, in order."""
    lowered = text.lower()
    for kind, find, needles in detectors:
        if not needles or any(needle in lowered for needle in needles):
            yield kind, find


def _encoded(text: str, allow_contact: bool) -> Iterator[Finding]:
    """Runs of base64 that decode to text carrying a secret, named for what they carry. The
    decoded texts are screened together, a blank line apart, each finding told to its run."""
    runs, decoded, budget = [], [], MOST_BASE64_TOTAL
    for match in _BASE64.finditer(text):
        if budget <= 0:
            break
        budget -= min(len(match.group()), MOST_BASE64_RUN)
        plain = _decoded(match.group())
        if plain:
            runs.append(match.span())
            decoded.append(plain)
    if not runs:
        return
    joined = "\n\n".join(decoded)
    starts = list(accumulate((len(plain) + 2 for plain in decoded[:-1]), initial=0))
    inner = _PLAIN + (_RANDOM,) + (() if allow_contact else _CONTACT)
    told: set[int] = set()
    for kind, find in _detectors(joined, inner):
        for start, _ in find(joined):
            run = bisect_right(starts, start) - 1
            if run not in told:
                told.add(run)
                yield Finding(f"base64 of {kind}", *runs[run])


def _findings(text: str, allow_contact: bool) -> Iterator[Iterator[Finding]]:
    """For each detector in order, what it finds in the text."""
    for kind, find in _detectors(text, _PLAIN):
        yield (Finding(kind, *span) for span in find(text))
    yield _encoded(text, allow_contact)
    for kind, find in _detectors(text, (_RANDOM,) + (() if allow_contact else _CONTACT)):
        yield (Finding(kind, *span) for span in find(text))


def find_secret(text: str, allow_contact: bool = False) -> Finding | None:
    """The first kind of secret (in the order above) the text carries, where it first is."""
    for found in _findings(text, allow_contact):
        first = next(found, None)
        if first is not None:
            return first
    return None


def secret_reason(text: str, allow_contact: bool = False) -> str | None:
    """ "carries <what> (<masked>)", or None: the reason an entry is held back."""
    found = find_secret(text, allow_contact)
    if found is None:
        return None
    return f"carries {found.kind} ({mask(text[found.start : found.end])})"


def note_secret(title: str, content: str, allow_contact: bool = False) -> str | None:
    """Why a note holds a secret (the reason, masked), from its title and the first
    `NOTE_SCAN_CHARS` characters: the console marks such notes for the operator to archive."""
    head = f"{title[:NOTE_SCAN_CHARS]}\n{content[:NOTE_SCAN_CHARS]}"[:NOTE_SCAN_CHARS]
    return secret_reason(head, allow_contact)


def masked(text: str, allow_contact: bool = False) -> str:
    """The text with every secret it carries masked (`mask`), to be shown."""
    spans = sorted(
        ((f.start, f.end) for found in _findings(text, allow_contact) for f in found),
        key=lambda span: (span[0], -span[1]),
    )  # the widest first where several start
    parts, at = [], 0
    for start, end in spans:
        if start < at:  # overlaps one masked already
            continue
        tail = _TOKEN_TAIL.match(text, end)  # a key longer than a pattern's bound, whole
        end = tail.end() if tail else end
        parts += [text[at:start], mask(text[start:end])]
        at = end
    return "".join(parts) + text[at:]
