"""Passwords given to a command (docs/PROMOTION.md, "Secrets"): `curl -u user:X`, `mysql -pX`,
`sshpass -p X`, `docker login -p X`, `redis-cli -a X`, `sqlcmd -P X`, `ldapsearch -w X`,
`smbclient -U user%X`, `sqlplus user/X@db`, `openssl … -passin pass:X`, `echo X | docker login
--password-stdin`, and a long flag named for a secret (`--password=X`, `--token X`).

Pure. A short flag means a password only after its command on the same line (`-p` is a port
to `docker run`, a password to `docker login`): the commands and the flags are found in one pass
each and paired, the flag with the nearest command before it, so a text full of commands and
flags costs a few passes, not one per command.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from core.promotion.secret_values import VALUE, Span, reads_as_secret, stated, value_of

MOST_COMMAND_GAP = 300  # characters between a command and its flag


@dataclass(frozen=True)
class Command:
    """A command (`names`, where its word starts) whose `flag` is followed by a password on
    the same line (`apart`: what ends a command line), the value caught by `VALUE` in the
    flag's pattern or, for `echo`, in the command's; `needles`: words one of which a text
    holds (in lower case) when it may be there."""

    names: re.Pattern[str]
    flag: re.Pattern[str]
    needles: tuple[str, ...]
    apart: re.Pattern[str] = re.compile(r"[\n;|&]")


def _command(names: str, flag: str, *needles: str) -> Command:
    return Command(
        re.compile(r"(?<![\w./-])(?:" + names + r")(?![\w.-])"),
        re.compile(r"(?<!\S)" + flag + VALUE),
        needles,
    )


_LOGINS = (
    r"(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|regctl|argocd|oc|cf|az|"
    r"twine|vault)(?:[ \t]{1,20}[^\s;|&]{1,60}){0,3}?[ \t]{1,20}(?:login|upload)"
)
COMMANDS: tuple[Command, ...] = (
    _command(
        "curl|wget|http|https|xh|curlie",
        r"(?:-u|-U|--user|--proxy-user|--http-user)(?:[ \t]{1,20}|=)?[\"']?[^\s:\"']{0,200}:",
        "curl",
        "wget",
        "http",
        "xh",
    ),
    _command(r"mysql\w{0,20}|mariadb[\w-]{0,20}", r"(?:-p|--password=)", "mysql", "mariadb"),
    _command("sshpass", r"-p[ \t]{0,20}", "sshpass"),
    _command(_LOGINS, r"(?:-p|--password|--pass)(?:[ \t]{1,20}|=)", "login", "upload"),
    _command(r"mongo\w{0,20}", r"(?:-p[ \t]{1,20}|--password(?:[ \t]{1,20}|=))", "mongo"),
    _command("sqlcmd|bcp|osql|isql", r"-P[ \t]{0,20}", "sqlcmd", "bcp", "osql", "isql"),
    _command("zip|unzip|zipcloak", r"-P[ \t]{1,20}", "zip"),
    _command("7z|7za|7zz|7zr|rar|unrar", r"-p", "7z", "rar"),
    _command("redis-cli|valkey-cli|keydb-cli", r"(?:-a|--pass)[ \t]{1,20}", "-cli"),
    _command(r"ldap\w{1,20}", r"-w[ \t]{1,20}", "ldap"),
    _command(
        r"smbclient|rpcclient|smbmap|net|mount\.cifs|crackmapexec|nxc",
        r"(?:-U|--user(?:name)?)(?:[ \t]{1,20}|=)[\"']?[^\s%\"']{1,200}%",
        "smb",
        "rpcclient",
        "net",
        "cifs",
        "crackmapexec",
        "nxc",
    ),
    _command("sqlplus|expdp|impdp", r"[\w$#.]{1,60}/", "sqlplus", "expdp", "impdp"),
    _command("htpasswd", r"-\w{0,5}b\w{0,5}(?:[ \t]{1,20}[^\s]{1,300}){2}[ \t]{1,20}", "htpasswd"),
    _command(
        "rabbitmqctl",
        r"(?:add_user|change_password)[ \t]{1,20}[^\s]{1,300}[ \t]{1,20}",
        "rabbitmqctl",
    ),
    Command(
        re.compile(r"(?<![\w-])echo[ \t]{1,20}(?:-[ne][ \t]{1,20})?" + VALUE + r"[ \t]{0,20}\|"),
        re.compile(
            r"--password-stdin|--pass(?:word)?-stdin|sudo[ \t]{1,20}-S|"
            r"passwd[ \t]{1,20}--stdin|chpasswd|--passphrase-fd"
        ),
        ("echo",),
        re.compile(r"[\n;&]"),
    ),
)
# A value after its flag alone, with no command: openssl's `pass:X`, and a long flag named for
# a secret (`op`: `=` or a space).
_OPENSSL = re.compile(r"(?<![\w-])-(?:passin|passout|pass|password|passwd)[ \t]{1,20}pass:" + VALUE)
_LONG_FLAG = re.compile(
    r"(?<![\w-])--(?:[a-z0-9]{1,30}-){0,5}(?:password|passwd|passphrase|pass|pwd|secret|token|"
    r"api-?key|access-key|secret-key|private-key|client-secret)(?P<op>=|[ \t]{1,20})" + VALUE,
    re.IGNORECASE,
)
_ASSIGNED = re.compile(r"\w+=")  # docker build --secret id=x,src=path: options, not a secret
# What follows a flag's value when the flag is given on a command line rather than named in a
# sentence: the line's end, another flag, a pipe, a separator, the end of a code span.
_VALUE_ENDS = re.compile(r"[ \t]*(?:$|[\n|;&`\\)]|-{1,2}[A-Za-z])", re.MULTILINE)


def _paired(command: Command, text: str) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    """Each flag of a command with the nearest command before it on its line."""
    ends: list[int] = []
    names: list[re.Match[str]] = []
    for name in command.names.finditer(text):
        ends.append(name.end())
        names.append(name)
    if not names:
        return
    for flag in command.flag.finditer(text):
        at = bisect_right(ends, flag.start()) - 1
        if at < 0 or flag.start() - ends[at] > MOST_COMMAND_GAP:
            continue
        if not command.apart.search(text, ends[at], flag.start()):
            yield names[at], flag


def _given(match: re.Match[str], sure: bool) -> Span | None:
    """The span of a flag's value when it is a password: any value given to a command, with
    `=`, in quotes or ending the command or followed by another flag; one that reads as a
    secret after a space in a sentence ("pass --password when prompted")."""
    value, span, quoted = value_of(match) or ("", (0, 0), False)
    value = value.rstrip(")]},;")  # [--password PASSWORD] in a usage line
    if value.startswith("-"):
        return None
    if (
        sure
        or quoted
        or match.groupdict().get("op") == "="
        or _VALUE_ENDS.match(match.string, span[1])
    ):
        return span if stated(value, True) and not _ASSIGNED.match(value) else None
    return span if reads_as_secret(value, True) and not _ASSIGNED.match(value) else None


def command_lines(text: str) -> Iterator[Span]:
    """Passwords given to a command, in the order of the table, then after a flag alone."""
    lowered = text.lower()
    for command in COMMANDS:
        if not any(needle in lowered for needle in command.needles):
            continue
        for name, flag in _paired(command, text):
            span = _given(name if "bare" in command.names.groupindex else flag, True)
            if span:
                yield span
    for pattern, sure in ((_OPENSSL, True), (_LONG_FLAG, False)):
        for match in pattern.finditer(text):
            span = _given(match, sure)
            if span:
                yield span
