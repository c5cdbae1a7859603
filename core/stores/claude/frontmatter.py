"""A topic file's YAML frontmatter (`name`, `description`, `type`), read with the small subset
of YAML the agent writes: `key: value` lines, quoted or plain, and indented continuation lines.
What falls outside it is a problem to flag (docs/CLAUDE_CODE.md, "Frontmatter"). Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TYPES = ("user", "feedback", "project", "reference")
_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?:\s+(?P<value>.*))?$")


@dataclass
class Frontmatter:
    fields: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    body: str = ""
    present: bool = False


def _unquoted(value: str, problems: list[str], key: str) -> str:
    value = value.strip()
    if value[:1] in ("'", '"'):
        quote = value[0]
        if len(value) < 2 or not value.endswith(quote):
            problems.append(f"{key}: an unclosed {quote} quote")
            return value[1:]
        inner = value[1:-1]
        return inner.replace("''", "'") if quote == "'" else inner.replace('\\"', '"')
    if value[:1] in ("[", "{", "&", "*", "!", "|", ">", "@", "`"):
        problems.append(f"{key}: a value starting with {value[0]!r} is not plain text")
    elif re.search(r":\s|\s#", value):
        problems.append(f"{key}: ': ' or ' #' in an unquoted value")
    return value


def _opening(text: str) -> list[str] | None:
    lines = text.split("\n")
    return lines if lines and lines[0].rstrip("\r") == "---" else None


def parse(text: str) -> Frontmatter:
    lines = _opening(text.lstrip("\ufeff"))
    if lines is None:
        return Frontmatter(
            problems=["no frontmatter (the file does not start with ---)"], body=text
        )
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip("\r") in ("---", "..."))
    except StopIteration:
        return Frontmatter(
            problems=["the frontmatter is never closed (no second ---)"], body=text, present=True
        )
    found = Frontmatter(body="\n".join(lines[end + 1 :]), present=True)
    key = ""
    continued: dict[str, list[str]] = {}  # a key's continuation lines, joined once at the end
    for number, raw in enumerate(lines[1:end], start=2):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1] in (" ", "\t") and key:
            continued.setdefault(key, [found.fields[key]]).append(line.strip())
            continue
        if "\t" in line[: len(line) - len(line.lstrip())]:
            found.problems.append(f"line {number}: a tab in the indentation")
            continue
        match = _KEY.match(line)
        if not match:
            found.problems.append(f"line {number} is not `key: value`")
            key = ""
            continue
        key = match["key"]
        if key in found.fields:
            found.problems.append(f"{key} is given twice")
            _join(found.fields, continued)
        found.fields[key] = _unquoted(match["value"] or "", found.problems, key)
    _join(found.fields, continued)
    _check_fields(found)
    return found


def _join(fields: dict[str, str], continued: dict[str, list[str]]) -> None:
    """Each key's value with its continuation lines, one space between (a line at a time
    would copy the value once a line: quadratic in a long one)."""
    for key, parts in continued.items():
        fields[key] = " ".join(part for part in parts if part)
    continued.clear()


def _check_fields(found: Frontmatter) -> None:
    for key in ("name", "description", "type"):
        if not found.fields.get(key):
            found.problems.append(f"no {key}")
    kind = found.fields.get("type")
    if kind and kind not in TYPES:
        found.problems.append(f"type {kind!r} is none of {', '.join(TYPES)}")
