"""The agent's own promotion to MEMORY.md, re-told in Python for the alternation tests.

Written from reading the agent's promote code (its `donna` fork, src/nuggets/promote.ts, with
the shelf and graph code it reads notes through), not copied: the agent reads every `## name`
heading and every `- **title**: value` line (first line only, stripped lines, any indentation),
drops everything else, then regenerates the whole file: its own header, `learnings` and
`preferences` first, the other sections by name, entries in the order it read them with new
ones after (titles like `2024` first: a JavaScript object's key order), each note's whole
content (in its normal form: lines trimmed, one blank line at most) after its title, further
lines flush left, a blank line after each section. It takes the notes nugget by nugget, each
nugget's sorted by `updatedAt` (a stable sort: a tie keeps the file's order), and the later
note of a section and title wins. It does not know hand-written lines, so it drops them.
"""

from __future__ import annotations

import re

from core.notes.js_strings import js_trim, normalize_whitespace

AGENT_HEADER = "# Memory\n\nAuto-promoted from nugget graph notes (3+ recalls across sessions).\n"
_HEADING = re.compile(r"^##\s+(.+)$")
_FACT = re.compile(r"^-\s+\*\*(.+?)\*\*:\s*(.+)$")


def agent_section(note: dict) -> str:
    subject, scope, tags = note.get("subject", ""), note.get("scope", ""), note.get("tags", [])
    if subject == "assistant:self":
        return "assistant-self"
    if subject.startswith("user:"):
        return "user"
    if scope in ("shared", "project"):
        return "shared-context"
    if "preferences" in tags:
        return "preferences"
    if "learnings" in tags:
        return "learnings"
    return note["nuggetName"]


def _parse(text: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current = ""
    for line in text.split("\n"):
        stripped = line.strip()
        heading = _HEADING.match(stripped)
        if heading:
            current = heading.group(1).strip()
            sections.setdefault(current, {})
            continue
        fact = _FACT.match(stripped)
        if fact and current:
            sections[current][fact.group(1).strip()] = fact.group(2).strip()
    return sections


def _js_keys(keys: list[str]) -> list[str]:
    """Keys in a JavaScript object's order: array-index-like keys first, ascending, then the
    others as inserted."""

    def index_like(key: str) -> bool:
        return (
            key.isascii()
            and key.isdigit()
            and (key == "0" or key[0] != "0")
            and int(key) < 2**32 - 1
        )

    return sorted((k for k in keys if index_like(k)), key=int) + [
        k for k in keys if not index_like(k)
    ]


def _render(sections: dict[str, dict[str, str]]) -> str:
    first = [s for s in ("learnings", "preferences") if s in sections]
    ordered = first + sorted(s for s in sections if s not in first)
    lines = [AGENT_HEADER]
    for name in ordered:
        if not sections[name]:
            continue
        lines.append(f"## {name}\n")
        entries = sections[name]
        lines += [f"- **{title}**: {entries[title]}" for title in _js_keys(list(entries))]
        lines.append("")
    return "\n".join(lines)


def agent_promote(notes: list[dict], before: str, threshold: int = 3) -> str:
    """The file as the agent's promotion leaves it."""
    nuggets = list(dict.fromkeys(n["nuggetName"] for n in notes))  # its shelf, nugget by nugget
    candidates = [
        n
        for nugget in nuggets
        for n in sorted(
            (n for n in notes if n["nuggetName"] == nugget), key=lambda n: n.get("updatedAt", "")
        )
        if not n.get("hidden") and (n.get("hits") or 0) >= threshold
    ]
    if not candidates:
        return before  # it writes nothing
    sections = _parse(before) if before else {}
    for note in candidates:
        title, content = js_trim(note["title"]), normalize_whitespace(note["content"])
        sections.setdefault(agent_section(note), {})[title] = content
    return _render(sections)
