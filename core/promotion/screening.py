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
_SET_ASIDE = r"\b(ignore|disregard|forget|override|bypass)\b"
_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (_SET_ASIDE + r"[^.\n]{0,40}?\b(previous|prior|above|"
         r"earlier|preceding|all|any|your|the|these|those|system)\b[^.\n]{0,30}?\b(instruction|"
         r"instructions|prompt|prompts|rules|directions|directives|guidelines|guardrails|"
         r"context)\b", "tells the agent to set its instructions aside"),
        (_SET_ASIDE + r"\s+(everything\s+|all\s+|the\s+|anything\s+)?(above|before|previous|"
         r"prior|preceding|earlier)\b", "tells the agent to set its instructions aside"),
        (r"\byou\s*(are|'re|r)\s+now\b", "tries to tell the agent what it is now"),
        (r"\bfrom now on,? (you|the assistant|the agent)\b",
         "gives the agent standing orders"),
        (r"\b(new|updated|real|actual|hidden|secret) (system )?(instruction|instructions|"
         r"directive|directives|rules)\s*:", "announces new instructions"),
        (r"\bsystem[ _-]?prompt\b", "mentions the system prompt"),
        (r"\b(do not|don't|never) (tell|inform|alert|mention (it |this )?to) the user\b",
         "asks the agent to keep something from the user"),
        (r"\bdeveloper mode\b|\bjailbreak", "reads like a jailbreak"),
    )
)
_LINES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (r"^\W{0,3}(system|assistant)\s*:", "speaks as the system or the assistant"),
        (r"(^|[.!?]\s+)\W{0,3}(instruction|instructions|directive|directives)\s*:",
         "announces new instructions"),
    )
)
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
        (r"\b(curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]*\|\s*(sudo\s+)?(\S*/)?(ba|z|da|k|c|"
         r"fi)?sh\b|\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?(\S*/)?(python[0-9.]*|perl|ruby|node|"
         r"php|iex)\b", "pipes a download into a shell"),
        (r"\brm\s+-[a-z]*(r[a-z]*f|f[a-z]*r)[a-z]*\s+(~|/|\$home|\*)", "deletes a home or root"),
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
_ANY_PHRASE = _any_of(_PHRASES)


def _first_reason(text: str, any_of: re.Pattern[str],
                  patterns: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    if any_of.search(text) is None:
        return None
    return next((reason for pattern, reason in patterns if pattern.search(text)), None)


def screen_text(text: str) -> str | None:
    """Why `text` reads like instructions to the agent, or None (hidden characters aside)."""
    folded = skeleton(text)
    return (_first_reason(folded, _ANY_SYNTAX, _SYNTAX + _LINES)
            or _first_reason(_plain(folded), _ANY_PHRASE, _PHRASES)
            or _encoded_reason(text))


def screen_entry(title: str, content: str, section: str) -> str | None:
    """Why this MEMORY.md entry should be held back, or None when it reads as plain memory."""
    raw = "\n".join((section, title, content))
    hidden = _hidden_reason(raw)
    if hidden:
        return hidden
    if len(title) > MAX_TITLE_CHARS:
        return f"has a title {len(title):,} characters long (titles stay under " \
               f"{MAX_TITLE_CHARS:,})"
    if len(content) > MAX_ENTRY_CHARS:
        return f"is {len(content):,} characters long (MEMORY.md entries stay under " \
               f"{MAX_ENTRY_CHARS:,})"
    return screen_text(raw)
