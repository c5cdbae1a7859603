"""What MEMORY.md lost since our newest run on it (docs/PROMOTION.md, "Entries the agent cut"):
the agent's promotion rewrites the whole file, keeps only the first line of the entries it does
not write itself and drops every line that is not an entry. Deciding only: the texts are given.

An entry is read here as its first line and every non-blank line under it up to the next entry
or heading (a note's paragraphs after a blank line included). An entry counts as having lost
lines when what the file holds of it now is some of its lines and not all (an entry rewritten
with other lines was updated, not cut), or when it is gone."""

from __future__ import annotations

from collections import Counter

from core.promotion.memory_md import (
    Expected,
    bare,
    reads_as_entry_or_heading,
    section_name,
    spelled,
    titles_of,
)

SHOWN = 5  # entries named in one message; the others are counted


def _blocks(text: str, expected: Expected) -> tuple[dict[tuple[str, str], list[str]],
                                                     list[str]]:
    """The entries' lines by section and title, and the other non-blank lines. An `expected`
    entry the text spells whole is read whole, whatever its lines look like."""
    entries: dict[tuple[str, str], list[str]] = {}
    other: list[str] = []
    section: str | None = None
    current: list[str] | None = None
    lines = [bare(raw) for raw in text.split("\n")]
    at = 0
    while at < len(lines):
        line, whole = lines[at], spelled(lines, at, section, expected) if section else 0
        at += max(whole, 1)
        if whole:
            current = entries.setdefault((section or "", titles_of(line)[0]), [])
            current.extend(kept for kept in lines[at - whole:at] if kept.strip())
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
            (current if current is not None else other).append(line)
    return entries, other


def _lost(was: list[str], now: list[str] | None) -> int:
    if now is None:
        return len(was)
    missing = sum((Counter(was) - Counter(now)).values())
    return missing if missing and not Counter(now) - Counter(was) else 0


def lost_lines(last: str, now: str, expected: Expected | None = None) -> list[str]:
    """One phrase per entry of `last` that lost lines in `now` (at most SHOWN, then how many
    more), and one for the other lines gone. `expected`: the entries about to be written, read
    whole where a text spells them (see core/promotion/memory_md.py)."""
    was_entries, was_other = _blocks(last, expected or {})
    now_entries, now_other = _blocks(now, expected or {})
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
        found.append(f"{other} other line{'s' if other > 1 else ''} (not an entry) "
                     f"{'are' if other > 1 else 'is'} gone")
    return found
