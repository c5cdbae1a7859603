"""Commands a note must not hand the agent to run: the rules `screening` matches on a note's
skeleton (`core/promotion/skeleton.py`), each looked for only in a text holding one of its words.

Pure. Three kinds beyond the shell tricks of the first rules:

- exfiltration: a credential file (ssh keys, `~/.aws/credentials`, `~/.netrc`, gcloud's and
  kubectl's, `/etc/shadow`, `.env`, keychains, and the like) read into a pipe or a redirection,
  given to an upload (`curl -F f=@…`, `--data-binary @…`, `-T`, `--post-file`), fed to a
  command with `<`, copied (`scp`, `rsync`, `cp` with the file as the source) or archived, or
  handed to a network tool (`nc`, `socat`, `mail`); a secret printed by a tool (`security
  find-generic-password`, `gh auth token`) or the environment, piped to a network tool;
- persistence: text written (`>`, `>>`, `tee`, `sed -i`, `dd of=`, a download's `-o`) into a
  file that runs or grants on its own — sudoers, a shell's startup files, git hooks, crontabs,
  `authorized_keys`, systemd units and autostart entries, `ld.so.preload` — or anything copied
  or linked into the ones that grant (sudoers, crontabs, `authorized_keys`, system units), a
  crontab installed from a pipe;
- download and run: a download piped into a shell or an interpreter, or sourced through
  `<(curl …)`.

A public key (`*.pub`), `known_hosts` and ssh's `config` are not credentials; a credential
path used where a tool needs it (`ssh -i ~/.ssh/id_ed25519`, `chmod 600 ~/.ssh/id_rsa`,
`cp .env.example .env`) passes. Every pattern's gaps are bounded, so matching stays linear.
"""

from __future__ import annotations

import re
from functools import cache

_FLAGS = re.IGNORECASE | re.MULTILINE
_SSH_KEYS = r"id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?![\w.-]*\.pub\b)"
_CREDENTIAL = re.compile(
    r"\.ssh(?:/(?!known_hosts|config\b|authorized_keys|[\w.-]*\.pub\b)[\w.*-]+|/?(?![\w./-]))"
    rf"|\b{_SSH_KEYS}\b"
    r"|\.aws/credentials\b|(?<![\w-])[._]netrc\b|\.config/gcloud\b"
    r"|application_default_credentials\.json|\.config/gh/hosts\.yml|/etc/g?shadow\b"
    r"|/etc/master\.passwd\b|(?<![\w.-])\.env(?:\.(?:local|prod|production|staging|dev|"
    r"development|test))?(?![\w.-])|\.kube/config\b|keychains?/|\.keychain(?:-db)?\b"
    r"|\.docker/config\.json|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.pgpass\b|\.my\.cnf\b"
    r"|\.vault-token\b|\.azure/|\.gnupg\b|credentials\.tfrc\.json|/var/run/secrets/"
    r"|/run/secrets/|\.password-store\b|logins\.json\b|key4\.db\b",
    _FLAGS,
)
_CREDENTIAL_WORDS = (
    ".ssh",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    ".aws",
    "netrc",
    "gcloud",
    "application_default",
    "gh/hosts",
    "shadow",
    "master.passwd",
    ".env",
    ".kube",
    "keychain",
    ".docker",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".pgpass",
    ".my.cnf",
    ".vault-token",
    ".azure",
    ".gnupg",
    "credentials.tfrc",
    "secrets/",
    ".password-store",
    "logins.json",
    "key4.db",
)
# What may stand between an upload flag or a `<` and the part of a path that names it: a
# quote, a home, folders.
_LEAD = r"""["']?(?:~|\$\{?home\}?|%userprofile%)?(?:[\w.-]{0,40}/){0,6}"""
# Commands, by what they do with a file named after them (words of the command before it).
_READERS = frozenset(
    "cat tac head tail less more base64 base32 xxd od hexdump strings gzip bzip2 "
    "xz zstd gpg openssl awk sed grep egrep fgrep rg cut sort uniq jq yq dd type "
    "nl gc".split()
)
_COPIERS = frozenset("scp rsync sftp cp mv ditto rclone gsutil azcopy".split())
_COPIER = re.compile(rf"\b(?:{'|'.join(_COPIERS)})\b")
_SENDERS = frozenset(
    "nc ncat netcat socat telnet sendmail mutt ftp tftp smbclient croc wormhole "
    "uuencode tar zip 7z rar".split()
)
_WORD = re.compile(r"[\w-]+")
_REACH = 160  # how far before a path an upload flag or a `<` is looked for
_FED = re.compile(rf"<(?<!<<)\s*{_LEAD}\Z", _FLAGS)
_UPLOADED = re.compile(
    r"(?:(?<![\w@])@|--upload-file[=\s]+|\s-t\s+|--post-file[=\s]*|--body-file[=\s]*|-infile[=\s:]+|"
    rf"--data(?:-binary|-raw|-urlencode)?[=\s]+@?|--form[=\s]+\S{{0,40}}?@)\s*{_LEAD}\Z",
    _FLAGS,
)
_PIPED = re.compile(r"\|(?!\|)|(?<![-=<>&0-9])>")  # not `||`, `2>`, `->`
_MORE_ARGUMENTS = re.compile(r"""[\w.*/~-]*["']?[ \t]+["']?[^\s;&|#)]""")
# An option that takes the path as its value (`scp -i KEY`, `rsync -e 'ssh -i KEY'`): the key
# is used, not copied.
_VALUE_FLAG = re.compile(r"-[ifopcsjlbde]|--(?:rsh|identity|config|[\w-]*file)")
_OPTION_VALUE = re.compile(rf"(?:^|\s)(?:{_VALUE_FLAG.pattern})[=\s]+[\"']?[^\s\"']*\Z")
_SECRET_TOOLS = re.compile(
    r"\b(?:security\s+(?:dump-keychain|find-(?:generic|internet)-password)|gh\s+auth\s+token|"
    r"gcloud\s+auth\s+print-(?:access|identity)-token|aws\s+configure\s+export-credentials|"
    r"kubectl\s+config\s+view\s+--raw|printenv|env)\b"
    r"[^\n|;&]{0,200}\|(?!\|)(?:[^\n|;&]{0,100}\|(?!\|))?\s*(?:sudo\s+)?"
    r"\b(?:nc|ncat|netcat|socat|telnet|curl|wget|ssh|scp|mail|mailx|sendmail|mutt)\b",
    _FLAGS,
)
_SECRET_TOOL_WORDS = (
    "security",
    "gh auth",
    "print-access",
    "print-identity",
    "export-credentials",
    "--raw",
    "env",
)

# Files that grant on their own (sudoers, crontabs, keys, system units) and files that run on
# their own (a shell's startup files, git hooks).
_GRANTS = (
    r"/etc/sudoers(?:\.d/[\w.-]*)?|/etc/crontab\b|/etc/cron\.(?:d|hourly|daily|weekly|"
    r"monthly)/|/var/spool/cron/|\bauthorized_keys2?\b|/etc/rc\.local\b|"
    r"/etc/ld\.so\.preload\b|/etc/systemd/system/|\.config/systemd/user/|"
    r"\.config/autostart/|library/launch(?:agents|daemons)/|/etc/init\.d/|/etc/passwd\b|"
    r"/etc/shadow\b|\.ssh/rc\b"
)
_RUNS = (
    r"(?<![\w.-])\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|"
    r"zshenv|zlogin|zlogout|kshrc|cshrc|tcshrc|mkshrc)\b|\.config/fish/(?:config\.fish|"
    r"conf\.d/)|powershell_profile\.ps1\b|\$profile\b|\.git/hooks/|/etc/profile\b|"
    r"/etc/profile\.d/|/etc/(?:bash\.)?bashrc\b|/etc/zsh/|/etc/environment\b"
)
_TARGET = re.compile(f"(?P<grants>{_GRANTS})|{_RUNS}", _FLAGS)
_TARGET_WORDS = (
    "sudoers",
    "cron",
    "authorized_keys",
    "rc.local",
    "ld.so.preload",
    "systemd",
    "autostart",
    "launchagents",
    "launchdaemons",
    "init.d",
    "/etc/passwd",
    "shadow",
    ".ssh/rc",
    "profile",
    "bashrc",
    "zsh",
    "bash_",
    "kshrc",
    "cshrc",
    "fish",
    ".git/hooks",
    "/etc/environment",
)
_WRITTEN = re.compile(
    r"(?:(?<![-=<>&0-9])>>?\|?|\btee\b(?:\s+-[\w-]+)*|\bof=|(?:\s-o|--output(?:-document)?)"
    rf"[=\s]*)\s*{_LEAD}\Z",
    _FLAGS,
)
_EDITED = re.compile(r"\bsed\s+(?:-[a-z]+\s+)*-i|\b(?:add-content|set-content|out-file)\b", _FLAGS)
_PATH_REST = re.compile(r"\A[\w.*/~${}-]*")  # the rest of a path's name
_LINKED = re.compile(r"\b(?:cp|mv|install|ln|ditto|rsync|scp)\b", _FLAGS)
_SUBCOMMANDS = frozenset({"copy", "copyto", "sync", "move", "moveto"})  # `rclone copy SRC DST`
_FROM_TEMP = re.compile(r"(?:/tmp|/var/tmp|/dev/shm)/", _FLAGS)
# A crontab installed from a pipe, hooks taken from a temporary folder, a Windows task or Run key.
_SCHEDULED = re.compile(
    r"\|\s*(?:sudo\s+)?crontab\b|\bcrontab\s+(?:-u\s+\S+\s+)?-(?=\s|$|[\"'`)])"
    r"|\bcore\.hookspath[=\s]+[\"']?(?:/tmp|/var/tmp|/dev/shm)/|\bschtasks(?:\.exe)?\s+/create\b"
    r"|\breg(?:\.exe)?\s+add\s+[\"']?hk\w*/software/microsoft/windows/currentversion/run",
    _FLAGS,
)
_SCHEDULED_WORDS = ("crontab", "hookspath", "schtasks", "currentversion")

_SHELLS = r"(?:ba|z|da|k|c|fi|tc)?sh"
_INTERPRETERS = r"(?:python[0-9.]*|perl|ruby|node|php|iex|pwsh|powershell|lua|tclsh|osascript)"
_FETCHERS = (
    r"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|"
    r"lwp-request|lwp-download|http|https|xh)\b"
)
_DOWNLOAD_WORDS = (
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "invoke-",
    "aria2c",
    "lwp-",
    "http",
    "xh ",
)
_DOWNLOAD_AND_RUN = re.compile(
    rf"{_FETCHERS}[^\n]{{0,300}}?\|(?!\|)\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:\S*/)?"
    rf"(?:{_SHELLS}|{_INTERPRETERS})\b|\b(?:source|\.|{_SHELLS}|{_INTERPRETERS}|exec|eval)\s+"
    rf"<\(\s*{_FETCHERS}",
    _FLAGS,
)

SENDS_A_CREDENTIAL = "sends a credential file elsewhere (a pipe, an upload, a copy)"
PERSISTS = (
    "writes into a file that runs or grants on its own (sudoers, a shell's startup file, "
    "a git hook, a crontab, authorized_keys)"
)
DOWNLOADS_AND_RUNS = "pipes a download into a shell"
_SEGMENT = 200  # how far a command reaches either side of the path it names


@cache
def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in words))


def _holds(words: tuple[str, ...], text: str) -> bool:
    """Whether the text holds one of the words: one pass, not one per word."""
    return _any_of(words).search(text) is not None


def _command_around(text: str, start: int, end: int, breaks: str) -> tuple[str, str]:
    """The command's text before and after text[start:end], up to a break or _SEGMENT."""
    head = text[max(0, start - _SEGMENT) : start]
    head = head[max(head.rfind(c) for c in breaks) + 1 :]
    tail = text[end : end + _SEGMENT]
    cut = min((i for i in (tail.find(c) for c in "\n;&") if i >= 0), default=len(tail))
    return head, tail[:cut]


def _sends(head: str, tail: str) -> bool:
    """Whether a credential path between head and tail leaves the machine or its file."""
    near = head[-_REACH:]
    if _FED.search(near) or _UPLOADED.search(near):
        return True
    commands = set(_WORD.findall(head))
    if not commands.isdisjoint(_SENDERS):
        return True
    if (not commands.isdisjoint(_READERS) or "get-content" in commands) and _PIPED.search(tail):
        return True
    return not commands.isdisjoint(_COPIERS) and _copied(head, tail)


def _copied(head: str, tail: str) -> bool:
    """Whether the path is the source of a copy: the copy command's first argument, not an
    option's value, and more arguments follow it (the last one is where it goes)."""
    copiers = list(_COPIER.finditer(head))
    if not copiers or _MORE_ARGUMENTS.match(tail) is None:
        return False
    after = head[copiers[-1].end() :]
    if _OPTION_VALUE.search(after):
        return False
    tokens = after.split()
    if tokens and not after[-1:].isspace():
        tokens.pop()  # the start of the path itself (`~/`)
    values = {i + 1 for i, token in enumerate(tokens) if _VALUE_FLAG.fullmatch(token)}
    return all(t.startswith("-") or i in values or t in _SUBCOMMANDS for i, t in enumerate(tokens))


def credential_reason(text: str) -> str | None:
    if _holds(_CREDENTIAL_WORDS, text):
        for found in _CREDENTIAL.finditer(text):
            if _sends(*_command_around(text, found.start(), found.end(), "\n;&|")):
                return SENDS_A_CREDENTIAL
    if _holds(_SECRET_TOOL_WORDS, text) and _SECRET_TOOLS.search(text):
        return SENDS_A_CREDENTIAL
    return None


def _persists(head: str, tail: str, grants: bool) -> bool:
    """Whether the command before a target writes into it: text written in, or a file copied
    or linked in (the target its last argument) where the target grants, or the file comes
    from a temporary folder."""
    if _WRITTEN.search(head) or _EDITED.search(head):
        return True
    rest = _PATH_REST.sub("", tail, count=1)
    linked = _LINKED.search(head) is not None and not rest.strip(" \t\"')")
    return linked and (grants or _FROM_TEMP.search(head) is not None)


def persistence_reason(text: str) -> str | None:
    if _holds(_SCHEDULED_WORDS, text) and _SCHEDULED.search(text):
        return PERSISTS
    if not _holds(_TARGET_WORDS, text):
        return None
    for found in _TARGET.finditer(text):
        head, tail = _command_around(text, found.start(), found.end(), "\n;&|")
        if _persists(head, tail, found.group("grants") is not None):
            return PERSISTS
    return None


def download_reason(text: str) -> str | None:
    if _holds(_DOWNLOAD_WORDS, text) and _DOWNLOAD_AND_RUN.search(text):
        return DOWNLOADS_AND_RUNS
    return None


def command_reason(text: str) -> str | None:
    """Why the skeleton `text` holds a command that sends a credential away, plants itself, or
    downloads and runs code; None when it holds none. Windows paths are read with slashes."""
    text = text.replace("\\", "/")
    return download_reason(text) or credential_reason(text) or persistence_reason(text)
