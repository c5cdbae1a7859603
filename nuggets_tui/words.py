"""How the console and the command line write counts and paths, the one way both use: counts
with thousands separators and the noun agreeing ("1 note", "1,886 notes"), paths with ~."""

from __future__ import annotations

from pathlib import Path

from core.models import BlockedEntry, JournalEntry, PromotionBudget, PromotionEntry
from core.promotion.candidates import queue_reason


def counted(count: int, noun: str, plural: str = "") -> str:
    """`count` with its noun: counted(1, "note") is "1 note", counted(98_100, "note") is
    "98,100 notes"; `plural` for a noun that is not made plural with an s."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def every(count: int, noun: str, plural: str = "") -> str:
    """All of `count` things, as said in English: every(2, "note") is "both notes",
    every(9, "note") is "all 9 notes", every(1, "note") is "the 1 note"."""
    if count == 2:
        return f"both {plural or noun + 's'}"
    return f"{'the' if count == 1 else 'all'} {counted(count, noun, plural)}"


def shown_path(path: object) -> str:
    """A path as a person reads it: the home directory as ~."""
    text, home = str(path), str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        return "~" + text[len(home) :]
    return text


_UNITS = {
    "lines": ("line", ""),
    "bytes": ("byte", ""),
    "units": ("UTF-16 unit", ""),
    "tokens": ("token", ""),
}


def _amounts(amounts: dict[str, int]) -> str:
    return ", ".join(
        counted(value, *_UNITS.get(unit, (unit, unit))) for unit, value in amounts.items()
    )


def budget_words(budget: PromotionBudget) -> str:
    """One sentence for a person: what the agent reads of what promotion writes, and the room
    left or where it stops (raw words: the caller makes them inert)."""
    limits = " / ".join(
        counted(value, *_UNITS.get(unit, (unit, unit))) for unit, value in budget.limits.items()
    )
    if budget.loaded_lines is None and "tokens" in budget.limits:
        head = f"{budget.reader} injects at most {limits} of {budget.scope or 'these'}: about"
        if not budget.cut_by:
            return f"{head} {_amounts(budget.used)} used; room for {_amounts(budget.room)} more."
        return (
            f"{head} {_amounts(budget.used)} in all; {counted(len(budget.past), 'item')} "
            "left out of the prompt."
        )
    head = f"{budget.reader} reads the first {limits}"
    if not budget.cut_by:
        return f"{head}: {_amounts(budget.used)} used; room for {_amounts(budget.room)} more."
    past = (
        f"; {counted(len(budget.past), 'entry', 'entries')} past it, invisible to the agent"
        if budget.past
        else ""
    )
    return (
        f"{head}: it stops after line {budget.loaded_lines or 0:,} of "
        f"{budget.used.get('lines', 0):,} (cut by {budget.cut_by}){past}."
    )


def held_kinds(blocked: list[BlockedEntry]) -> set[str]:
    """What held these entries back: "instructions" (screening, no secret), "secrets" and
    "queue" (a note in an open group of the contradiction queue)."""
    kinds = {"queue"} if any(b.queued for b in blocked) else set()
    for entry in blocked:
        if not entry.queued or entry.reason != queue_reason(entry.queued):
            kinds.add("secrets" if entry.secret else "instructions")
    return kinds


def either(phrases: list[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    return " or ".join(filter(None, (", ".join(phrases[:-1]), *phrases[-1:])))


def alike_head(entries: list[PromotionEntry]) -> str:
    """How many entries say almost the same thing as another ("" when none): they are written
    all the same (core/promotion/alike.py)."""
    count = sum(bool(e.alike) for e in entries)
    if not count:
        return ""
    verb = "says" if count == 1 else "say"
    written = "it is" if count == 1 else "each is"
    return (
        f"{counted(count, 'entry', 'entries')} {verb} almost the same thing as another under a "
        f"different title; {written} written all the same"
    )


def alike_names(entry: PromotionEntry, file_name: str) -> str:
    """The entries this one says almost the same thing as: written with it (with the note) or
    already in the file."""
    return "; ".join(
        f"{a.title} ({a.note_id})" if a.note_id else f"{a.title} (already in {file_name})"
        for a in entry.alike
    )


def restored_words(entry: JournalEntry) -> str:
    """What an undo put back: a file as it was, the files of a batch (their runs taken back
    as one: the files are named in `after`, no note image before), or notes."""
    if entry.file_name is not None:
        return f"{entry.file_name.rsplit('/', 1)[-1]} as it was before it"
    if entry.batch is not None and not entry.before and entry.after:
        names = [name.rsplit("/", 1)[-1] for name in entry.after]
        return f"{counted(len(names), 'file')} as they were before it ({', '.join(names)})"
    return counted(len(entry.after), "note")
