"""What the secret screen asks of a name and of a value (docs/PROMOTION.md, "Secrets").

Pure. `secret_named` says whether a key names a secret (`PGPASSWORD`, `apiKey`, `X-Api-Key`,
`SECRET_KEY_BASE`) rather than something about one (`PASSWORD_MIN_LENGTH`, `secretKeyRef`,
`PUBLIC_KEY`, `max_tokens`); `placeholder` whether a value only stands where a secret would (a
variable, a template, a mask, code that fetches it, a path, a URL, a reference, the slot's own
name); `reads_as_secret` whether a value met in words (after a bare `:`, "is", a flag) reads as a
secret rather than as a word.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

Span = tuple[int, int]
# A value: quoted (any characters but the quote and a line end), or bare (up to a space).
QUOTED = r"(?P<q>[\"'`])(?P<quoted>[^\"'`\n]{1,300})(?P=q)"
VALUE = f"(?:{QUOTED}|(?P<bare>[^\\s\"'`]{{1,300}}))"


def value_of(match: re.Match[str]) -> tuple[str, Span, bool] | None:
    """The value a pattern caught (`VALUE`), its span, and whether it was quoted."""
    for group, quoted in (("quoted", True), ("bare", False)):
        if match.group(group) is not None:
            return match.group(group), match.span(group), quoted
    return None


# A name cut into its words: `PGPASSWORD`, `apiKey` → api key, `X-Api-Key` → x api key.
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# A name's last word that makes it a setting about a secret, not the secret: its length,
# lifetime, file, name, id, URL, policy… (`PASSWORD_MIN_LENGTH=12`, `TOKEN_TTL=3600`).
_ABOUT = frozenset(
    """
    min max minimum maximum length len size count limit limits ttl expiry expires expiration
    expire lifetime timeout age rounds iterations iter cost policy policies hasher algorithm
    algorithms algo alg file files filename path paths dir directory env var variable name names
    id ids arn url uri urls endpoint host hostname port header headers field fields param params
    parameter type types kind enabled enable disabled disable required require reset prompt hint
    format prefix suffix regex pattern rule rules strength complexity store storage manager
    provider source ref refs reference mount version rotation rotate interval command cmd helper
    label description desc location mode method scope scopes usage budget encoding region user
    username login email owner seconds secs sec ms minutes mins hours days order changed updated
    created date time fingerprint bits window retries attempts lockout history validity valid
    chars characters check checker validator generator gen vault set list
""".split()
)
# Words before `key` that make it no secret: a database's, a cache's, a keyboard's, a public one.
_PLAIN_KEYS = frozenset(
    """
    primary foreign sort partition cache routing idempotency idempotence hot public pub
    publishable shortcut dedup dedupe lookup index unique composite group cluster row hash range
    object s3 map shard host gpg pgp registry keyboard hotkey candidate natural surrogate source
""".split()
)
# Words before `key` that make it a secret in any spelling (`apiKey`, `signing_key`); in an
# environment variable's (`STRIPE_KEY`) any word but those above does.
_SECRET_KEYS = frozenset(
    """
    api secret private access signing encryption encrypt decryption license licence master auth
    client app account storage shared hmac webhook service deploy bot admin consumer
    subscription session crypto jwt aes cipher root
""".split()
)
_NOT_SECRET = frozenset({"public", "publishable", "pub"})
_CONTAINED = ("password", "passwd", "passphrase", "credential")
_WHOLE = frozenset({"pwd", "pw", "creds", "cred", "passcode"})
_KEY_WORDS = (
    "apikey",
    "secretkey",
    "privatekey",
    "accesskey",
    "masterkey",
    "signingkey",
    "encryptionkey",
    "licensekey",
    "authkey",
    "appkey",
    "clientkey",
    "hmackey",
    "sharedkey",
)
_NOT_TOKENS = frozenset({"page", "next", "continuation", "sync", "cursor"})
_PASSWORD_WORDS = ("password", "passwd", "passphrase", "passcode")


def words(name: str) -> list[str]:
    """The words of a name, lower case, digits at its end dropped (`API_KEY_2` → api key)."""
    found = [w.lower() for w in _WORD.findall(name)]
    while found and found[-1].isdigit():
        found.pop()
    return found


def _secret_word(found: list[str], at: int, shouting: bool) -> bool:
    word = found[at]
    return (
        any(part in word for part in _CONTAINED)
        or word in _WHOLE
        or "secret" in word
        and "secreta" not in word  # secretary, secretariat
        or word.endswith(_KEY_WORDS)
        or word == "pass"
        and (shouting or at > 0)
    )  # DB_PASS, smtpPass; not a "pass": 2


def _token_word(found: list[str], at: int) -> bool:
    word = found[at]
    return word.endswith("token") and not (at and found[at - 1] in _NOT_TOKENS)


def _key_word(found: list[str], at: int, shouting: bool) -> bool:
    word = found[at]
    if word == "key":
        before = found[at - 1] if at else ""
        return before in _SECRET_KEYS or shouting and bool(before) and before not in _PLAIN_KEYS
    return shouting and word.endswith("key") and word[:-3] not in _PLAIN_KEYS  # STRIPEKEY


@lru_cache(maxsize=4096)
def secret_named(name: str) -> bool:
    """Whether a key (an environment variable, a config key, a JSON field, a header) names a
    secret itself: a word of it is or holds password, passwd, passphrase, secret, credential,
    token (not tokens), pwd or pw, or pass (not alone in lower case); or a key: after api,
    secret, private, access… in any spelling, after any word but a database's, a cache's or
    a public one in an environment variable's (`STRIPE_KEY`, `SECRET_KEY_BASE`; not
    `sourceKey`, `PRIMARY_KEY`). And its last word is not one that says something about it
    (`PASSWORD_MIN_LENGTH`, `TOKEN_TTL`, `API_KEY_HEADER`)."""
    found = words(name)
    if not found or found[-1] in _ABOUT or _NOT_SECRET.intersection(found):
        return False
    shouting = name.isupper()
    return any(
        _secret_word(found, i, shouting) or _token_word(found, i) or _key_word(found, i, shouting)
        for i in range(len(found))
    )


@lru_cache(maxsize=4096)
def password_named(name: str) -> bool:
    """Whether a secret-named key holds a password (a number may be one) rather than a key."""
    found = words(name)
    return any(w in ("pwd", "pw", "pass") or any(p in w for p in _PASSWORD_WORDS) for w in found)


# What stands in a config or a doc where the secret would: a variable, a template, a mask (ours
# too), code that fetches it, a word that says there is none, or the slot's own name.
_PLACEHOLDER = re.compile(
    r"\$.*|%\w+%|[<{\[(].*|[*x.…•#?_-]+|.{0,4}…|"
    r"the|a|an|(?:your|my|some|new|old|their|our)(?:[_-][\w-]*)?|"
    r"[A-Za-z_-]*[_-](?:password|token|key|here)|(?:replace|fill|set|put)[_-]?(?:me|this)|"
    r"(?:your|my|some|new|old|their|our)\w*(?:password|passwd|pass|pwd|pw|secret|token|key)|"
    r"example\w*|placeholder|redacted|none|null|nil|true|false|yes|no|undefined|env|required|"
    r"optional|string|str|int|dummy|fake|todo|tbd|unset|empty|blank|hidden|masked|omitted|"
    r"removed|n/a|password|passwd|pass|pwd|pw|passphrase|token|api[_-]?key|key|"
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_][\w.]*[(\[].*",
    re.IGNORECASE | re.DOTALL,
)
# Where a secret is kept rather than the secret: a path, a URL (a password in it is found as
# such), a secrets manager's reference, a public key.
_ELSEWHERE = re.compile(
    r"(?:~|\.{1,2})?/.*|[a-z][a-z0-9+.-]{0,20}://.*|(?:arn|vault|ssm|kms|file):.*|"
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-|sk-ssh-|sk-ecdsa-).*|-----BEGIN [A-Z ]*PUBLIC KEY.*",
    re.IGNORECASE | re.DOTALL,
)
_SYMBOLS = frozenset(string.punctuation) - frozenset("-_.")  # ASCII: what a password is typed with
MIN_SECRET_CHARS = 4  # a shorter value after a secret-named key is not worth holding back
MIN_WORDED_CHARS = 6  # nor a shorter one met in words
# A hyphenated adjective: `sha256-hashed`, `base64-encoded`, `JWT-based`, `1Password-managed`.
_HYPHENATED = re.compile(r"[\w-]+")
_ADJECTIVE_END = re.compile(r"-(?:[a-z]+ed|based|only|like|style|safe|bound|wide)\Z", re.IGNORECASE)


def placeholder(value: str) -> bool:
    """Whether a value only stands where a secret would, or says where one is kept."""
    return bool(_PLACEHOLDER.fullmatch(value) or _ELSEWHERE.fullmatch(value))


def stated(value: str, password: bool) -> bool:
    """Whether a value given to a secret-named key (after `=`, in quotes, on a command line)
    is a secret: any value of 4 characters or more that is no placeholder; a bare number
    only for a password."""
    value = value.strip()
    if len(value) < MIN_SECRET_CHARS or placeholder(value):
        return False
    return password or not value.isdigit() or len(value) >= 16


def reads_as_secret(value: str, password: bool) -> bool:
    """Whether a value met in words ("the password is X", `password: X`, `--token X`) is a
    secret rather than a word: 6 characters or more, no placeholder, and letters mixed with
    digits, or a symbol in it, or (for a password) a number; hyphenated adjectives aside."""
    value = value.strip().rstrip(".,;:!?)")
    if (
        len(value) < MIN_WORDED_CHARS
        or placeholder(value)
        or (_HYPHENATED.fullmatch(value) and _ADJECTIVE_END.search(value))
    ):
        return False
    if value.isdigit():
        return password
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    has_symbol = any(c in _SYMBOLS for c in value)
    return has_digit and has_alpha or has_symbol
