"""Secrets promotion must hold back, and legitimate text that looks like them and must pass.

The tokens are made here from a seeded generator (none is a real credential, and no token
stands in the repository for a secret scanner to trip on); each case is a note's content.
`SECRETS` is grouped by family (`FAMILIES`: provider keys, split and encoded tokens, passwords
in URLs, assignments, env files, YAML and JSON, command lines, credential files, sentences);
`LOOK_ALIKES` are texts of the kind MEMORY.md and AGENTS.md hold that look like secrets and
are not: hashes, ids, settings about secrets, references to where one is kept, flags and
words.
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
        kinds = [
            any(c.islower() for c in text),
            any(c.isupper() for c in text),
            any(c.isdigit() for c in text),
        ]
        wanted = [
            any(c.islower() for c in alphabet),
            any(c.isupper() for c in alphabet),
            any(c.isdigit() for c in alphabet),
        ]
        if kinds == wanted:
            return text


_UPPER_DIGITS = string.ascii_uppercase + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"


def _hex(count: int) -> str:
    return _random(count, "0123456789abcdef")


def _spaced(text: str, width: int = 4, part: str = " ") -> str:
    return part.join(text[i : i + width] for i in range(0, len(text), width))


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _jwt() -> str:
    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    return ".".join(
        (
            part(b'{"alg":"HS256","typ":"JWT"}'),
            part(b'{"sub":"1234567890","name":"Jo","iat":1516239022}'),
            _random(43, _URLSAFE),
        )
    )


_GITHUB = f"ghp_{_random(36)}"
_SPLIT_GITHUB = _spaced(_GITHUB[4:])
_ENCODED_ASSIGNMENT = "base64 of a password or key in an assignment"

# (content, the kind of secret the reason names), by family
FAMILIES: dict[str, list[tuple[str, str]]] = {
    "provider keys and tokens": [
        (f"OpenAI key for the bot: sk-{_random(48)}", "OpenAI API key"),
        (f"export OPENAI_API_KEY=sk-proj-{_random(64, _URLSAFE)}", "OpenAI API key"),
        (f"Anthropic: sk-ant-api03-{_random(93, _URLSAFE)}AA", "Anthropic API key"),
        (f"CI pushes with ghp_{_random(36)}", "GitHub token"),
        (f"OAuth app token gho_{_random(36)} (expires monthly)", "GitHub token"),
        (f"the Actions run had ghs_{_random(36)} in its log", "GitHub token"),
        (f"fine-grained: github_pat_{_random(22)}_{_random(59)}", "GitHub token"),
        (f"glpat-{_random(20, _URLSAFE)} is the GitLab deploy token", "GitLab token"),
        (f"AWS key id AKIA{_random(16, _UPPER_DIGITS)} for the backup bucket", "AWS access key"),
        (f"temporary creds: ASIA{_random(16, _UPPER_DIGITS)}", "AWS access key"),
        (f"aws_secret_access_key = {_random(40, _B64)}", "AWS secret key"),
        (f"The AWS secret is {_random(40, _B64)}", "AWS secret key"),
        (
            f"Slack bot: xoxb-{_random(12, string.digits)}-{_random(13, string.digits)}-"
            f"{_random(24)}",
            "Slack token",
        ),
        (
            f"user token xoxp-{_random(12, string.digits)}-{_random(12, string.digits)}-"
            f"{_random(32, string.ascii_lowercase + string.digits)}",
            "Slack token",
        ),
        (
            f"post alerts to https://hooks.slack.com/services/T{_random(8, _UPPER_DIGITS)}/"
            f"B{_random(8, _UPPER_DIGITS)}/{_random(24)}",
            "Slack webhook",
        ),
        (f"Maps key AIza{_random(35, _URLSAFE)}", "Google API key"),
        (f"gcloud gave ya29.{_random(60, _URLSAFE)}", "Google OAuth token"),
        (f"stripe live: sk_live_{_random(24)}", "Stripe secret key"),
        (f"restricted key rk_live_{_random(24)} for refunds", "Stripe secret key"),
        (f"webhook signing secret whsec_{_random(32)}", "Stripe webhook secret"),
        (f"hf_{_random(34)} pulls the private model", "Hugging Face token"),
        (f"publish with npm_{_random(36)}", "npm token"),
        (f"twine uses pypi-AgEIcHlwaS5vcmc{_random(60, _URLSAFE)}", "PyPI token"),
        (f"mail via SG.{_random(22, _URLSAFE)}.{_random(43, _URLSAFE)}", "SendGrid key"),
        (
            f"Telegram bot token {_random(10, string.digits)}:AA{_random(33, _URLSAFE)}",
            "Telegram bot token",
        ),
        (
            f"Discord bot: M{_random(25, _URLSAFE)}.{_random(6, _URLSAFE)}.{_random(38, _URLSAFE)}",
            "Discord bot token",
        ),
        (f"doctl auth uses dop_v1_{_hex(64)}", "DigitalOcean token"),
        (f"Shopify admin token shpat_{_hex(32)}", "Shopify token"),
        (f"databricks: dapi{_hex(32)}", "Databricks token"),
        (f"Twilio API key SK{_hex(32)} for SMS", "Twilio API key"),
        (f"mailgun key-{_random(32)}", "Mailgun key"),
        (f"Groq: gsk_{_random(52)}", "Groq API key"),
        (f"xai-{_random(80)} for Grok", "xAI API key"),
        (f"REPLICATE r8_{_random(37)}", "Replicate token"),
        (f"Linear lin_api_{_random(40)}", "Linear API key"),
        (f"Notion integration secret_{_random(43)}", "Notion token"),
        (f"Doppler service token dp.st.prd.{_random(43)}", "Doppler token"),
        (f"vault token hvs.{_random(90, _URLSAFE)}", "HashiCorp Vault token"),
        (f"sops recipient key AGE-SECRET-KEY-1{_random(58, _UPPER_DIGITS)}", "age secret key"),
        (f"Sentry auth sntrys_{_random(60, _B64)}", "Sentry token"),
        (f"Grafana service account glsa_{_random(32)}_{_hex(8)}", "Grafana token"),
        (f"Pulumi access token pul-{_hex(40)}", "Pulumi token"),
        (f"TFC token {_random(14)}.atlasv1.{_random(67, _URLSAFE)}", "Terraform Cloud token"),
        (
            f"Mapbox secret sk.eyJ1Ijoi{_random(40, _URLSAFE)}.{_random(22, _URLSAFE)}",
            "Mapbox secret token",
        ),
        (f"session cookie is {_jwt()}", "JSON Web Token"),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA"
            + _random(64, _B64)
            + "\n-----END RSA PRIVATE KEY-----",
            "private key block",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + _random(40, _B64),
            "private key block",
        ),
        (
            "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI"
            + _random(60, _B64)
            + "\n-----END EC PRIVATE KEY-----",
            "private key block",
        ),
        (
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF" + _random(60, _B64),
            "private key block",
        ),
        (
            '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQ'
            + _random(40, _B64)
            + '"}',
            "private key block",
        ),
        ("-----BEGIN PRIVATE KEY-----", "private key block"),
    ],
    "split and encoded tokens": [
        (f"the CI token is ghp_{_SPLIT_GITHUB} (pasted from the chat)", "GitHub token"),
        (f"GitHub: ghp_{_spaced(_GITHUB[4:], 6, '-')}", "GitHub token"),
        (f"key id AKIA {_spaced(_random(16, _UPPER_DIGITS))}", "AWS access key"),
        (
            f"AKIA{_spaced(_random(16, _UPPER_DIGITS), 4, '-')} is the backup user's",
            "AWS access key",
        ),
        (f"sk-proj-{_spaced(_random(48), 8)}", "OpenAI API key"),
        (f"stripe: sk_live_{_spaced(_random(24), 6)}", "Stripe secret key"),
        (f"hf_{_spaced(_random(34), 5)}", "Hugging Face token"),
        (f"saved as {_b64('password=hunter22')} in the job", _ENCODED_ASSIGNMENT),
        (f"env blob {_b64('PGPASSWORD=Xk9mPq2vL7')}", _ENCODED_ASSIGNMENT),
        ("config: " + _b64('{"password": "Tr0ub4dor&3"}'), _ENCODED_ASSIGNMENT),
        (f"token (base64): {_b64(_GITHUB)}", "base64 of a GitHub token"),
        (f"Authorization: Basic {_b64('admin:hunter22')}", "basic-auth credentials"),
    ],
    "passwords in URLs and connection strings": [
        ("DB is postgres://app:S3cr3t-pass@db.internal:5432/app", "password in a URL"),
        ("DATABASE_URL=postgresql+asyncpg://svc:Xk9mPq2vL7@10.0.3.7/orders", "password in a URL"),
        ("mirror at https://deploy:hunter22@git.internal/repo.git", "password in a URL"),
        ("cache: redis://:Xk9mPq2vL7@cache:6379/0", "password in a URL"),
        ("rediss://default:AbC123xyz789@redis-12345.cloud.example.net:12345", "password in a URL"),
        ("mongodb+srv://admin:Pa55w0rd2026@cluster0.ab1cd.mongodb.net/prod", "password in a URL"),
        ("mysql://root:toor2026@127.0.0.1:3306/app", "password in a URL"),
        (
            "queue: amqp://guest:guest@rabbitmq:5672/ (the default user, never changed)",
            "password in a URL",
        ),
        ("smtp://mailer:Spr1ng-Mail!@smtp.internal:587", "password in a URL"),
        (
            f"git remote set-url origin https://x-access-token:{_random(40)}@github.com/acme/api",
            "password in a URL",
        ),
        (f"clone with https://{_random(40)}@github.com/acme/private.git", "token in a URL"),
        (
            "Server=tcp:sql.internal,1433;Database=app;User Id=sa;Password=Xk9mPq2vL7;",
            "password or key in an assignment",
        ),
        (
            "Driver={ODBC Driver 18};Server=db;Uid=report;Pwd=Rep0rt!ng;",
            "password or key in an assignment",
        ),
        (
            f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={_random(86, _B64)}==;"
            "EndpointSuffix=core.windows.net",
            "password or key in an assignment",
        ),
        (
            "jdbc:postgresql://db:5432/app?user=app&password=Xk9mPq2vL7&ssl=true",
            "password or key in an assignment",
        ),
    ],
    "assignments, env files, YAML and JSON": [
        ("PGPASSWORD=Xk9mPq2vL7 psql -h prod-db -U app", "password or key in an assignment"),
        (f"SECRET_KEY_BASE={_hex(128)}", "password or key in an assignment"),
        (f"ENCRYPTION_KEY={_hex(64)}", "password or key in an assignment"),
        (f"API_KEY={_hex(32)}", "password or key in an assignment"),
        ("password=hunter22", "password or key in an assignment"),
        ("DB_PASSWORD = 'correct horse'", "password or key in an assignment"),
        ('{"username": "ops", "password": "Tr0ub4dor&3"}', "password or key in an assignment"),
        ("the wifi passwd: Blue-Falcon-42!", "password or key in an assignment"),
        ("api_key: 7f1c2a9e5b3d4c6f8a0b1c2d3e4f5a6b", "password or key in an assignment"),
        ("client_secret=GOCSPX-abcDEF123", "password or key in an assignment"),
        ("token = 'dev-token-2026'", "password or key in an assignment"),
        ("MYSQL_ROOT_PASSWORD=changeme", "password or key in an assignment"),
        ("export DB_PASS=letmein99", "password or key in an assignment"),
        ("set ADMIN_PASSWORD=Winter2026!", "password or key in an assignment"),
        ('$env:OPENAI_APIKEY = "proj-live-2026-xyz"', "password or key in an assignment"),
        ("spring.datasource.password=Xk9mPq2vL7", "password or key in an assignment"),
        ("Header to send: X-Api-Key: 9f8e7d6c5b4a", "password or key in an assignment"),
        (
            ".env of the shop:\nNODE_ENV=production\nPORT=3000\nJWT_SECRET=s3cr3t-jwt-2026\n"
            "NEXTAUTH_SECRET=Qm9va3MgYXJlIGdyZWF0\n",
            "password or key in an assignment",
        ),
        (f"APP_KEY=base64:{_random(43, _B64)}=", "password or key in an assignment"),
        (
            "docker-compose environment:\n  - POSTGRES_USER=app\n  - POSTGRES_PASSWORD=pg-2026-Xk9",
            "password or key in an assignment",
        ),
        (
            "services:\n  db:\n    environment:\n      MYSQL_PASSWORD: Sq1-Pass-2026\n",
            "password or key in an assignment",
        ),
        (
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\n"
            f"data:\n  username: {_b64('app')}\n  password: {_b64('Xk9mPq2vL7')}\n",
            "password or key in an assignment",
        ),
        (
            'kind: Secret\nstringData:\n  DB_PASSWORD: "correcthorsebattery"\n',
            "password or key in an assignment",
        ),
        (
            '{"accessToken": "at-2026-11-01-Xk9mPq2vL7", "expiresIn": 3600}',
            "password or key in an assignment",
        ),
        (
            '{"auths": {"registry.internal": {"auth": "' + _b64("ci:Reg1stry-Pass") + '"}}}',
            "password or key in an assignment",
        ),
        (
            "settings.py: SECRET_KEY = 'django-insecure-7h1s-1s-n0t-s4f3'",
            "password or key in an assignment",
        ),
        (
            "<settings><servers><server><id>nexus</id><password>Nexus-2026!</password>"
            "</server></servers></settings>",
            "password or key in an XML element",
        ),
    ],
    "command lines": [
        (
            "curl -u admin:S3cr3tPw https://grafana.internal/api/health",
            "password on a command line",
        ),
        (
            "curl --user 'deploy:Xk9mPq2vL7' -X POST https://ci.internal/job",
            "password on a command line",
        ),
        ("mysql -u root -pS3cr3tPw -h 127.0.0.1 shop", "password on a command line"),
        (
            "mysqldump -u backup -p'Dump-2026!' --all-databases > all.sql",
            "password on a command line",
        ),
        ("sshpass -p secret ssh deploy@10.0.0.5", "password on a command line"),
        ("docker login -u ci -p secret registry.internal", "password on a command line"),
        (
            "docker login registry.internal --username ci --password secret",
            "password on a command line",
        ),
        ("helm registry login ghcr.io -u bot -p Xk9mPq2vL7", "password on a command line"),
        ("redis-cli -h cache -a Xk9mPq2vL7 ping", "password on a command line"),
        (
            "mongosh -u admin -p Pa55w0rd --authenticationDatabase admin",
            "password on a command line",
        ),
        ("sqlcmd -S db -U sa -P 'Sql-Pass-2026'", "password on a command line"),
        ("zip -P archive-pass-9 backup.zip db.sql", "password on a command line"),
        ("7z a -pArch1veKey backup.7z data/", "password on a command line"),
        (
            "ldapsearch -x -D cn=admin,dc=acme -w Ld4p-Admin -b dc=acme",
            "password on a command line",
        ),
        ("smbclient //nas/share -U backup%Nas-Pass-7", "password on a command line"),
        ("sqlplus scott/tiger@orcl", "password on a command line"),
        (
            "openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:Exp0rt-2026",
            "password on a command line",
        ),
        (
            "echo 'Reg-Pass-2026' | docker login -u ci --password-stdin registry.internal",
            "password on a command line",
        ),
        ("htpasswd -b -c .htpasswd admin Adm1n-Web", "password on a command line"),
        ("rabbitmqctl add_user monitor M0nitor-Pass", "password on a command line"),
        (
            "wget --password=Xk9mPq2vL7 --user=ops https://files.internal/dump.gz",
            "password on a command line",
        ),
        ("kubectl --token=kube-2026-Xk9mPq2vL7 get pods", "password on a command line"),
        ("psql --host prod-db --password Xk9mPq2vL7", "password on a command line"),
    ],
    "credential files": [
        ("machine api.internal login me password secret", "credentials in a .netrc line"),
        (
            "~/.netrc:\nmachine github.com\n  login deploy-bot\n  password Xk9mPq2vL7\n",
            "credentials in a .netrc line",
        ),
        ("default login anonymous password guest-2026", "credentials in a .netrc line"),
        ("~/.pgpass:\nprod-db:5432:orders:app:Xk9mPq2vL7\n", "password in a .pgpass line"),
    ],
    "passwords in sentences": [
        ("the staging DB password is Xk9mPq2vL7", "password or key in a sentence"),
        ("Password: Xk9mPq2vL7", "password or key in an assignment"),
        ("pw is hunter22", "password or key in a sentence"),
        ("the passphrase is 'correct horse battery staple'", "password or key in a sentence"),
        ("The VPN password for the Lisbon office is Lisb0a-VPN.", "password or key in a sentence"),
        (f"the deploy token is {_hex(40)}", "password or key in a sentence"),
        ("the API key for staging is stg-7f1c2a9e5b3d", "password or key in a sentence"),
        ("wifi: CoffeeShop-5G, password is c0ffee4all", "password or key in a sentence"),
        ("his pwd was Summer2026! until the reset", "password or key in a sentence"),
        ("the root password is `swordfish`", "password or key in a sentence"),
    ],
    "random-looking tokens": [
        (f"staging key {_random(40, _URLSAFE)} (rotate monthly)", "random-looking token"),
        (f"signing secret {_random(32)}", "random-looking token"),
        (f"{_random(48, _B64)}==", "random-looking token"),
        (f"Authorization: Bearer {_random(40, _URLSAFE)}", "bearer token"),
        (
            f"curl -H 'Authorization: Bearer {_random(40, _URLSAFE)}' https://api.internal/v1",
            "bearer token",
        ),
        (f"Authorization: token {_random(20)}", "token in an Authorization header"),
    ],
    "contact details": [
        ("Reach Dana at dana.kim@acme-corp.io for access.", "e-mail address"),
        ("user's mail: j.doe+work@gmail.com", "e-mail address"),
        ("Call +1 415 555 0132 in an outage.", "phone number"),
        ("on-call phone (415) 555-0132", "phone number"),
        ("Mobile: +44 20 7946 0958", "phone number"),
        ("office 415-555-0132 ext 4", "phone number"),
        ("tel: 06 12 34 56 78", "phone number"),
        ("+33 6 12 34 56 78 is the user's French number", "phone number"),
    ],
}
SECRETS: list[tuple[str, str]] = [case for cases in FAMILIES.values() for case in cases]

_SSH_PUBLIC = "AAAAC3NzaC1lZDI1NTE5AAAAI" + _random(43, _B64)
# Text an ordinary memory holds that looks like a secret and is not one.
LOOK_ALIKES: list[str] = [
    # hashes, ids, versions, numbers
    "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b on main.",
    "sha256 of the release: 3f786850e387550fdab836ed7e6dc881de23001b0b6ea9c6e2c1f3e0c1a2b3c4",
    "Request id 123e4567-e89b-12d3-a456-426614174000 failed twice.",
    "md5 d41d8cd98f00b204e9800998ecf8427e is the empty file",
    "Base image digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "checksums: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  app.tar.gz",
    "git log: a1b2c3d fix(auth): rotate token on password change (#1234)",
    "Build 20261101093015 shipped on 2026-11-01 at 09:30.",
    "Versions: 1.2.3.4567, node 18.19.0, port 8080-8090, 192.168.100.200.",
    "Timeout 30000 ms; retries 5; budget 1,000,000 tokens a day.",
    "Issue #12345 and PR #6789 track it; ticket OPS-836.",
    "The meeting is at 10:30-11:45 on 2026-11-03, room 4.12.",
    "Invoice 2026-0415-555 was paid.",
    "ISBN 978-0-13-468599-1 is the book the user likes.",
    "Ports: postgres 5432, redis 6379, mongo 27017, rabbitmq 5672, the app 8000.",
    "IPv6 of the box: fe80::1ff:fe23:4567:890a",
    # words about secrets
    "The user's API token is stored in 1Password, never in the repo.",
    "Rotate the token when it expires; the token: see the vault.",
    "password: stored in the team vault",
    "Secrets for production are not in the repo; see .env.example.",
    "Users reset their password in Settings, then Security.",
    "The token bucket algorithm limits each client to 100 requests a minute.",
    "Password policy: at least 12 characters, rotated every 90 days, no reuse of the last 5.",
    "The password is hashed with argon2id before it is stored.",
    "The password is at least 12 characters long.",
    "the password is sha256-hashed and salted",
    "OAuth2: the access token is short-lived and the refresh token is rotated on use.",
    "Bearer tokens expire after 15 minutes.",
    "Use a Bearer token in the Authorization header (see docs/auth.md).",
    "The secret is to cache aggressively and invalidate on write.",
    "Passwords are stored in 1Password; the team vault is called Engineering.",
    "passphrase-protected keys need ssh-add once a session",
    "After login the password policy applies to every account.",
    "JWT tokens use RS256 signing. Public key is at src/auth/keys/public.pem.",
    "eyJ is how base64 JSON starts; jwt.io decodes it.",
    "The ghp_ prefix marks GitHub classic tokens; AKIA marks AWS key ids.",
    "ghp_ tokens are scoped to 1 repo and expire in 90 days",
    "The sk-learn pipeline (scikit-learn-compatible-estimator) is in ml/.",
    "-----BEGIN PUBLIC KEY----- blocks are fine to share.",
    "-----BEGIN CERTIFICATE----- is the public certificate of the API.",
    # settings about secrets, and where one is kept
    "PASSWORD_MIN_LENGTH=12 and PASSWORD_MAX_AGE=90 in settings.py",
    "TOKEN_TTL=3600\nJWT_EXPIRY=15m\nSESSION_TIMEOUT=30m\nAPI_KEY_HEADER=X-Api-Key",
    "max_tokens=4096 for the summarizer; token_limit=8000",
    "The `max_tokens` parameter defaults to 4096 and `tokenizer=cl100k_base`.",
    "password=$DB_PASSWORD comes from the environment",
    "DB_PASSWORD=${DB_PASSWORD} in docker-compose.yml",
    "api_key = os.environ['OPENAI_API_KEY']",
    "token = settings.GITHUB_TOKEN",
    "set password=<your password> in .netrc",
    "password: '***' in the logs is masked",
    "token: ${{ secrets.GH_TOKEN }} in the workflow",
    "API_KEY=op://Engineering/openai/credential (op run fills it in)",
    "PGPASSFILE=~/.pgpass\nGOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/sa.json\n"
    "SSH_KEY_PATH=~/.ssh/id_ed25519",
    "SECRET_ARN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
    "        name: db-credentials\n        key: password\n",
    "tls:\n  - hosts: [api.acme.io]\n    secretName: api-tls\n",
    "kubectl create secret generic db --from-literal=password=$DB_PASS",
    "`.netrc` holds `machine api.github.com login USER password TOKEN` for each host.",
    "Connect with postgres://localhost:5432/app (no password locally).",
    "Connect with postgres://app@db:5432/app; the password comes from PGPASSWORD.",
    "Doc template: postgresql://user:password@host:5432/dbname",
    "Redis runs on redis://cache:6379/0 with no auth in dev.",
    "curl -u $CI_USER:$CI_TOKEN https://ci.internal/api",
    "docker login --password-stdin < token.txt",
    "echo $REGISTRY_TOKEN | docker login -u ci --password-stdin ghcr.io",
    "mysql -u root -p (it prompts for the password)",
    "sshpass -e ssh host reads the password from $SSHPASS",
    "Use --token-file ~/.config/tok rather than --token on the command line.",
    "Pass --password when prompted, never on the command line.",
    "docker build --secret id=npmrc,src=$HOME/.npmrc -t app .",
    # flags, ports, paths and names
    "docker run -p 8080:80 -p 5432:5432 postgres:16",
    "mkdir -p build && ssh -p 2222 deploy@bastion",
    "psql -h prod-db -U app -d orders (password from ~/.pgpass)",
    "Primary key is (tenant_id, id); sort_key=created_at; PRIMARY_KEY=id",
    '{"sourceKey": "user:editor", "sortKey": "createdAt", "pass": "promotion", "hits": 4}',
    "The cache key is user:{id}:profile and expires in an hour.",
    "Files: src/auth/token_store.py, src/auth/password_reset.py, tests/test_api_keys.py",
    "PasswordResetTokenGenerator and ApiKeyAuthenticationMiddleware live in auth/.",
    "AbstractSingletonProxyFactoryBeanImplementation2 is the bean.",
    "ThisIsAVeryLongCamelCaseIdentifierForTheParserV2 is in parser.ts",
    "src/components/Button2/ButtonGroup3/Index.tsx holds the group.",
    "test_the_sample_memory_holds_no_entry_back_on_a_large_memory is slow",
    "Set `PASSWORD_HASHERS` to Argon2 first.",
    "The regex `password\\s*=` finds assignments in the linter.",
    f"Deploy key (public): ssh-ed25519 {_SSH_PUBLIC} ci@build",
    f"Stripe publishable key pk_live_{_random(24)} goes in the checkout page.",
    # addresses that are not contact details
    "Clone git@github.com:acme/api.git and run make.",
    "Docs at https://docs.example.com/setup?page=2#install",
    "Send test mail to user@example.com; it is discarded.",
    "npm i lodash@4.17.21 and python@3.11 in the image",
    "Open https://github.com/acme/api/pull/123 for the review.",
    # a memory of the kind MEMORY.md holds
    "## user\n- timezone: Europe/Lisbon\n- prefers short answers\n\n## project\n"
    "- deploys on Fridays with `make deploy`\n- staging: https://staging.acme.io\n",
    "AGENTS.md:\n- Run `pytest -n 2` before pushing.\n- Never commit .env files; secrets live "
    "in Vault under kv/acme/*.\n- The API listens on :8000; the worker on :8001.\n",
]
