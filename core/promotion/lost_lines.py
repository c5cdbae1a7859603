"""What MEMORY.md lost since our newest run on it (docs/PROMOTION.md, "Entries the agent cut"):
the agent's promotion rewrites the whole file, keeps only the first line of the entries it does
not write itself and drops every line that is not an entry. Deciding only: the texts are given.

An entry is read here as its first line and every non-blank line under it up to the next entry
or heading (a note's paragraphs after a blank line included); an entry about to be written, or
written by the run that left `last`, that the text holds exactly so ends where its lines do, so
a line written by hand after it is not the entry's. The line under the title, in the spelling
of earlier versions of ours ("nuggets graph notes"), reads as the agent's ("nugget graph
notes").

An entry counts as having lost lines when what the file holds of it now is some of its lines
and not all (an entry rewritten with other lines was updated, not cut), or when it is gone."""

from __future__ import annotations

from collections import Counter

from core.promotion.memory_md import (
    HEADER_LINE,
    OUR_OLD_HEADER_LINE,
    Expected,
    bare,
    reads_as_entry_or_heading,
    section_name,
    spelled,
    titles_of,
)

SHOWN = 5  # entries named in one message; the others are counted


def _whole(lines: list[str], at: int, section: str | None, *given: Expected) -> int:
    """How many lines from `at` on are an entry of `section` in `given` written whole (0:
    none); an entry of one line too."""
    if section is None:
        return 0
    for entries in given:
        if any(entries.get((section, title)) == [lines[at]] for title in titles_of(lines[at])):
            return 1
        if whole := spelled(lines, at, section, entries):
            return whole
    return 0


def _other(line: str) -> str:
    return HEADER_LINE if line == OUR_OLD_HEADER_LINE else line


def _blocks(text: str, *expected: Expected) -> tuple[dict[tuple[str, str], list[str]], list[str]]:
    """The entries' lines by section and title, and the other non-blank lines. An `expected`
    entry the text spells whole is read whole, whatever its lines look like."""
    entries: dict[tuple[str, str], list[str]] = {}
    other: list[str] = []
    section: str | None = None
    current: list[str] | None = None
    lines = [bare(raw) for raw in text.split("\n")]
    at = 0
    while at < len(lines):
        line, whole = lines[at], _whole(lines, at, section, *expected)
        at += max(whole, 1)
        if whole:  # it ends where its lines do: what follows is not the note's
            entries.setdefault((section or "", titles_of(line)[0]), []).extend(
                kept for kept in lines[at - whole : at] if kept.strip()
            )
            current = None
            continue
        heading = section_name(line)
        if heading is not None:
            section, current = heading, None
        elif section is not None and line.startswith("- **") and titles_of(line):
            current = entries.setdefault((section, titles_of(line)[0]), [])
            current.append(line)
        elif reads_as_entry_or_heading(line):
            current = None
            other.append(line)
        elif line.strip():
            (current if current is not None else other).append(_other(line))
    return entries, other


def _lost(was: list[str], now: list[str] | None) -> int:
    if now is None:
        return len(was)
    missing = sum((Counter(was) - Counter(now)).values())
    return missing if missing and not Counter(now) - Counter(was) else 0


def lost_lines(
    last: str, now: str, expected: Expected | None = None, known: Expected | None = None
) -> list[str]:
    """One phrase per entry of `last` that lost lines in `now` (at most SHOWN, then how many
    more), and one for the other lines gone. `expected`: the entries about to be written, and
    `known`: those the run that wrote `last` wrote, read whole where a text spells them (see
    core/promotion/memory_md.py)."""
    was_entries, was_other = _blocks(last, known or {}, expected or {})
    now_entries, now_other = _blocks(now, expected or {}, known or {})
    found = []
    for (section, title), lines in was_entries.items():
        held = now_entries.get((section, title))
        count = _lost(lines, held)
        if count and held is None:
            found.append(f"“{title}” ({section}) is gone")
        elif count:
            found.append(f"“{title}” ({section}) lost {count} of its {len(lines)} lines")
    if len(found) > SHOWN:
        found[SHOWN:] = [f"and {len(found) - SHOWN} more entries"]
    other = sum((Counter(was_other) - Counter(now_other)).values())
    if other:
        found.append(
            f"{other} other line{'s' if other > 1 else ''} (not an entry) "
            f"{'are' if other > 1 else 'is'} gone"
        )
    return found
