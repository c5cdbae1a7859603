"""Screening what promotion writes to MEMORY.md, which becomes part of an agent's instructions.

Pure: `screen_entry` returns why an entry should be held back, or None. An entry held back is
written only when the operator explicitly allows it. The checks aim at text addressed to the
agent rather than about the user's world, so a note may be held back that is harmless; the
operator sees the reason and decides.

Patterns are matched on a skeleton of the text, not the text (`core/promotion/skeleton.py`):
compatibility forms folded, combining marks and invisible characters dropped, look-alike letters
read as the Latin ones they imitate (Unicode's confusables data), case folded. So `Ignоrе` with
Cyrillic о and е, `ig\u0301nore`, `ign\u034fore` or `ıgnore` read as `ignore`. The orders to the
agent, in families and languages, are in `order_rules.py` and `order_words.py`; the commands
that send credentials away, plant themselves or run downloads in `command_rules.py`.

Every pattern's gaps are bounded and the skeleton is one pass, so screening is linear in the
text; an entry over the length bounds is held back before any pattern runs.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from functools import cache
from typing import NamedTuple

from core.promotion.command_rules import command_reason
from core.promotion.order_rules import ROLE, SET_ASIDE, VOID, cjk_rules, language_rules
from core.promotion.order_words import CJK, ENGLISH, LANGUAGES
from core.promotion.rules import SEP, Rule, Rules, Substrings, Words, alt
from core.promotion.secret_screen import secret_reason
from core.promotion.skeleton import INVISIBLE_MARKS, skeleton
from core.safeio.inert_text import hidden_characters

MAX_ENTRY_CHARS = 4000
MAX_TITLE_CHARS = 300
MAX_SECTION_CHARS = 300

_SELECTOR = re.compile("[\ufe00-\ufe0f]")
_PRESENTATION = "\ufe0e\ufe0f"  # text or emoji presentation of the character before

_FLAGS = re.IGNORECASE | re.MULTILINE
_SET_ASIDE_WORDS = Words(ENGLISH.verbs)
_STRONG_VERB = alt(ENGLISH.verbs)
# Each looked for only in a text holding one of its words (in the folded text): most notes hold
# none, and a pattern that may start anywhere costs a pass over the text.
_ENGLISH: tuple[Rule, ...] = tuple(
    (
        re.compile(pattern, _FLAGS),
        reason,
        needles if isinstance(needles, Words) else Substrings(needles),
    )
    for pattern, reason, needles in (
        # "ignore the above", "forget everything before": the pointing word ends the order
        (
            rf"\b{_STRONG_VERB}\s+(?:everything\s+|all\s+|the\s+|anything\s+)?(?:above|before|"
            r"previous|prior|preceding|earlier)\s*(?:[.,;:!?)\n]|$|and\b|then\b|or\b|&)",
            SET_ASIDE,
            _SET_ASIDE_WORDS,
        ),
        (
            rf"\b{_STRONG_VERB}\s+(?:everything|all|anything|whatever|what)\b[^.\n]{{0,40}}?\b(?:"
            r"told|said|taught|instructed|given|above|before|previously|prior|earlier|so far|"
            r"until now)\b",
            SET_ASIDE,
            _SET_ASIDE_WORDS,
        ),
        (
            r"\b(?:everything|anything|all)\s+(?:above|before|so far|you(?:'ve| have)? been told|"
            rf"you were told|i (?:said|told you)|said (?:above|before))\b(?:{SEP}\w+){{0,2}}?{SEP}"
            rf"{alt(ENGLISH.void)}\b",
            VOID,
            ("everything", "anything", "all"),
        ),
        (r"\byou\s*(are|'re|r)\s+now\b", ROLE, ("now",)),
        (
            r"\b(new|updated|real|actual|hidden|secret) (system )?(instruction|instructions|"
            r"directive|directives|rules)\s*:",
            "announces new instructions",
            ("instruction", "directive", "rules"),
        ),
        (r"\bsystem[ _-]?prompt\b", "mentions the system prompt", ("system",)),
        (
            r"\b(do not|don't|never) (tell|inform|alert|mention (it |this )?to) the user\b",
            "asks the agent to keep something from the user",
            ("the user",),
        ),
        (
            r"\bdeveloper mode\b|\bjailbreak|\bdo anything now\b",
            "reads like a jailbreak",
            ("developer mode", "jailbreak", "anything now"),
        ),
        (
            r"\bnote to (the |any |all |our )?(ai|assistant|agent|model|llm|bot|claude|gpt|chatgpt|"
            r"copilot|gemini)s?\b|\b(dear|hey) (ai|assistant|agent|claude|chatgpt|gpt|copilot|"
            r"gemini|llm)\b|\bif you are an? (ai|llm|language model|assistant|agent|bot|chatbot)\b|"
            r"\b(ai|llm|assistant|agent)s? reading this\b",
            "addresses the agent directly",
            ("note to", "dear", "hey", "if you are", "reading this"),
        ),
        (
            r"\byou (must|will|shall|should|need to|have to|are to) now\b|\bnow,? you (must|will|"
            r"shall|should|are to)\b|\byou are (hereby \w+|instructed|ordered|commanded) to\b|"
            r"\byour (new|real|true|actual|only) (task|goal|objective|purpose|role|mission|job|"
            r"instructions?) (is|are)\b",
            "gives the agent orders",
            (
                "now",
                "hereby",
                "instructed",
                "ordered",
                "commanded",
                "your new",
                "your real",
                "your true",
                "your actual",
                "your only",
            ),
        ),
        (
            r"\b(reveal|print|output|leak|dump|send|exfiltrate|upload|post|email)( me)?( all)?"
            r"( of)? your (system |hidden |secret )?(prompt|instructions|secrets?|api keys?|keys|"
            r"credentials|passwords?|tokens?|env|environment|config)\b",
            "asks the agent to reveal what it keeps",
            ("your",),
        ),
        (
            r"\bpretend (that )?(you('re| are)|to be)\b|\b(act|behave) as (if|though) you\b",
            ROLE,
            ("pretend", "as if you", "as though you"),
        ),
    )
)


@cache
def _phrases() -> Rules:
    """Every rule for orders to the agent; built on first use (a second or so of compiling
    that commands which never screen do not pay)."""
    return Rules(
        (
            *_ENGLISH,
            *(rule for language in LANGUAGES for rule in language_rules(language)),
            *cjk_rules(**CJK),
        )
    )


_LINES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason)
    for pattern, reason in (
        (r"^\W{0,3}(system|assistant)\s*:", "speaks as the system or the assistant"),
        (
            r"(^|[.!?]\s+)\W{0,3}(instruction|instructions|directive|directives)\s*:",
            "announces new instructions",
        ),
    )
)
_DOWNLOAD = (
    r"\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|"
    r"lwp-download|scp|tftp)\b"
)
# What runs a file or code: a shell, an interpreter, chmod, or a path to a program.
_RUNNER = (
    r"(sudo\s+)?(env\s+)?(\S*/)?((ba|z|da|k|c|fi|tc)?sh|python[0-9.]*|perl|ruby|node|php|"
    r"source|chmod|iex|exec|eval)\b|\.{1,2}/\S|/tmp/\S"
)
_TEMP = r"(/tmp|/var/tmp|/dev/shm)/\S"
_SYNTAX: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason)
    for pattern, reason in (
        (r"<\|[a-z_]{2,30}\|>|\[/?(inst|sys)\]|<</?sys>>", "contains chat-template tokens"),
        (
            r"</?\s*(system|sys|assistant|user|human|developer|tool|tools|tool_call|tool_use|"
            r"tool_result|function_calls?|function_results?|invoke|antml:[a-z_]+|instructions?)"
            r"\b[^>\n]{0,200}(>|$)",
            "contains prompt or tool-call markup",
        ),
        (r"<!--", "contains an HTML comment, which is hidden when the file is shown"),
        (
            r"\{\s*\"(name|tool|tool_name|function|recipient_name)\"\s*:\s*\"[^\"\n]*\"\s*,\s*"
            r"\"(arguments|parameters|input|args)\"\s*:",
            "contains tool-call JSON",
        ),
        (r"\"(tool_calls|function_call|tool_use)\"\s*:", "contains tool-call JSON"),
        (
            r"\brm\s+-[a-z]{0,8}(r[a-z]{0,8}f|f[a-z]{0,8}r)[a-z]{0,8}\s+(~|/|\$home|\*)",
            "deletes a home or root",
        ),
    )
)
_DOWNLOADERS = (
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "invoke-",
    "aria2c",
    "lwp-download",
    "scp",
    "tftp",
)
# Commands to run, each looked for only in a text holding one of its words.
_COMMANDS = Rules(
    (re.compile(pattern, _FLAGS), reason, Substrings(needles))
    for pattern, reason, needles in (
        (
            _DOWNLOAD + r"[^\n]{0,500}?(;|&&|\|\||\|)\s*(" + _RUNNER + ")",
            "downloads something and runs it",
            _DOWNLOADERS,
        ),
        (
            r"(?<!\|)\|(?!\|)\s*(sudo\s+)?(\S*/)?(ba|z|da|k|c|fi|tc)?sh\b",
            "pipes text into a shell",
            ("|",),
        ),
        (
            r"\b(python[0-9.]*|bash|sh|zsh|pwsh)(\s+-[a-z]+)*\s+-c\s*[\"'$`]|\b(perl|ruby|node)"
            r"(\s+-[a-z]+)*\s+-e\s*[\"'$`]|\bphp\s+-r\s*[\"'$`]|\b(powershell|pwsh)\b[^\n]{0,300}?\s"
            r"-(command|encodedcommand|enc|e)\b",
            "runs code given inline",
            (" -c", " -e", " -r", " -command", " -enc"),
        ),
        (r"\beval\s+[\"'$`]|\beval\s*\(\s*[\"'`$]", "evaluates code", ("eval",)),
        (r"[=(]\s*`[^`\n]+`", "runs a command substitution", ("`",)),
        (
            r"\biex\b\s*[($]|\bdownloadstring\s*\(|\binvoke-expression\b",
            "runs downloaded code",
            ("iex", "downloadstring", "invoke-expression"),
        ),
        (
            r"/dev/tcp/|\b(nc|ncat|netcat)\b[^\n]{0,300}?\s-[a-z]{0,8}[ec]\s",
            "opens a shell to another machine",
            ("/dev/tcp/", "nc ", "ncat", "netcat"),
        ),
        (
            r"\b(ba|z|da|k)?sh\s+"
            + _TEMP
            + r"|\b(source|exec)\s+"
            + _TEMP
            + r"|(;|&&|\|\|)\s*"
            + _TEMP,
            "runs a script from a temporary directory",
            ("/tmp/", "/var/tmp/", "/dev/shm/"),
        ),
        (
            r"(;|&&|\|\|)\s*(sudo\s+)?(ba|z|da|k|fi)?sh\s+(-[a-z]+\s+)*[\w~-]*[./][\w./~-]*",
            "chains a shell running a script",
            ("sh ",),
        ),
        (
            r"\bchmod\b[^\n]{0,500}?(;|&&|\|\|)\s*(sudo\s+)?(\.{1,2}/|/|~/)\S",
            "makes a file executable and runs it",
            ("chmod",),
        ),
        (r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}", "is a fork bomb", (":()",)),
    )
)
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{24,}={0,2}")


def _plain(skeleton_text: str) -> str:
    """A skeleton with Markdown emphasis dropped and whitespace (line breaks too) collapsed."""
    return " ".join(re.sub(r"[*_~`]+", "", skeleton_text).split())


def _hidden_reason(text: str) -> str | None:
    # The console shows every variation selector as a placeholder (they shift its columns);
    # here one presentation selector after a character (an emoji's) is ordinary text.
    hidden = [c for c in hidden_characters(text) if not _SELECTOR.match(c)]
    hidden += _hiding_selectors(text)
    hidden += [c for c in dict.fromkeys(text) if c in INVISIBLE_MARKS]
    if not hidden:
        return None
    hidden = list(dict.fromkeys(hidden))
    shown = ", ".join(
        f"U+{ord(c):04X} {unicodedata.name(c, 'control character').lower()}" for c in hidden[:3]
    )
    more = f" and {len(hidden) - 3} more" if len(hidden) > 3 else ""
    return f"contains hidden or control characters ({shown}{more})"


def _hiding_selectors(text: str) -> list[str]:
    """Variation selectors 1-16 except one text or emoji presentation selector after a
    character: a run of them can carry a payload nobody sees."""
    found = []
    for match in _SELECTOR.finditer(text):
        at, char = match.start(), match.group()
        after_selector = at > 0 and _SELECTOR.match(text[at - 1]) is not None
        if char not in _PRESENTATION or at == 0 or after_selector:
            found.append(char)
    return list(dict.fromkeys(found))


def _decoded_text(run: str) -> str | None:
    """The text a base64 run decodes to, when it is readable (not a key, hash or binary)."""
    padded = run + "=" * (-len(run) % 4)
    try:
        data = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        text = data.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    readable = sum(c.isalnum() or c in " .,:;'!?-" for c in text)
    return text if " " in text and readable >= 0.9 * len(text) else None


def _encoded_reason(text: str) -> str | None:
    for match in _BASE64.finditer(text):
        decoded = _decoded_text(match.group())
        if decoded is not None:
            inner = screen_text(decoded)
            return f"contains base64-encoded text ({inner or 'readable words'})"
    return None


def _any_of(patterns: tuple[tuple[re.Pattern[str], str], ...]) -> re.Pattern[str]:
    """One pattern matching where any of them does: one pass over an ordinary text."""
    return re.compile("|".join(f"(?:{p.pattern})" for p, _ in patterns), _FLAGS)


_ANY_SYNTAX = _any_of(_SYNTAX + _LINES)


def _first_reason(
    text: str, any_of: re.Pattern[str], patterns: tuple[tuple[re.Pattern[str], str], ...]
) -> str | None:
    if any_of.search(text) is None:
        return None
    return next((reason for pattern, reason in patterns if pattern.search(text)), None)


_SUBSTITUTION = re.compile(r"\$\((?!\()([^()\n]*)\)")
_MAKE_VARIABLE = re.compile(r"\s*[A-Z][A-Z0-9_]*\s*")


def _substitution_reason(text: str) -> str | None:
    """`$(command)` anywhere; a Makefile's `$(CC)` (one upper-case name) is a variable."""
    for match in _SUBSTITUTION.finditer(unicodedata.normalize("NFKC", text)):
        if not _MAKE_VARIABLE.fullmatch(match.group(1)):
            return "runs a command substitution"
    return None


# Single letters with a separator between each: "i g n o r e", "i.g.n.o.r.e.", "i-g-n-o-r-e".
_SPACED = re.compile(
    r"(?<![a-z0-9])[a-z](?:[^a-z0-9\n]{1,3}[a-z](?![a-z0-9])){3,}"
    r"(?:[^a-z0-9\s](?=\s|$))?"
)
_WORD_BREAK = re.compile(r"[^a-z0-9]*\s{2,}[^a-z0-9]*|\s*/\s*")
# A digit or symbol standing for a letter inside a word ("1gn0r3", "d1sr3g4rd"), and l and i
# standing for each other ("lgnore", "aII"; the skeleton reads a Lisu or Cyrillic I as l).
_LEET = str.maketrans("013457@$", "oieastas")
_KEY = str.maketrans("013457@$l", "oieastasi")
_READ_WORD = re.compile(
    r"(?<![a-z0-9@$])(?=[a-z0-9@$]*[a-z])(?=[a-z@$]*[0-9@$il])"
    r"[a-z0-9@$]{3,}(?![a-z0-9@$])"
)
# The words of the phrases above: a word spelled another way matters only when it is one.


@cache
def _phrase_words() -> dict[str, str]:
    """Each word of the phrases, by its key (digits and l read as letters, as _KEY reads them)."""
    found = set(re.findall(r"[a-z]{3,}", " ".join(p.pattern for p, _, _ in _phrases().rules)))
    return {word.translate(_KEY): word for word in sorted(found, reverse=True)}


# What spaced letters spell when no wider gap marks where the words end.
_SQUASHED = re.compile(
    r"(ignore|disregard|forget|override|bypass|discard|dismiss|drop|setaside|neglect|disobey|"
    r"abandon)(all|everything|the|your|any|of)*(previous|prior|above|earlier|instructions?|"
    r"rules|prompt|guidance|directives|youweretold)|you(are|re)now|younoware|fromnowon|"
    r"goingforwardyou|henceforth(you|the(assistant|agent|ai))|previousinstructions(nolonger|"
    r"are(now)?void)|newinstructions|systemprompt|developermode|jailbreak|"
    r"notetothe(ai|assistant|agent|model)|youmustnow"
)


def _joined(run: str) -> str:
    """Spaced letters as words: a wider gap (or a slash) between letters ends a word."""
    return " ".join(re.sub(r"[^a-z]", "", word) for word in _WORD_BREAK.split(run))


def _spelled(folded: str) -> str | None:
    """The text with its spaced letters joined into words, or None when it has none."""
    if _SPACED.search(folded) is None:
        return None
    return _plain(_SPACED.sub(lambda m: _joined(m.group()), folded))


def _read_words(plain: str) -> str | None:
    """The text with each word spelled with digits, or with l for i and i for l, read as the
    phrases' word it spells; None when that makes no word the phrases look for."""
    words = _phrase_words()
    if all(words.get(w.translate(_KEY), w) == w for w in set(_READ_WORD.findall(plain))):
        return None  # no word spells another of the phrases' words

    def read(match: re.Match[str]) -> str:
        word = match.group()
        return words.get(word.translate(_KEY)) or word.translate(_LEET)

    return _READ_WORD.sub(read, plain)


def _phrase_reason(folded: str) -> str | None:
    """The phrases on the text, on its spaced letters joined and on its words read as the
    phrases' words they spell with digits or l for i."""
    plain = _plain(folded)
    spelled = _spelled(folded)
    variants = [plain] if spelled is None else [plain, spelled]
    read = _read_words(variants[-1])
    for variant in variants + ([] if read is None else [read]):
        reason = _phrases().first_reason(variant)
        if reason:
            return reason
    for match in _SPACED.finditer(plain):
        if _SQUASHED.search(re.sub(r"[^a-z]", "", match.group())):
            return "spells out instructions to the agent letter by letter"
    return None


def screen_text(text: str) -> str | None:
    """Why `text` reads like instructions to the agent, or None (hidden characters aside)."""
    folded = skeleton(text)
    return (
        _first_reason(folded, _ANY_SYNTAX, _SYNTAX + _LINES)
        or command_reason(folded)
        or _COMMANDS.first_reason(folded)
        or _substitution_reason(text)
        or _phrase_reason(folded)
        or _encoded_reason(text)
    )


class Screened(NamedTuple):
    """Why an entry is held back, and whether a secret is among the reasons (then the text
    is shown masked)."""

    reason: str
    secret: bool


def screen(title: str, content: str, section: str, allow_contact: bool = False) -> Screened | None:
    """Why this MEMORY.md entry should be held back, or None when it reads as plain memory:
    instructions to the agent (this module) and secrets (core/promotion/secret_screen.py), both
    named when it holds both. `allow_contact`: e-mail addresses and phone numbers pass. The
    lengths are checked before any pattern runs."""
    raw = "\n".join((section, title, content))
    hidden = _hidden_reason(raw)
    if hidden:
        return Screened(hidden, False)
    if len(title) > MAX_TITLE_CHARS:
        return Screened(
            f"has a title {len(title):,} characters long (titles stay under {MAX_TITLE_CHARS:,})",
            False,
        )
    if len(section) > MAX_SECTION_CHARS:
        return Screened(
            f"has a section name {len(section):,} characters long (section names "
            f"stay under {MAX_SECTION_CHARS:,})",
            False,
        )
    if len(content) > MAX_ENTRY_CHARS:
        return Screened(
            f"is {len(content):,} characters long (MEMORY.md entries stay under "
            f"{MAX_ENTRY_CHARS:,})",
            False,
        )
    instructions, secret = screen_text(raw), secret_reason(raw, allow_contact)
    reasons = [r for r in (instructions, secret) if r]
    return Screened(", and ".join(reasons), secret is not None) if reasons else None


def screen_entry(title: str, content: str, section: str, allow_contact: bool = False) -> str | None:
    """`screen`'s reason alone."""
    screened = screen(title, content, section, allow_contact)
    return screened.reason if screened else None
