"""What Claude Code loads of a MEMORY.md in its memory folder, measured as Claude Code measures it
(docs/CLAUDE_CODE.md, "The index"): pure, shared by the Claude Code store and by promotion.

In order: a YAML frontmatter at the very start is dropped (an opening `---` line, up to the first
`---` after it, wherever that is); then each top-level block HTML comment (a Markdown block that
begins with `<!--`, with no GFM: not a comment inside a line, a list item, a quote or code); then
the text is trimmed. What remains is measured: lines counted on newlines, length in UTF-16 code
units (what a JavaScript string's length counts: an em dash is 1, a CJK character 1, an emoji 2).
Over 200 lines, the first 200 stay; then, only when the whole text is over 25,000 units and what
stays still is, it is cut at the last newline at or before unit 25,000 (mid-line at 25,000 when
there is none). Nothing is cut at 25,000 units or fewer. The model then reads a warning naming
the cut, whose text `warning` gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LINES = 200
MAX_UNITS = 25_000
PREVIEW = 80  # characters of the first line cut that the warning quotes

# JavaScript's whitespace (what `trim()` and `\s` take): not Python's, which also takes U+001C-
# U+001F and NEL, and not U+FEFF.
_JS_SPACE = "".join(
    [
        "\t\n\x0b\x0c\r \xa0\u1680",
        *map(chr, range(0x2000, 0x200B)),
        "\u2028\u2029\u202f\u205f\u3000\ufeff",
    ]
)
_SPACE_CLASS = f"[{re.escape(_JS_SPACE)}]"
_FRONTMATTER = re.compile(rf"---{_SPACE_CLASS}*\n[\s\S]*?---{_SPACE_CLASS}*\n?")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HEADING_OR_RULE = re.compile(r" {0,3}(#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\2){2,}[ \t]*$)")
_QUOTE = re.compile(r" {0,3}>")
_ITEM = re.compile(r" {0,3}(?:[*+-]|\d{1,9}[.)])(?:([ \t]{1,4})(?=\S)|[ \t]*$)")
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|"
    "header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|"
    "option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
_HTML_UNTIL_BLANK = re.compile(
    rf" {{0,3}}(?:</?(?:{_BLOCK_TAGS})(?:[ \t/>]|$)|<(?:script|pre|style|textarea)[\s>]|<\?|<![A-Z]"
    r"|<!\[CDATA\[)",
    re.IGNORECASE,
)
_HTML_ALONE = re.compile(r" {0,3}(?:<[A-Za-z][\w-]*(?:\s[^<>]*)?/?>|</[A-Za-z][\w-]*\s*>)[ \t]*$")
_COMMENT_START = re.compile(r" {0,3}<!--")


def units(text: str) -> int:
    """The text's length in UTF-16 code units."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _index_at_units(text: str, wanted: int) -> int:
    """The index into `text` of its first `wanted` UTF-16 units (never half a pair)."""
    count = 0
    for at, char in enumerate(text):
        count += 2 if ord(char) > 0xFFFF else 1
        if count > wanted:
            return at
    return len(text)


def without_frontmatter(text: str) -> tuple[str, int]:
    """The text after its frontmatter, and where that starts in `text` (0: none, the text as
    it is, a BOM included)."""
    bom = 1 if text.startswith("\ufeff") else 0
    match = _FRONTMATTER.match(text, bom)
    if text.find("---", bom + 3) < 0 or match is None:
        return text, 0
    return text[match.end() :], match.end()


@dataclass(frozen=True)
class _Piece:
    text: str
    at: int  # where it starts in the text given


def _starts_block(line: str) -> bool:
    """A line that ends a paragraph or a list item it is not indented into."""
    return bool(
        _FENCE.match(line)
        or _HEADING_OR_RULE.match(line)
        or _QUOTE.match(line)
        or _COMMENT_START.match(line)
        or _HTML_UNTIL_BLANK.match(line)
    )


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _comment_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """The top-level blocks that begin with `<!--` and hold a `-->`, as (first line, line after),
    found as a Markdown lexer without GFM finds blocks."""
    found: list[tuple[int, int]] = []
    number, state, item_indent, blank = 0, "", 0, True
    while number < len(lines):
        line = lines[number]
        if not line.strip():
            state = "" if state == "paragraph" else state
            number, blank = number + 1, True
            continue
        if state == "item":
            lazy = not blank and not _starts_block(line) and not _ITEM.match(line)
            if _indent(line) >= item_indent or lazy:
                number, blank = number + 1, False
                continue
            state = ""  # the list ends, or a new item begins (below)
        number, state, item_indent = _block(lines, number, state, item_indent, found)
        blank = False
    return found


def _block(
    lines: list[str], number: int, state: str, item_indent: int, found: list[tuple[int, int]]
) -> tuple[int, str, int]:
    """The top-level block starting at line `number` (or the paragraph it continues): the line
    after it, the state after it, a list item's indent."""
    line = lines[number]
    fence = _FENCE.match(line)
    if fence:
        close = re.compile(rf" {{0,3}}{fence[1][0]}{{{len(fence[1])},}}[ \t]*$")
        after = (n for n in range(number + 1, len(lines)) if close.match(lines[n]))
        return next(after, len(lines)) + 1, "", 0
    if _indent(line) >= 4:  # indented code, or a paragraph's continuation
        return number + 1, state, 0
    if _COMMENT_START.match(line):
        end = _comment_end(lines, number)
        if end is None:
            return len(lines), "", 0  # never closed: the rest is the block, left as it is
        while end < len(lines) and lines[end] == "":
            end += 1
        found.append((number, end))
        return end, "", 0
    if _HTML_UNTIL_BLANK.match(line) or (state != "paragraph" and _HTML_ALONE.match(line)):
        while number < len(lines) and lines[number].strip():
            number += 1
        return number, "", 0
    if _QUOTE.match(line):
        number += 1
        while number < len(lines) and lines[number].strip() and not _outside_quote(lines[number]):
            number += 1
        return number, "", 0
    item = _ITEM.match(line)
    if item:
        return number + 1, "item", item.end() if item[1] else len(line.rstrip()) + 1
    if _HEADING_OR_RULE.match(line):
        return number + 1, "", 0
    return number + 1, "paragraph", 0


def _outside_quote(line: str) -> bool:
    """A line that ends a quote: not quoted and not a lazy line of its paragraph."""
    return not _QUOTE.match(line) and _starts_block(line)


def _comment_end(lines: list[str], first: int) -> int | None:
    """The line after the one that closes the comment opened on line `first`."""
    opened = lines[first].index("<!--") + 4
    rest = lines[first][opened:]
    if rest.startswith((">", "->")) or "-->" in rest:
        return first + 1
    return next((n + 1 for n in range(first + 1, len(lines)) if "-->" in lines[n]), None)


def without_comment_blocks(text: str) -> tuple[list[_Piece], bool]:
    """The text without its top-level block HTML comments (what is left on a comment's lines is
    kept when not blank), as pieces of the text; and whether anything was removed (only then
    are CR LF and CR line ends read as newlines)."""
    if "<!--" not in text:
        return [_Piece(text, 0)], False
    normal, origin = _newlines(text)
    lines = normal.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    pieces, at = [], 0
    for first, after in _comment_blocks(lines):
        start, end = starts[first], min(starts[after], len(normal))
        left = _COMMENT.sub("", normal[start:end])
        pieces.append(_Piece(normal[at:start], origin[at]))
        if left.strip(_JS_SPACE):
            pieces.append(_Piece(left, origin[start]))
        at = end
    if at == 0:
        return [_Piece(text, 0)], False
    pieces.append(_Piece(normal[at:], origin[at]))
    return pieces, True


def _newlines(text: str) -> tuple[str, list[int]]:
    """The text with CR LF and CR as LF, and where each of its characters was in `text`."""
    out, origin, at = [], [], 0
    while at < len(text):
        char = text[at]
        origin.append(at)
        if char == "\r":
            out.append("\n")
            at += 2 if text.startswith("\r\n", at) else 1
        else:
            out.append(char)
            at += 1
    origin.append(len(text))
    return "".join(out), origin


@dataclass(frozen=True)
class Load:
    """What Claude Code measures and loads of a MEMORY.md."""

    measured: str  # the text measured: frontmatter and comment blocks out, trimmed
    lines: int  # its lines (newlines + 1)
    units: int  # its length in UTF-16 units
    shown: str  # what reaches the model (before the warning and the hidden-character strip)
    shown_lines: int
    cut_from: int | None  # where the part not loaded starts in the file's text (None: all loads)
    warning: str  # what the model reads after it ("" when nothing is cut)

    @property
    def over(self) -> bool:
        return self.cut_from is not None

    @property
    def hidden_lines(self) -> int:
        """Lines of the measured text the model does not see whole."""
        return self.lines - self.shown_lines if self.over else 0


def load(text: str) -> Load:
    """What Claude Code loads of `text` (a MEMORY.md, decoded)."""
    body, body_at = without_frontmatter(text)
    pieces, _ = without_comment_blocks(body)
    joined = "".join(p.text for p in pieces)
    measured = joined.strip(_JS_SPACE)
    lead = len(joined) - len(joined.lstrip(_JS_SPACE))
    lines, size = measured.count("\n") + 1, units(measured)
    if lines <= MAX_LINES and size <= MAX_UNITS:
        return Load(measured, lines, size, measured, lines, None, "")
    kept = "\n".join(measured.split("\n")[:MAX_LINES]) if lines > MAX_LINES else measured
    if units(kept) > MAX_UNITS:
        limit = _index_at_units(kept, MAX_UNITS)
        newline = kept.rfind("\n", 0, limit + 1)
        kept = kept[: newline if newline > 0 else limit]
    dropped = len(kept) + (1 if measured[len(kept) : len(kept) + 1] == "\n" else 0)
    where = _origin(pieces, lead + dropped) + body_at
    warning = _warning(measured, kept, lines, size)
    return Load(measured, lines, size, kept, kept.count("\n") + 1, where, warning)


def _origin(pieces: list[_Piece], index: int) -> int:
    """Where the joined pieces' character `index` was in the text the pieces came from."""
    for piece in pieces:
        if index < len(piece.text):
            return piece.at + index
        index -= len(piece.text)
    return pieces[-1].at + len(pieces[-1].text) if pieces else 0


def kilobytes(size: int) -> str:
    """A size as Claude Code prints it (UTF-16 units it calls bytes): `24.4KB`."""
    for unit, scale in (("KB", 1024), ("MB", 1024**2), ("GB", 1024**3)):
        if size / scale < 1024 or unit == "GB":
            if size < 1024:
                return f"{size} bytes"
            return f"{size / scale:.1f}".removesuffix(".0") + unit
    return f"{size} bytes"


def _preview(line: str) -> str:
    if len(line) <= PREVIEW:
        return line
    head = line[: PREVIEW - 1]
    space = re.search(r"\s\S*$", head)
    word = head[: space.start()].rstrip() if space else ""
    return (word if len(word) > PREVIEW / 2 else head.rstrip()) + "\u2026"


def _warning(measured: str, kept: str, lines: int, size: int) -> str:
    over_lines, over_units = lines > MAX_LINES, size > MAX_UNITS
    whole_lines = kept.count("\n") + 1 if measured[len(kept) : len(kept) + 1] == "\n" else 0
    if whole_lines == 0:
        what = f"everything after the first {units(kept)} characters of line 1 was cut off"
    else:
        rest = measured[len(kept) + 1 :]
        first = rest.split("\n", 1)[0].strip(_JS_SPACE)
        quoted = f' ("{_preview(first)}")' if first else ""
        what = (
            f"{lines - whole_lines} of {lines} lines were cut off, starting at line "
            f"{whole_lines + 1}{quoted}"
        )
    if over_units and not over_lines:
        size_text = (
            f"{kilobytes(size)} (limit: {kilobytes(MAX_UNITS)}) \u2014 index entries are too long"
        )
    elif over_lines and not over_units:
        size_text = f"{lines} lines (limit: {MAX_LINES})"
    else:
        size_text = f"{lines} lines and {kilobytes(size)}"
    return (
        f"MEMORY.md is {size_text}. Only part of it was loaded: {what}. Keep index entries to "
        "one line under ~200 chars; move detail into topic files."
    )
