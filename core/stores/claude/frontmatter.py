"""A topic file's frontmatter as Claude Code reads it (docs/CLAUDE_CODE.md, "Frontmatter"): the
block between a `---` at the file's first byte and the first `---` after it, found in the file's
first 30 lines (64 KiB); read as YAML 1.2, and when that fails read again with plain top-level
values quoted and leading tabs made spaces; every top-level key but `name` and `description`
merged under `metadata` (whose own keys win), the type being `metadata.type`. Only what Claude
Code cannot read is a problem. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.stores.claude.yaml_read import YamlError, load

TYPES = ("user", "feedback", "project", "reference")
HEAD_LINES = 30  # Claude Code's memory scan reads a file's first 30 lines …
HEAD_BYTES = 65536  # … while they stay within 64 KiB
# JavaScript's \s, as Claude Code's pattern for the block uses it
_JS_SPACE = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_LENIENT_LINE = re.compile(rf"([a-zA-Z_-]+):[{_JS_SPACE}]+([^{_JS_SPACE}][^\n\r\u2028\u2029]*)")
_NEEDS_QUOTES = re.compile(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = re.compile(r"^\t+", re.MULTILINE)
_TOP_LEVEL = ("name", "description", "metadata")


@dataclass
class Frontmatter:
    fields: dict[str, str] = field(default_factory=dict)  # name, description, type as read
    problems: list[str] = field(default_factory=list)
    body: str = ""
    present: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Block:
    inner: str  # between the two `---`
    body: str  # after the closing `---` and the whitespace after it
    closing_line: str  # the whole line the closing `---` is on


def head(text: str) -> str:
    """The part of a file Claude Code's memory scan reads: its first 30 lines, whole lines
    only while they (joined by newlines) stay within 64 KiB of UTF-8."""
    kept: list[str] = []
    size = 0
    for line in text.split("\n", HEAD_LINES)[:HEAD_LINES]:
        size += len(line.encode("utf-8", "surrogatepass")) + (1 if kept else 0)
        if size > HEAD_BYTES:
            break
        kept.append(line)
    return "\n".join(kept)


def block(text: str) -> _Block | None:
    """The frontmatter block: `---` at the first byte, whitespace holding a line end, then
    everything up to the first `---` anywhere (mid-line too)."""
    if not text.startswith("---") or text.find("---", 3) < 0:
        return None
    end = 3
    while end < len(text) and text[end] in _JS_SPACE:
        end += 1
    newline = text.rfind("\n", 3, end)
    if newline < 0:
        return None
    close = text.find("---", newline + 1)
    if close < 0:
        return None
    after = close + 3
    while after < len(text) and text[after] in _JS_SPACE:
        after += 1
    line_start = text.rfind("\n", 0, close) + 1
    line_end = text.find("\n", close)
    closing_line = text[line_start : line_end if line_end >= 0 else len(text)]
    return _Block(text[newline + 1 : close], text[after:], closing_line)


def lenient(inner: str) -> str:
    """The block as Claude Code's retry rewrites it: a top-level `key: value` whose value holds
    a YAML indicator or `: ` double-quoted (a quoted value or a `[...]` list left as is), then
    each leading tab two spaces."""
    out = []
    for line in inner.split("\n"):
        match = _LENIENT_LINE.fullmatch(line)
        value = match[2] if match else ""
        if (
            match is None
            or (value[0] in "\"'" and value.endswith(value[0]))
            or (value.startswith("[") and value.endswith("]") and _is_list(value))
            or not _NEEDS_QUOTES.search(value)
        ):
            out.append(line)
            continue
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'{match[1]}: "{escaped}"')
    return _LEADING_TABS.sub(lambda tabs: "  " * len(tabs[0]), "\n".join(out))


def _is_list(value: str) -> bool:
    try:
        return isinstance(load(value), list)
    except YamlError:
        return False


def _yaml(inner: str) -> tuple[Any, str | None]:
    """The block's value, and why it could not be read (after the retry)."""
    try:
        return load(inner), None
    except YamlError:
        pass
    try:
        return load(lenient(inner)), None
    except YamlError as exc:
        return None, str(exc)


def _text(value: Any) -> str:
    return value if isinstance(value, str) and value else ""


def parse(text: str) -> Frontmatter:
    """The frontmatter as Claude Code reads it (its type from the first 30 lines) and the body
    after it; what it cannot read, as problems."""
    text = text.removeprefix("\ufeff")
    whole = block(text)
    found = Frontmatter(body=whole.body if whole else text, present=whole is not None)
    scanned = block(head(text))
    if scanned is None:
        found.problems.append(_none_read(text, whole))
        return found
    value, error = _yaml(scanned.inner)
    if error is not None:
        found.problems.append(
            f"its YAML does not parse, even as Claude Code retries it ({error}): "
            "Claude Code reads no type or description"
        )
    mapping = value if isinstance(value, dict) else {}
    own = mapping.get("metadata")
    found.metadata = {
        **{k: v for k, v in mapping.items() if k not in _TOP_LEVEL and v is not None},
        **(own if isinstance(own, dict) else {}),
    }
    for key in ("name", "description"):
        if read := _text(mapping.get(key)):
            found.fields[key] = read
    kind = found.metadata.get("type")
    if isinstance(kind, str) and kind in TYPES:
        found.fields["type"] = kind
    if scanned.closing_line.strip(_JS_SPACE) != "---":
        found.problems.append(
            f"a --- inside the line {scanned.closing_line.strip()[:60]!r} closes the "
            "frontmatter there: Claude Code reads nothing of it after that"
        )
    if error is None:
        found.problems += _missing(found.fields, found.metadata)
    return found


def _none_read(text: str, whole: _Block | None) -> str:
    if whole is not None:
        return (
            f"the frontmatter does not close within the first {HEAD_LINES} lines: "
            "Claude Code reads only those, and finds none"
        )
    if text.startswith("---"):
        return "the frontmatter is never closed (no second ---)"
    return "no frontmatter (the file does not start with ---)"


def _missing(fields: dict[str, str], metadata: dict[str, Any]) -> list[str]:
    found = []
    kind = metadata.get("type")
    if "type" in fields:
        pass
    elif kind is None:
        found.append("no type")
    else:
        found.append(f"type {kind!r} is none of {', '.join(TYPES)}")
    if "description" not in fields:
        found.append("no description (Claude Code's recall chooses files by it)")
    return found
