"""The text helpers of docs/PASS.md ("Text helpers the rules use"): tokens, jaccard, normalize."""

from __future__ import annotations

import re
from collections.abc import Iterable

STOP_WORDS = frozenset("a an and are as at be by for from in is it of on or the to with".split())

# A token run: Unicode letters or digits, or / _ : -
_RUN = re.compile(r"[\w/:\-]+")
# The runs of two or more characters: the maximal runs, less the one-character ones.
_LONG_RUN = re.compile(r"[\w/:\-]{2,}")
_CJK = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002a6df\U0002a700-\U0002ebef"
    r"\U00030000-\U0003134f]+"
)
_INNER_SPACE = re.compile(r"[ \t]+")


def _split_cjk(run: str) -> Iterable[str]:
    """Split a run into pieces: CJK ideograph runs become overlapping bigrams."""
    pos = 0
    for match in _CJK.finditer(run):
        if match.start() > pos:
            yield run[pos : match.start()]
        ideographs = match.group()
        if len(ideographs) == 1:
            yield ideographs
        else:
            for i in range(len(ideographs) - 1):
                yield ideographs[i : i + 2]
        pos = match.end()
    if pos < len(run):
        yield run[pos:]


def tokens(text: str) -> list[str]:
    """Case-folded tokens in order of appearance (repeats kept)."""
    runs = _RUN.findall(text.casefold())
    if text.isascii() or not _CJK.search(text):
        return [run for run in runs if len(run) >= 2 and run not in STOP_WORDS]
    out: list[str] = []
    for run in runs:
        for piece in _split_cjk(run) if _CJK.search(run) else (run,):
            is_cjk_piece = bool(_CJK.fullmatch(piece))
            if (len(piece) >= 2 or is_cjk_piece) and piece not in STOP_WORDS:
                out.append(piece)
    return out


# ASCII text, upper case folded and every byte that is not a token character made a space: its
# runs are then the words of str.split, about twice as fast as the pattern.
_ASCII_RUNS = bytes(
    ord(c.lower()) if c.isascii() and (c.isalnum() or c in "/_:-") else ord(" ")
    for c in map(chr, range(256))
)
# The runs of ASCII text that are not tokens: stop words and single characters.
_NOT_TOKENS = STOP_WORDS | frozenset(map(chr, _ASCII_RUNS))


def unique_tokens(text: str) -> list[str]:
    """Distinct tokens in order of first appearance."""
    if text.isascii():
        runs = dict.fromkeys(text.encode("ascii").translate(_ASCII_RUNS).decode("ascii").split())
        return [run for run in runs if run not in _NOT_TOKENS]
    if not _CJK.search(text):
        runs = dict.fromkeys(_LONG_RUN.findall(text.casefold()))
        return [run for run in runs if run not in STOP_WORDS]
    return list(dict.fromkeys(tokens(text)))


def note_tokens(title: str, content: str) -> list[str]:
    return unique_tokens(f"{title} {content}")


def jaccard(a: Iterable[str], b: Iterable[str]) -> float:
    sa, sb = set(a), set(b)
    union = len(sa | sb)
    return len(sa & sb) / union if union else 0.0


def normalize(content: str) -> str:
    """Normalized content (docs/PASS.md): line endings, trailing and inner whitespace, repeated
    and blank lines."""
    if "\n" not in content and "\r" not in content:
        return _normalize_line(content)
    lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    seen: set[str] = set()
    kept: list[str] = []
    for raw in lines:
        line = raw.rstrip()
        body = line.lstrip(" \t")
        indent = line[: len(line) - len(body)]
        if not body:
            if kept and kept[-1] != "":
                kept.append("")
            continue
        if "  " in body or "\t" in body:
            body = _INNER_SPACE.sub(" ", body)
        if body in seen:
            continue
        seen.add(body)
        kept.append(indent + body)
    while kept and kept[-1] == "":
        kept.pop()
    return "\n".join(kept)


def _normalize_line(line: str) -> str:
    """normalize() of text without line breaks: one line, nothing to drop but blank space."""
    line = line.rstrip()
    body = line.lstrip(" \t")
    if "  " in body or "\t" in body:
        return line[: len(line) - len(body)] + _INNER_SPACE.sub(" ", body)
    return line
