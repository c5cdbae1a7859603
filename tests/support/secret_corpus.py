"""Secrets promotion must hold back, and legitimate text that looks like them and must pass.

The tokens are made here from a seeded generator (none is a real credential, and no token
stands in the repository for a secret scanner to trip on); each case is a note's content.
"""

from __future__ import annotations

import base64
import random
import string

_RNG = random.Random(19)
_ALNUM = string.ascii_letters + string.digits


def _random(count: int, alphabet: str = _ALNUM) -> str:
    """`count` characters of `alphabet`, with at least one digit, upper- and lower-case letter
    when the alphabet has them (as real keys do)."""
    while True:
        text = "".join(_RNG.choice(alphabet) for _ in range(count))
        kinds = [any(c.islower() for c in text), any(c.isupper() for c in text),
                 any(c.isdigit() for c in text)]
        wanted = [any(c.islower() for c in alphabet), any(c.isupper() for c in alphabet),
                  any(c.isdigit() for c in alphabet)]
        if kinds == wanted:
            return text


_UPPER_DIGITS = string.ascii_uppercase + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"


def _jwt() -> str:
    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    return ".".join((part(b'{"alg":"HS256","typ":"JWT"}'),
                     part(b'{"sub":"1234567890","name":"Jo","iat":1516239022}'),
                     _random(43, _URLSAFE)))


# (content, the kind of secret the reason names)
SECRETS: list[tuple[str, str]] = [
    (f"OpenAI key for the bot: sk-{_random(48)}", "OpenAI API key"),
    (f"export OPENAI_API_KEY=sk-proj-{_random(64, _URLSAFE)}", "OpenAI API key"),
    (f"Anthropic: sk-ant-api03-{_random(93, _URLSAFE)}AA", "Anthropic API key"),
    (f"CI pushes with ghp_{_random(36)}", "GitHub token"),
    (f"OAuth app token gho_{_random(36)} (expires monthly)", "GitHub token"),
    (f"fine-grained: github_pat_{_random(22)}_{_random(59)}", "GitHub token"),
    (f"glpat-{_random(20, _URLSAFE)} is the GitLab deploy token", "GitLab token"),
    (f"AWS key id AKIA{_random(16, _UPPER_DIGITS)} for the backup bucket", "AWS access key"),
    (f"aws_secret_access_key = {_random(40, _B64)}", "AWS secret key"),
    (f"The AWS secret is {_random(40, _B64)}", "AWS secret key"),
    (f"Slack bot: xoxb-{_random(12, string.digits)}-{_random(13, string.digits)}-"
     f"{_random(24)}", "Slack token"),
    (f"post alerts to https://hooks.slack.com/services/T{_random(8, _UPPER_DIGITS)}/"
     f"B{_random(8, _UPPER_DIGITS)}/{_random(24)}", "Slack webhook"),
    (f"Maps key AIza{_random(35, _URLSAFE)}", "Google API key"),
    (f"stripe live: sk_live_{_random(24)}", "Stripe secret key"),
    (f"restricted key rk_live_{_random(24)} for refunds", "Stripe secret key"),
    (f"hf_{_random(34)} pulls the private model", "Hugging Face token"),
    (f"publish with npm_{_random(36)}", "npm token"),
    (f"Telegram bot token {_random(10, string.digits)}:AA{_random(33, _URLSAFE)}",
     "Telegram bot token"),
    (f"session cookie is {_jwt()}", "JSON Web Token"),
    (f"curl -H 'Authorization: Bearer {_random(40, _URLSAFE)}' https://api.internal/v1",
     "bearer token"),
    (f"Authorization: Basic {base64.b64encode(b'admin:hunter22').decode()}",
     "basic-auth credentials"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + _random(64, _B64) +
     "\n-----END RSA PRIVATE KEY-----", "private key block"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + _random(40, _B64),
     "private key block"),
    ("-----BEGIN PRIVATE KEY-----", "private key block"),
    ("DB is postgres://app:S3cr3t-pass@db.internal:5432/app", "password in a URL"),
    ("mirror at https://deploy:hunter22@git.internal/repo.git", "password in a URL"),
    ("password=hunter22", "password or key in an assignment"),
    ("DB_PASSWORD = 'correct horse'", "password or key in an assignment"),
    ('{"username": "ops", "password": "Tr0ub4dor&3"}', "password or key in an assignment"),
    ("the wifi passwd: Blue-Falcon-42!", "password or key in an assignment"),
    ("api_key: 7f1c2a9e5b3d4c6f8a0b1c2d3e4f5a6b", "password or key in an assignment"),
    ("client_secret=GOCSPX-abcDEF123", "password or key in an assignment"),
    ("token = 'dev-token-2026'", "password or key in an assignment"),
    (f"staging key {_random(40, _URLSAFE)} (rotate monthly)", "random-looking token"),
    (f"signing secret {_random(32)}", "random-looking token"),
    (f"{_random(48, _B64)}==", "random-looking token"),
    ("Reach Dana at dana.kim@acme-corp.io for access.", "e-mail address"),
    ("user's mail: j.doe+work@gmail.com", "e-mail address"),
    ("Call +1 415 555 0132 in an outage.", "phone number"),
    ("on-call phone (415) 555-0132", "phone number"),
    ("Mobile: +44 20 7946 0958", "phone number"),
    ("office 415-555-0132 ext 4", "phone number"),
    ("tel: 06 12 34 56 78", "phone number"),
    ("+33 6 12 34 56 78 is the user's French number", "phone number"),
]

# Text an ordinary memory holds that looks like a secret and is not one.
LOOK_ALIKES: list[str] = [
    "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b on main.",
    "sha256 of the release: 3f786850e387550fdab836ed7e6dc881de23001b0b6ea9c6e2c1f3e0c1a2b3c4",
    "Request id 123e4567-e89b-12d3-a456-426614174000 failed twice.",
    "md5 d41d8cd98f00b204e9800998ecf8427e is the empty file",
    "The user's API token is stored in 1Password, never in the repo.",
    "Rotate the token when it expires; the token: see the vault.",
    "password: stored in the team vault",
    "Secrets for production are not in the repo; see .env.example.",
    "password=$DB_PASSWORD comes from the environment",
    "DB_PASSWORD=${DB_PASSWORD} in docker-compose.yml",
    "api_key = os.environ['OPENAI_API_KEY']",
    "token = settings.GITHUB_TOKEN",
    "set password=<your password> in .netrc",
    "password: '***' in the logs is masked",
    "token: ${{ secrets.GH_TOKEN }} in the workflow",
    "max_tokens=4096 for the summarizer; token_limit=8000",
    "JWT tokens use RS256 signing. Public key is at src/auth/keys/public.pem.",
    "Use a Bearer token in the Authorization header (see docs/auth.md).",
    "Connect with postgres://localhost:5432/app (no password locally).",
    "Clone git@github.com:acme/api.git and run make.",
    "Docs at https://docs.example.com/setup?page=2#install",
    "Send test mail to user@example.com; it is discarded.",
    "npm i lodash@4.17.21 and python@3.11 in the image",
    "AbstractSingletonProxyFactoryBeanImplementation2 is the bean.",
    "ThisIsAVeryLongCamelCaseIdentifierForTheParserV2 is in parser.ts",
    "src/components/Button2/ButtonGroup3/Index.tsx holds the group.",
    "test_the_sample_memory_holds_no_entry_back_on_a_large_memory is slow",
    "Build 20261101093015 shipped on 2026-11-01 at 09:30.",
    "Versions: 1.2.3.4567, node 18.19.0, port 8080-8090, 192.168.100.200.",
    "Timeout 30000 ms; retries 5; budget 1,000,000 tokens a day.",
    "The sk-learn pipeline (scikit-learn-compatible-estimator) is in ml/.",
    "Issue #12345 and PR #6789 track it; ticket OPS-836.",
    "The ghp_ prefix marks GitHub classic tokens; AKIA marks AWS key ids.",
    "-----BEGIN PUBLIC KEY----- blocks are fine to share.",
    "The meeting is at 10:30-11:45 on 2026-11-03, room 4.12.",
    "Invoice 2026-0415-555 was paid.",
    "eyJ is how base64 JSON starts; jwt.io decodes it.",
    "Base image digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "ISBN 978-0-13-468599-1 is the book the user likes.",
]
