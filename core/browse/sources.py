"""Where a note came from, opened at its lines (docs/STORES.md, "A note's sources"): a store whose
system records it gives its notes `sources`, a list of `{"file": <path inside the memory's
directory>, "lines": [first, last]}`; the console's files screen opens each at those lines,
read-only. A file missing, outside the directory, or shorter than the lines is one clear line.

API:
- `note_sources(note, home) -> list[SourceSpan]` (pure)
- `read_span(span, context=3) -> SpanText` (reads the file, never writes)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.models import RawNote
from core.safeio.shown_text import read_shown

CONTEXT = 3  # lines shown either side of a span


@dataclass(frozen=True)
class SourceSpan:
    name: str  # the file as the note names it
    path: Path
    first: int | None  # 1-based, inclusive; None: the whole file
    last: int | None

    @property
    def label(self) -> str:
        if self.first is None:
            return self.name
        return f"{self.name}:{self.first}" + (f"-{self.last}" if self.last != self.first else "")


@dataclass(frozen=True)
class SpanText:
    span: SourceSpan
    lines: list[tuple[int, str, bool]] = field(default_factory=list)  # number, text, in span
    total: int = 0  # the file's lines
    problem: str | None = None  # why it cannot be shown, one line


def _line_numbers(value: object) -> tuple[int | None, int | None]:
    if not isinstance(value, list) or not value:
        return None, None
    numbers = [n for n in value if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    if len(numbers) != len(value):
        return None, None
    return min(numbers), max(numbers)


def note_sources(note: RawNote, home: Path) -> list[SourceSpan]:
    """The note's sources, each a file under `home` with its lines."""
    found = []
    for source in note.get("sources") or []:
        if not isinstance(source, dict) or not isinstance(source.get("file"), str):
            continue
        name = source["file"]
        first, last = _line_numbers(source.get("lines"))
        found.append(SourceSpan(name, home / name, first, last))
    return found


def _outside(path: Path, home: Path) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(home)
    return os.path.commonpath([real, root]) != root


def read_span(span: SourceSpan, home: Path, context: int = CONTEXT) -> SpanText:
    """The span's lines with a few either side; or why not, in one line."""
    if Path(span.name).is_absolute() or _outside(span.path, home):
        return SpanText(span, problem=f"{span.name} is outside the memory's directory: not opened")
    shown = read_shown(span.path)
    if shown.text is None:
        return SpanText(
            span,
            problem=f"{span.name}: {shown.problem} (the file is gone or "
            "moved since the note was made)",
        )
    lines = shown.text.splitlines()
    if span.first is None or span.last is None:
        return SpanText(span, [(n, t, False) for n, t in enumerate(lines, start=1)], len(lines))
    if span.last > len(lines):
        return SpanText(
            span,
            total=len(lines),
            problem=f"{span.name} has {len(lines)} lines, not line {span.last}: "
            "the file changed since the note was made",
        )
    start, end = max(1, span.first - context), min(len(lines), span.last + context)
    return SpanText(
        span,
        [(n, lines[n - 1], span.first <= n <= span.last) for n in range(start, end + 1)],
        len(lines),
    )
