"""A topic file's frontmatter read as a YAML 1.2 parser reads it (docs/CLAUDE_CODE.md,
"Frontmatter"): block mappings and sequences, flow collections, plain, quoted and block scalars,
the core schema (`yes` stays text, `true` and `12` do not), anchors, tags and aliases, and
duplicate keys (the last one wins). What such a parser refuses raises YamlError. Each line is
read once (a quoted or flow value spanning lines is read again per line it spans; frontmatter is
read from a file's first 30 lines only). Pure."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 64  # nesting deeper than any frontmatter: refused rather than recursed into

_NULL = re.compile(r"~|null|Null|NULL")
_TRUE = re.compile(r"true|True|TRUE")
_FALSE = re.compile(r"false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")
_BLOCK_HEADER = re.compile(r"[|>]([1-9][+-]?|[+-][1-9]?)?")
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class YamlError(ValueError):
    """Text a YAML 1.2 parser refuses."""


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based
    indent: int  # leading spaces
    text: str  # the rest, trailing whitespace dropped


def resolve(plain: str) -> Any:
    """A plain scalar as the core schema reads it."""
    if not plain or _NULL.fullmatch(plain):
        return None
    if _TRUE.fullmatch(plain):
        return True
    if _FALSE.fullmatch(plain):
        return False
    if _INT.fullmatch(plain):
        return int(plain)
    if _OCT.fullmatch(plain):
        return int(plain[2:], 8)
    if _HEX.fullmatch(plain):
        return int(plain[2:], 16)
    if _FLOAT.fullmatch(plain):
        return float(plain)
    if _INF.fullmatch(plain):
        return -math.inf if plain.startswith("-") else math.inf
    if _NAN.fullmatch(plain):
        return math.nan
    return plain


def _comment_at(text: str) -> int:
    """Where a comment starts in plain text (a `#` after a space or tab), else its length."""
    for at in range(1, len(text)):
        if text[at] == "#" and text[at - 1] in " \t":
            return at
    return len(text)


def _mapping_colon(text: str) -> int:
    """Where a `: ` (or a `:` ending the text) splits plain text as a key and its value."""
    for at, char in enumerate(text):
        if char == "#" and at and text[at - 1] in " \t":
            return -1
        if char == ":" and (at + 1 == len(text) or text[at + 1] in " \t"):
            return at
    return -1


def load(text: str) -> Any:
    """The document's value (None when it is empty)."""
    return _Reader(text).document()


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = []
        for number, raw in enumerate(text.split("\n"), start=1):
            line = raw.removesuffix("\r")
            stripped = line.lstrip(" ")
            self.lines.append(_Line(number, len(line) - len(stripped), stripped.rstrip(" \t")))
        self.at = 0
        self.anchors: dict[str, Any] = {}
        self.depth = 0

    def fail(self, what: str, line: _Line | None = None) -> YamlError:
        where = line or (self.lines[self.at] if self.at < len(self.lines) else self.lines[-1])
        return YamlError(f"line {where.number}: {what}")

    def structural(self) -> _Line | None:
        """The next line that is not blank or a comment, or None at the end."""
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.text and not line.text.startswith("#"):
                if line.text[0] == "\t":
                    raise self.fail("a tab in the indentation")
                return line
            self.at += 1
        return None

    def document(self) -> Any:
        line = self.structural()
        if line is None:
            return None
        value = self.block(line.indent)
        if self.structural() is not None:
            raise self.fail("more than one value at the top level")
        return value

    def block(self, indent: int) -> Any:
        """The node whose first line is the current one, at `indent`."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail("nested too deep")
        try:
            line = self.lines[self.at]
            if line.text == "-" or line.text.startswith(("- ", "-\t")):
                return self.sequence(indent)
            if self.key_of(line.text) is not None:
                return self.mapping(indent)
            self.at += 1
            return self.value(line.text, indent - 1, line)
        finally:
            self.depth -= 1

    def key_of(self, text: str) -> tuple[str, str] | None:
        """A mapping line's key and the text after its `:`, None when it is not one."""
        if text[:1] in ("'", '"'):
            value, rest = self.quoted_inline(text)
            if value is None or not rest.startswith(":") or rest[1:2] not in ("", " ", "\t"):
                return None
            return str(value), rest[1:]
        if text[:1] in ("[", "{", "?") or text.startswith(("- ", "-\t")):
            return None
        colon = _mapping_colon(text)
        if colon <= 0:
            return None
        return text[:colon].rstrip(), text[colon + 1 :]

    def mapping(self, indent: int) -> dict[str, Any]:
        found: dict[str, Any] = {}
        while (line := self.structural()) is not None and line.indent >= indent:
            if line.indent > indent:
                raise self.fail("indented more than the keys before it", line)
            split = self.key_of(line.text)
            if split is None:
                raise self.fail("not `key: value` among keys", line)
            self.at += 1
            found[split[0]] = self.value(split[1], indent, line, in_mapping=True)
        return found

    def sequence(self, indent: int) -> list[Any]:
        found: list[Any] = []
        while (line := self.structural()) is not None and line.indent >= indent:
            dash = line.text == "-" or line.text.startswith(("- ", "-\t"))
            if line.indent == indent and not dash:
                break  # the mapping the list is a value of goes on
            if line.indent > indent:
                raise self.fail("indented more than the items before it", line)
            item = line.text[1:].lstrip(" \t")
            inner = line.indent + len(line.text) - len(item)
            if item and not item.startswith("#") and self.key_of(item) is not None:
                self.lines[self.at] = _Line(line.number, inner, item)  # `- key: v`: a mapping
                found.append(self.block(inner))
            else:
                self.at += 1
                found.append(self.value(item, indent, line))
        return found

    def value(self, rest: str, indent: int, line: _Line, in_mapping: bool = False) -> Any:
        """The value after a key or a list item's dash; its children are indented past
        `indent` (a mapping's list may sit at the key's own indent)."""
        text = rest.strip(" \t")
        anchor = None
        while text[:1] in ("&", "!"):
            token, _, text = text.partition(" ")
            text = text.lstrip(" \t")
            if token.startswith("&"):
                anchor = token[1:]
        found = self.node(text, indent, line, in_mapping)
        if anchor:
            self.anchors[anchor] = found
        return found

    def node(self, text: str, indent: int, line: _Line, in_mapping: bool) -> Any:
        if not text or text.startswith("#"):
            following = self.structural()
            if following is None:
                return None
            dash = following.text == "-" or following.text.startswith(("- ", "-\t"))
            if following.indent > indent or (following.indent == indent and in_mapping and dash):
                return self.block(following.indent)
            return None
        first = text[0]
        if first in ("'", '"'):
            return self.quoted(text, line)
        if first in ("[", "{"):
            return self.flow(text, line)
        if first in ("|", ">"):
            return self.block_scalar(text, indent, line)
        if first == "*":
            name, _, after = text[1:].partition(" ")
            if name not in self.anchors or (after.strip() and not after.strip().startswith("#")):
                raise self.fail("an alias to no anchor", line)
            return self.anchors[name]
        if first in "@`%]}" or (first in "-?:" and text[1:2] in ("", " ", "\t")):
            raise self.fail(f"a value starting with {first!r}", line)
        return self.plain(text, indent, line)

    def plain(self, text: str, indent: int, line: _Line) -> Any:
        cut = _comment_at(text)
        ended = cut < len(text)
        parts = [text[:cut].rstrip(" \t")]
        if _mapping_colon(parts[0]) >= 0:
            raise self.fail("': ' in a plain value", line)
        breaks = 0
        while not ended and self.at < len(self.lines):
            more = self.lines[self.at]
            if not more.text:
                breaks += 1
                self.at += 1
                continue
            body = more.text.lstrip("\t")
            if more.indent <= indent or body.startswith("#"):
                break
            cut = _comment_at(body)
            ended = cut < len(body)
            body = body[:cut].rstrip(" \t")
            if _mapping_colon(body) >= 0:
                raise self.fail("': ' in a plain value", more)
            parts.append("\n" * breaks if breaks else " ")
            parts.append(body)
            breaks = 0
            self.at += 1
        return resolve(parts[0]) if len(parts) == 1 else "".join(parts)

    def quoted_inline(self, text: str) -> tuple[str | None, str]:
        """A quoted scalar closed on this line, and the text after it (None: not closed)."""
        quote = text[0]
        at = 1
        while at < len(text):
            char = text[at]
            if quote == '"' and char == "\\":
                at += 2
                continue
            if char == quote:
                if quote == "'" and text[at + 1 : at + 2] == "'":
                    at += 2
                    continue
                return self.unquote(text[1:at], quote), text[at + 1 :].lstrip(" \t")
            at += 1
        return None, ""

    def unquote(self, inner: str, quote: str) -> str:
        if quote == "'":
            return inner.replace("''", "'")
        out, at = [], 0
        while at < len(inner):
            char = inner[at]
            if char != "\\":
                out.append(char)
                at += 1
                continue
            code = inner[at + 1 : at + 2]
            if code in _HEX_ESCAPES:
                digits = inner[at + 2 : at + 2 + _HEX_ESCAPES[code]]
                if len(digits) != _HEX_ESCAPES[code] or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                    raise self.fail(f"a bad escape \\{code}{digits}")
                out.append(chr(int(digits, 16)))
                at += 2 + len(digits)
            elif code in _ESCAPES:
                out.append(_ESCAPES[code])
                at += 2
            else:
                raise self.fail(f"an unknown escape \\{code}")
        return "".join(out)

    def quoted(self, text: str, line: _Line) -> str:
        pieces = [text]
        while True:
            joined = " ".join(pieces)
            value, rest = self.quoted_inline(joined)
            if value is not None:
                if rest and not rest.startswith("#"):
                    raise self.fail("text after a quoted value", line)
                return value
            if self.at >= len(self.lines) or len(pieces) > len(self.lines):
                raise self.fail("a quote never closed", line)
            pieces.append(self.lines[self.at].text.lstrip(" \t"))
            self.at += 1

    def flow(self, text: str, line: _Line) -> Any:
        pieces = [text]
        while True:
            joined = " ".join(pieces)
            try:
                value, end = _Flow(joined, self.fail).collection(0, 0)
            except _Unclosed:
                if self.at >= len(self.lines):
                    raise self.fail("a [ or { never closed", line) from None
                pieces.append(self.lines[self.at].text)
                self.at += 1
                continue
            rest = joined[end:].strip(" \t")
            if rest and not rest.startswith("#"):
                raise self.fail("text after a [ ] or { } value", line)
            return value

    def block_scalar(self, text: str, indent: int, line: _Line) -> str:
        header = text.split("#", 1)[0].strip(" \t")
        if not _BLOCK_HEADER.fullmatch(header) or (
            "#" in text and not text.split("#", 1)[0].endswith((" ", "\t"))
        ):
            raise self.fail(f"{text[:1]} not followed by a block", line)
        lines: list[str] = []
        content = -1
        while self.at < len(self.lines):
            more = self.lines[self.at]
            if more.text and (more.indent <= indent or (content >= 0 and more.indent < content)):
                break
            if more.text and content < 0:
                content = more.indent
            lines.append(" " * max(more.indent - content, 0) + more.text if more.text else "")
            self.at += 1
        while lines and not lines[-1]:
            lines.pop()
        joined = "\n".join(lines) if header[0] == "|" else _folded(lines)
        return joined if "-" in header else joined + "\n" if joined else ""


def _folded(lines: list[str]) -> str:
    """A folded block's lines: one line end becomes a space, each blank line a line end."""
    out: list[str] = []
    blank = 0
    for line in lines:
        if not line:
            blank += 1
            continue
        out.append("\n" * blank if blank or not out else " ")
        out.append(line)
        blank = 0
    return "".join(out)


class _Unclosed(Exception):
    """A flow collection that runs past the text given."""


class _Flow:
    """One flow collection (`[a, b]`, `{type: user}`), read from `text`."""

    def __init__(self, text: str, fail: Any) -> None:
        self.text, self.fail = text, fail

    def space(self, at: int) -> int:
        while at < len(self.text) and self.text[at] in " \t":
            at += 1
        if at >= len(self.text):
            raise _Unclosed
        return at

    def collection(self, at: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise self.fail("nested too deep")
        opening = self.text[at]
        closing = "]" if opening == "[" else "}"
        items: list[Any] = []
        pairs: dict[str, Any] = {}
        at = self.space(at + 1)
        while self.text[at] != closing:
            item, at = self.item(at, depth)
            at = self.space(at)
            if opening == "{":
                value = None
                if self.text[at] == ":":
                    value, at = self.item(self.space(at + 1), depth)
                    at = self.space(at)
                pairs[str(item)] = value
            else:
                items.append(item)
            if self.text[at] == ",":
                at = self.space(at + 1)
            elif self.text[at] != closing:
                raise self.fail(f"{self.text[at]!r} inside a [ ] or {{ }} value")
        return (items if opening == "[" else pairs), at + 1

    def item(self, at: int, depth: int) -> tuple[Any, int]:
        first = self.text[at]
        if first in "[{":
            return self.collection(at, depth + 1)
        if first in "'\"":
            return self.quoted(at)
        end = at
        while end < len(self.text):
            char = self.text[end]
            if char in ",[]{}" or (char == "#" and self.text[end - 1] in " \t"):
                break
            if char == ":" and self.text[end + 1 : end + 2] in ("", " ", "\t", ",", "]", "}"):
                break
            end += 1
        if end >= len(self.text):
            raise _Unclosed
        return resolve(self.text[at:end].strip(" \t")), end

    def quoted(self, at: int) -> tuple[str, int]:
        quote, end = self.text[at], at + 1
        while end < len(self.text):
            if quote == '"' and self.text[end] == "\\":
                end += 2
                continue
            if self.text[end] == quote:
                if quote == "'" and self.text[end + 1 : end + 2] == "'":
                    end += 2
                    continue
                inner = self.text[at + 1 : end]
                if quote == "'":
                    return inner.replace("''", "'"), end + 1
                return _Reader("").unquote(inner, '"'), end + 1
            end += 1
        raise _Unclosed
