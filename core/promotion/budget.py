"""What an agent reads of what promotion writes (docs/PROMOTION.md, "The agent's budget"): pure.

Three kinds of budget, each reusable by any store:

- Claude Code's MEMORY.md, measured as Claude Code measures it (core/promotion/claude_load.py:
  frontmatter and block comments out, trimmed; 200 lines, 25,000 UTF-16 units):
  `claude_code_budget(text, entries)`;
- a plain *file* budget: the agent loads the first `lines` lines of the file or its first `size`
  bytes, cut at the last line end within them, whichever is fewer; `loaded(text, limit)` says
  where that falls, `file_budget(text, entries, limit)` which entries land past it and the room
  left;
- a *token* budget: the agent injects items while their estimated tokens fit (MicroClaw's
  structured memories: 1,500 tokens, each row `len(content in UTF-8 bytes) // 4 + 10`);
  `token_budget(items, limit)` adds them up in the order given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.models import PromotionBudget, PromotionEntry
from core.promotion import claude_load


@dataclass(frozen=True)
class FileLimit:
    reader: str  # who loads the file, for a person
    lines: int
    size: int  # bytes


@dataclass(frozen=True)
class TokenLimit:
    reader: str  # who injects the items, for a person
    tokens: int
    per_item: int  # tokens added to each item's estimate
    bytes_per_token: int


CLAUDE_CODE_MEMORY_MD = FileLimit("Claude Code", 200, 25_000)


@dataclass(frozen=True)
class Loaded:
    lines: int  # the file's lines
    size: int  # its bytes
    loaded_lines: int  # how many of its lines reach the agent
    cut_by: str  # "" (all of it loads), "lines" or "bytes"

    @property
    def over(self) -> bool:
        return self.loaded_lines < self.lines


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    return parts[:-1] if text.endswith("\n") else parts


def loaded(text: str, limit: FileLimit) -> Loaded:
    """Where the budget falls: the first `limit.lines` lines or `limit.size` bytes (cut at the
    last line end within them), whichever is fewer."""
    lines = [] if not text else _lines(text)
    sizes = [len(line.encode("utf-8", "surrogatepass")) for line in lines]
    return loaded_sizes(sizes, len(text.encode("utf-8", "surrogatepass")), limit)


def loaded_sizes(sizes: Sequence[int], total: int, limit: FileLimit) -> Loaded:
    """`loaded` from the byte sizes of a file's lines (without their line ends) and its own
    size: for a file read as bytes."""
    size, kept, cut = 0, 0, ""
    for line in sizes:
        size += line + 1
        if kept == limit.lines:
            cut = "lines"
            break
        if size > limit.size:
            cut = "bytes"
            break
        kept += 1
    return Loaded(len(sizes), total, kept, cut)


def entry_lines(text: str, entries: Iterable[PromotionEntry]) -> dict[str, tuple[int, int]]:
    """Note id -> the first and last line (1-based) of its entry in `text`, found under its
    section's heading."""
    wanted: dict[tuple[str, str], PromotionEntry] = {}
    for each in entries:
        wanted.setdefault((each.section, each.text.split("\n", 1)[0]), each)
    found: dict[str, tuple[int, int]] = {}
    lines = _lines(text)
    section = ""
    for number, line in enumerate(lines, start=1):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        entry = wanted.get((section, line))
        if entry is not None and entry.note_id not in found:
            found[entry.note_id] = (number, number + entry.text.count("\n"))
    return found


def file_budget(text: str, entries: Sequence[PromotionEntry], limit: FileLimit) -> PromotionBudget:
    """The budget of the file we would write (`text`): what loads, the room left, and the
    entries that land past it (wholly or in part), in the file's order."""
    fit = loaded(text, limit)
    where = entry_lines(text, entries)
    past = sorted(
        (span[0], note_id) for note_id, span in where.items() if span[1] > fit.loaded_lines
    )
    loaded_bytes = sum(
        len(line.encode("utf-8", "surrogatepass")) + 1 for line in _lines(text)[: fit.loaded_lines]
    )
    return PromotionBudget(
        reader=limit.reader,
        limits={"lines": limit.lines, "bytes": limit.size},
        used={"lines": fit.lines, "bytes": fit.size},
        room={
            "lines": max(0, limit.lines - fit.loaded_lines) if not fit.cut_by else 0,
            "bytes": max(0, limit.size - loaded_bytes) if not fit.cut_by else 0,
        },
        loaded_lines=fit.loaded_lines if fit.cut_by else None,
        cut_by=fit.cut_by,
        past=[note_id for _, note_id in past],
    )


def claude_code_budget(text: str, entries: Sequence[PromotionEntry]) -> PromotionBudget:
    """The budget of a MEMORY.md in a Claude Code memory folder as Claude Code measures it
    (core/promotion/claude_load.py: frontmatter and block comments out, trimmed, lines and
    UTF-16 units): what loads, the room left, the entries past the cut in the file's order."""
    fit = claude_load.load(text)
    hidden_from = None if fit.cut_from is None else text.count("\n", 0, fit.cut_from) + 1
    where = entry_lines(text, entries)
    past = sorted(
        (span[0], note_id)
        for note_id, span in where.items()
        if hidden_from is not None and span[1] >= hidden_from
    )
    lines, units = claude_load.MAX_LINES, claude_load.MAX_UNITS
    by_lines = fit.lines > lines and fit.shown_lines == lines
    return PromotionBudget(
        reader=CLAUDE_CODE_MEMORY_MD.reader,
        limits={"lines": lines, "units": units},
        used={"lines": fit.lines, "units": fit.units},
        room={
            "lines": 0 if fit.over else lines - fit.lines,
            "units": 0 if fit.over else units - fit.units,
        },
        loaded_lines=None if hidden_from is None else hidden_from - 1,
        cut_by="" if not fit.over else "lines" if by_lines else "units",
        past=[note_id for _, note_id in past],
    )


def estimate_tokens(text: str, limit: TokenLimit) -> int:
    """One item's tokens as the agent estimates them: its UTF-8 bytes over `bytes_per_token`,
    rounded down, plus `per_item`."""
    return len(text.encode("utf-8", "surrogatepass")) // limit.bytes_per_token + limit.per_item


def token_budget(
    items: Sequence[tuple[str, str]], limit: TokenLimit, scope: str = ""
) -> PromotionBudget:
    """Items (id, text) injected in the order given until the first that does not fit: the
    tokens they would take in all, the room left, and the items left out."""
    used, total, past = 0, 0, list[str]()
    for item_id, text in items:
        cost = estimate_tokens(text, limit)
        total += cost
        if past or used + cost > limit.tokens:  # the first that does not fit ends it
            past.append(item_id)
        else:
            used += cost
    return PromotionBudget(
        reader=limit.reader,
        scope=scope,
        limits={"tokens": limit.tokens},
        used={"tokens": total},
        room={"tokens": max(0, limit.tokens - used)},
        cut_by="tokens" if past else "",
        past=past,
    )
