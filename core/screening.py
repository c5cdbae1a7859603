"""Screening what promotion writes to MEMORY.md, which becomes part of an agent's instructions.

Pure: `screen_entry` returns why an entry should be held back, or None. An entry held back is
written only when the operator explicitly allows it. The checks aim at text addressed to the
agent rather than about the user's world, so a note may be held back that is harmless; the
operator sees the reason and decides.
"""

from __future__ import annotations

import re
import unicodedata

from .inert import hidden_characters

MAX_ENTRY_CHARS = 4000

_FLAGS = re.IGNORECASE | re.MULTILINE
_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (r"\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(previous|prior|above|"
         r"earlier|preceding|all|any|your|the|these|those|system)\b[^.\n]{0,30}?\b(instruction|"
         r"instructions|prompt|prompts|rules|directions|directives|guidelines|guardrails)\b",
         "tells the agent to set its instructions aside"),
        (r"\byou are now\b", "tries to tell the agent what it is now"),
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
_SYNTAX: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _FLAGS), reason) for pattern, reason in (
        (r"<\|[a-z_]{2,30}\|>|\[/?(inst|sys)\]|<</?sys>>", "contains chat-template tokens"),
        (r"</?\s*(system|assistant|user|human|developer|tool|tools|tool_call|tool_use|"
         r"tool_result|function_calls?|function_results?|invoke|antml:[a-z_]+|instructions?)"
         r"\b[^>\n]{0,200}>", "contains prompt or tool-call markup"),
        (r"\{\s*\"(name|tool|tool_name|function|recipient_name)\"\s*:\s*\"[^\"\n]*\"\s*,\s*"
         r"\"(arguments|parameters|input|args)\"\s*:", "contains tool-call JSON"),
        (r"\"(tool_calls|function_call|tool_use)\"\s*:", "contains tool-call JSON"),
    )
)


def _plain(text: str) -> str:
    """Text as a reader sees it: compatibility forms folded, invisible characters and
    Markdown emphasis dropped, whitespace collapsed, case folded."""
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return " ".join(re.sub(r"[*_~`]+", "", visible).split()).casefold()


def _hidden_reason(text: str) -> str | None:
    hidden = hidden_characters(text)
    if not hidden:
        return None
    shown = ", ".join(
        f"U+{ord(c):04X} {unicodedata.name(c, 'control character').lower()}" for c in hidden[:3]
    )
    more = f" and {len(hidden) - 3} more" if len(hidden) > 3 else ""
    return f"contains hidden or control characters ({shown}{more})"


def screen_entry(title: str, content: str, section: str) -> str | None:
    """Why this MEMORY.md entry should be held back, or None when it reads as plain memory."""
    raw = "\n".join((section, title, content))
    hidden = _hidden_reason(raw)
    if hidden:
        return hidden
    if len(content) > MAX_ENTRY_CHARS:
        return f"is {len(content):,} characters long (MEMORY.md entries stay under " \
               f"{MAX_ENTRY_CHARS:,})"
    for pattern, reason in _SYNTAX:
        if pattern.search(raw):
            return reason
    plain = _plain(raw)
    for pattern, reason in _PHRASES:
        if pattern.search(plain):
            return reason
    return None
