"""Screening what promotion writes to MEMORY.md, which becomes part of an agent's instructions.

Pure: `screen_entry` returns why an entry should be held back, or None. An entry held back is
written only when the operator explicitly allows it. The checks aim at text addressed to the
agent rather than about the user's world, so a note may be held back that is harmless; the
operator sees the reason and decides.

Patterns are matched on a skeleton of the text, not the text: compatibility forms folded
(NFKC: fullwidth and mathematical letters), combining marks and invisible characters dropped,
Cyrillic and Greek look-alikes of Latin letters mapped to them (our own table below), case
folded. So `Ignоrе` with Cyrillic о and е, `ig\u0301nore` or `ign\u034fore` read as `ignore`.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from typing import NamedTuple

from core.promotion.secret_screen import secret_reason
from core.safeio.inert_text import hidden_characters

MAX_ENTRY_CHARS = 4000
MAX_TITLE_CHARS = 300

# Letters that look like Latin ones, by case (uppercase Greek eta looks like H, lowercase like n).
_LOOK_ALIKES = str.maketrans({
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "З": "3", "І": "I", "Ї": "I", "Ј": "J", "К": "K",
    "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S",
    "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "I",
    "а": "a", "в": "b", "е": "e", "ё": "e", "г": "r", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b", "ѵ": "v",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "σ": "o", "ς": "s", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # punctuation that stands for an apostrophe
    "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\uff07": "'",
})
# Invisible although not format characters: grapheme joiner, Hangul fillers, Khmer vowels,
# Mongolian variation selectors.
_INVISIBLE_MARKS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5\u180b\u180c\u180d\u180f")
_SELECTOR = re.compile("[\ufe00-\ufe0f]")
_PRESENTATION = "\ufe0e\ufe0f"  # text or emoji presentation of the character before


def skeleton(text: str) -> str:
    """The text as patterns see it: NFKC, no marks or invisible characters, look-alikes
    mapped to Latin, case folded. Line breaks stay."""
    if text.isascii():
        return text.lower()  # nothing to fold but case (most notes: at C speed)
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    kept = "".join(c for c in decomposed if c not in _INVISIBLE_MARKS
                   and unicodedata.category(c) not in ("Mn", "Me", "Cf"))
    return unicodedata.normalize("NFKC", kept.translate(_LOOK_ALIKES)).casefold()


_FLAGS = re.IGNORECASE | re.MULTILINE
_SET_ASIDE = r"\b(ignore|disregard|forget|override|bypass|disobey)\b"
_SET_ASIDE_WORDS = ("ignore", "disregard", "forget", "override", "bypass", "disobey")
Rule = tuple[re.Pattern[str], str, tuple[str, ...]]  # a pattern, its reason, its words
# Each looked for only in a text holding one of its words (in the folded text): most notes hold
# none, and a pattern that may start anywhere costs a pass over the text.
_PHRASES: tuple[Rule, ...] = tuple(
    (re.compile(pattern, _FLAGS), reason, needles) for pattern, reason, needles in (
        (_SET_ASIDE + r"[^.\n]{0,40}?\b(previous|prior|above|"
         r"earlier|preceding|all|any|your|the|these|those|system)\b[^.\n]{0,30}?\b(instruction|"
         r"instructions|prompt|prompts|rules|directions|directives|guidelines|guardrails|"
         r"context)\b", "tells the agent to set its instructions aside", _SET_ASIDE_WORDS),
        (_SET_ASIDE + r"\s+(everything\s+|all\s+|the\s+|anything\s+)?(above|before|previous|"
         r"prior|preceding|earlier)\b", "tells the agent to set its instructions aside",
         _SET_ASIDE_WORDS),
        (r"\byou\s*(are|'re|r)\s+now\b", "tries to tell the agent what it is now", ("now",)),
        (r"\bfrom now on,? (you|the assistant|the agent)\b",
         "gives the agent standing orders", ("now on",)),
        (r"\b(new|updated|real|actual|hidden|secret) (system )?(instruction|instructions|"
         r"directive|directives|rules)\s*:", "announces new instructions",
         ("instruction", "directive", "rules")),
        (r"\bsystem[ _-]?prompt\b", "mentions the system prompt", ("system",)),
        (r"\b(do not|don't|never) (tell|inform|alert|mention (it |this )?to) the user\b",
         "asks the agent to keep something from the user", ("the user",)),
        (r"\bdeveloper mode\b|\bjailbreak|\bdo anything now\b", "reads like a jailbreak",
         ("developer mode", "jailbreak", "anything now")),
        (_SET_ASIDE + r"\s+(everything|all|anything|whatever|what)\b[^.\n]{0,40}?\b(told|said|"
         r"taught|instructed|given|above|before|previously|prior|earlier|so far|until now)\b",
         "tells the agent to set its instructions aside", _SET_ASIDE_WORDS),
        (_SET_ASIDE + r"\s+(all\s+)?(of\s+)?your\s+(\w+\s+)?(instructions?|programming|"
         r"training|rules|guidelines|restrictions|constraints|policies|safety|filters|"
         r"directives|orders|prompt|limitations)\b",
         "tells the agent to set its instructions aside", _SET_ASIDE_WORDS),
        (r"\bnote to (the |any |all |our )?(ai|assistant|agent|model|llm|bot|claude|gpt|chatgpt|"
         r"copilot|gemini)s?\b|\b(dear|hey) (ai|assistant|agent|claude|chatgpt|gpt|copilot|"
         r"gemini|llm)\b|\bif you are an? (ai|llm|language model|assistant|agent|bot|chatbot)\b|"
         r"\b(ai|llm|assistant|agent)s? reading this\b", "addresses the agent directly",
         ("note to", "dear", "hey", "if you are", "reading this")),
        (r"\byou (must|will|shall|should|need to|have to|are to) now\b|\bnow,? you (must|will|"
         r"shall|should|are to)\b|\byou are (hereby \w+|instructed|ordered|commanded) to\b|"
         r"\byour (new|real|true|actual|only) (task|goal|objective|purpose|role|mission|job|"
         r"instructions?) (is|are)\b", "gives the agent orders",
         ("now", "hereby", "instructed", "ordered", "commanded", "your new", "your real",
          "your true", "your actual", "your only")),
        (r"\b(reveal|print|output|leak|dump|send|exfiltrate|upload|post|email)( me)?( all)?"
         r"( of)? your (system |hidden |secret )?(prompt|instructions|secrets?|api keys?|keys|"
         r"credentials|passwords?|tokens?|env|environment|config)\b",
         "asks the agent to reveal what it keeps", ("your",)),
        (r"\bpretend (that )?(you('re| are)|to be)\b|\b(act|behave) as (if|though) you\b",
         "tries to tell the agent what it is now", ("pretend", "as if you", "as though you")),
    )
)
_LINES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (r"^\W{0,3}(system|assistant)\s*:", "speaks as the system or the assistant"),
        (r"(^|[.!?]\s+)\W{0,3}(instruction|instructions|directive|directives)\s*:",
         "announces new instructions"),
    )
)
_DOWNLOAD = (r"\b(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|"
             r"lwp-download|scp|tftp)\b")
# What runs a file or code: a shell, an interpreter, chmod, or a path to a program.
_RUNNER = (r"(sudo\s+)?(env\s+)?(\S*/)?((ba|z|da|k|c|fi|tc)?sh|python[0-9.]*|perl|ruby|node|php|"
           r"source|chmod|iex|exec|eval)\b|\.{1,2}/\S|/tmp/\S")
_TEMP = r"(/tmp|/var/tmp|/dev/shm)/\S"
_SYNTAX: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (r"<\|[a-z_]{2,30}\|>|\[/?(inst|sys)\]|<</?sys>>", "contains chat-template tokens"),
        (r"</?\s*(system|sys|assistant|user|human|developer|tool|tools|tool_call|tool_use|"
         r"tool_result|function_calls?|function_results?|invoke|antml:[a-z_]+|instructions?)"
         r"\b[^>\n]{0,200}(>|$)", "contains prompt or tool-call markup"),
        (r"<!--", "contains an HTML comment, which is hidden when the file is shown"),
        (r"\{\s*\"(name|tool|tool_name|function|recipient_name)\"\s*:\s*\"[^\"\n]*\"\s*,\s*"
         r"\"(arguments|parameters|input|args)\"\s*:", "contains tool-call JSON"),
        (r"\"(tool_calls|function_call|tool_use)\"\s*:", "contains tool-call JSON"),
        (r"\brm\s+-[a-z]*(r[a-z]*f|f[a-z]*r)[a-z]*\s+(~|/|\$home|\*)", "deletes a home or root"),
    )
)
_DOWNLOADERS = ("curl", "wget", "fetch", "iwr", "irm", "invoke-", "aria2c", "lwp-download", "scp",
                "tftp")
# Commands to run, each looked for only in a text holding one of its words.
_COMMANDS: tuple[Rule, ...] = tuple(
    (re.compile(pattern, _FLAGS), reason, needles) for pattern, reason, needles in (
        (r"\b(curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]*\|\s*(sudo\s+)?(\S*/)?(ba|z|da|k|c|"
         r"fi)?sh\b|\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?(\S*/)?(python[0-9.]*|perl|ruby|node|"
         r"php|iex)\b", "pipes a download into a shell", _DOWNLOADERS),
        (_DOWNLOAD + r"[^\n]{0,500}?(;|&&|\|\||\|)\s*(" + _RUNNER + ")",
         "downloads something and runs it", _DOWNLOADERS),
        (r"(?<!\|)\|(?!\|)\s*(sudo\s+)?(\S*/)?(ba|z|da|k|c|fi|tc)?sh\b", "pipes text into a shell",
         ("|",)),
        (r"\b(python[0-9.]*|bash|sh|zsh|pwsh)(\s+-[a-z]+)*\s+-c\s*[\"'$`]|\b(perl|ruby|node)"
         r"(\s+-[a-z]+)*\s+-e\s*[\"'$`]|\bphp\s+-r\s*[\"'$`]|\b(powershell|pwsh)\b[^\n]*\s"
         r"-(command|encodedcommand|enc|e)\b",
         "runs code given inline", (" -c", " -e", " -r", " -command", " -enc")),
        (r"\beval\s+[\"'$`]|\beval\s*\(\s*[\"'`$]", "evaluates code", ("eval",)),
        (r"[=(]\s*`[^`\n]+`", "runs a command substitution", ("`",)),
        (r"\biex\b\s*[($]|\bdownloadstring\s*\(|\binvoke-expression\b", "runs downloaded code",
         ("iex", "downloadstring", "invoke-expression")),
        (r"/dev/tcp/|\b(nc|ncat|netcat)\b[^\n]*\s-[a-z]*[ec]\s", "opens a shell to another machine",
         ("/dev/tcp/", "nc ", "ncat", "netcat")),
        (r"\b(ba|z|da|k)?sh\s+" + _TEMP + r"|\b(source|exec)\s+" + _TEMP + r"|(;|&&|\|\|)\s*"
         + _TEMP, "runs a script from a temporary directory", ("/tmp/", "/var/tmp/", "/dev/shm/")),
        (r"(;|&&|\|\|)\s*(sudo\s+)?(ba|z|da|k|fi)?sh\s+(-[a-z]+\s+)*[\w~-]*[./][\w./~-]*",
         "chains a shell running a script", ("sh ",)),
        (r"\bchmod\b[^\n]{0,500}?(;|&&|\|\|)\s*(sudo\s+)?(\.{1,2}/|/|~/)\S",
         "makes a file executable and runs it", ("chmod",)),
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
    hidden += [c for c in dict.fromkeys(text) if c in _INVISIBLE_MARKS]
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


def _first_reason(text: str, any_of: re.Pattern[str],
                  patterns: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    if any_of.search(text) is None:
        return None
    return next((reason for pattern, reason in patterns if pattern.search(text)), None)


_SUBSTITUTION = re.compile(r"\$\((?!\()([^()\n]*)\)")
_MAKE_VARIABLE = re.compile(r"\s*[A-Z][A-Z0-9_]*\s*")


def _gated_reason(text: str, rules: tuple[Rule, ...]) -> str | None:
    """The reason of the first rule whose words the text holds and whose pattern it matches."""
    for pattern, reason, needles in rules:
        if any(needle in text for needle in needles) and pattern.search(text):
            return reason
    return None


def _substitution_reason(text: str) -> str | None:
    """`$(command)` anywhere; a Makefile's `$(CC)` (one upper-case name) is a variable."""
    for match in _SUBSTITUTION.finditer(unicodedata.normalize("NFKC", text)):
        if not _MAKE_VARIABLE.fullmatch(match.group(1)):
            return "runs a command substitution"
    return None


# Single letters with a separator between each: "i g n o r e", "i.g.n.o.r.e.", "i-g-n-o-r-e".
_SPACED = re.compile(r"(?<![a-z0-9])[a-z](?:[^a-z0-9\n]{1,3}[a-z](?![a-z0-9])){3,}"
                     r"(?:[^a-z0-9\s](?=\s|$))?")
_WORD_BREAK = re.compile(r"[^a-z0-9]*\s{2,}[^a-z0-9]*|\s*/\s*")
# A digit or symbol standing for a letter inside a word: "1gn0r3", "d1sr3g4rd".
_LEET = str.maketrans("013457@$", "oieastas")
_LEET_WORD = re.compile(r"(?<![a-z0-9@$])(?=[a-z0-9@$]*[a-z])(?=[a-z@$]*[0-9@$])"
                        r"[a-z0-9@$]{3,}(?![a-z0-9@$])")
# The words of the phrases above: a word spelled with digits matters only when it is one.
_PHRASE_WORDS = frozenset(re.findall(r"[a-z]{3,}", " ".join(p.pattern for p, _, _ in _PHRASES)))
# What spaced letters spell when no wider gap marks where the words end.
_SQUASHED = re.compile(
    r"(ignore|disregard|forget|override|bypass)(all|everything|the|your|any|of)*(previous|prior|"
    r"above|earlier|instructions?|rules|prompt|youweretold)|you(are|re)now|fromnowon|"
    r"newinstructions|systemprompt|developermode|jailbreak|notetothe(ai|assistant|agent|model)|"
    r"youmustnow")


def _joined(run: str) -> str:
    """Spaced letters as words: a wider gap (or a slash) between letters ends a word."""
    return " ".join(re.sub(r"[^a-z]", "", word) for word in _WORD_BREAK.split(run))


def _spelled(folded: str) -> str | None:
    """The text with its spaced letters joined into words, or None when it has none."""
    if _SPACED.search(folded) is None:
        return None
    return _plain(_SPACED.sub(lambda m: _joined(m.group()), folded))


def _unleet(plain: str) -> str | None:
    """The text with digits read as letters inside words, or None when that makes no word
    the phrases look for."""
    changed = False

    def read(match: re.Match[str]) -> str:
        nonlocal changed
        word = match.group().translate(_LEET)
        changed = changed or word in _PHRASE_WORDS
        return word

    text = _LEET_WORD.sub(read, plain)
    return text if changed else None


def _phrase_reason(folded: str) -> str | None:
    """The phrases on the text, on its spaced letters joined and on its digits read as letters."""
    plain = _plain(folded)
    spelled = _spelled(folded)
    variants = [plain] if spelled is None else [plain, spelled]
    unleet = _unleet(variants[-1])
    for variant in variants + ([] if unleet is None else [unleet]):
        reason = _gated_reason(variant, _PHRASES)
        if reason:
            return reason
    for match in _SPACED.finditer(plain):
        if _SQUASHED.search(re.sub(r"[^a-z]", "", match.group())):
            return "spells out instructions to the agent letter by letter"
    return None


def screen_text(text: str) -> str | None:
    """Why `text` reads like instructions to the agent, or None (hidden characters aside)."""
    folded = skeleton(text)
    return (_first_reason(folded, _ANY_SYNTAX, _SYNTAX + _LINES)
            or _gated_reason(folded, _COMMANDS)
            or _substitution_reason(text)
            or _phrase_reason(folded)
            or _encoded_reason(text))


class Screened(NamedTuple):
    """Why an entry is held back, and whether a secret is among the reasons (then the text
    is shown masked)."""

    reason: str
    secret: bool


def screen(title: str, content: str, section: str,
           allow_contact: bool = False) -> Screened | None:
    """Why this MEMORY.md entry should be held back, or None when it reads as plain memory:
    instructions to the agent (this module) and secrets (core/promotion/secret_screen.py), both
    named
    when it holds both. `allow_contact`: e-mail addresses and phone numbers pass."""
    raw = "\n".join((section, title, content))
    hidden = _hidden_reason(raw)
    if hidden:
        return Screened(hidden, False)
    if len(title) > MAX_TITLE_CHARS:
        return Screened(f"has a title {len(title):,} characters long (titles stay under "
                        f"{MAX_TITLE_CHARS:,})", False)
    if len(content) > MAX_ENTRY_CHARS:
        return Screened(f"is {len(content):,} characters long (MEMORY.md entries stay under "
                        f"{MAX_ENTRY_CHARS:,})", False)
    instructions, secret = screen_text(raw), secret_reason(raw, allow_contact)
    reasons = [r for r in (instructions, secret) if r]
    return Screened(", and ".join(reasons), secret is not None) if reasons else None


def screen_entry(title: str, content: str, section: str,
                 allow_contact: bool = False) -> str | None:
    """`screen`'s reason alone."""
    screened = screen(title, content, section, allow_contact)
    return screened.reason if screened else None
