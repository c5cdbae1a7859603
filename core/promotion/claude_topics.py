"""Promotion in Claude Code's own form (docs/CLAUDE_CODE.md, "Promotion into this directory"):
one topic file per promoted fact beside MEMORY.md, with the frontmatter Claude Code 2.1.332's
template gives its model (`name`, `description`, `metadata:` / `  type:`), and one index line
in MEMORY.md, `- [Title](file.md) — hook`, within the 150 UTF-16 units Claude Code keeps its own
lines to. A fact's file name is made from its section and title (a short hash of both keeps it
unique), so promoting the same fact again finds the same file and line. A file at that name
that is not as our last write left it (the agent's, or edited since), a link or no regular file
is never written. Pure: what the folder holds is read by the store and given here."""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from core.models import (
    PromotedFile,
    PromotionAction,
    PromotionBudget,
    PromotionEntry,
    PromotionPlan,
    RawNote,
)
from core.notes.snapshot import EMPTY_FINGERPRINT, fingerprint
from core.promotion import claude_load
from core.promotion.budget import claude_code_budget
from core.promotion.candidates import (
    Sifted,
    candidates,
    content_lines,
    entry_title,
    expected_entries,
    qualifies,
    section_name_of,
    sift,
)
from core.promotion.memory_md import split_lines

ENTRIES = "entries"
TOPIC_FILES = "topic-files"
HOOK_UNITS = 150  # Claude Code's own index lines stay within 150 UTF-16 units
# The type Claude Code reads for a fact of each section (its four: user, feedback, project,
# reference): who the user is, how they want the work done, and the rest is the project's.
_TYPES = {"user": "user", "preferences": "feedback", "assistant-self": "feedback"}
_SLUG = re.compile(r"[^a-z0-9]+")
_LINK_LINE = re.compile(r"\]\(([^()\n]+?\.md)\)", re.IGNORECASE)  # as Claude Code counts a link
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;()/_+=?'-]*")
_YAML_WORDS = ("true", "false", "null")
_BREAKERS = str.maketrans("", "", "[]()")  # what would break the index line's link


@dataclass(frozen=True)
class Held:
    """What the folder holds where a fact's topic file goes."""

    text: str | None  # None: no file there
    ours: bool  # no file, or the file exactly as our last write left it
    refusal: str | None = None  # why it may not be written at all (a link, not a regular file)

    @property
    def fingerprint(self) -> str:
        return EMPTY_FINGERPRINT if self.text is None else fingerprint(self.text.encode())


def memory_type(section: str) -> str:
    return _TYPES.get(section, "project")


def slug(title: str) -> str:
    return _SLUG.sub("-", title.lower()).strip("-")[:40].strip("-") or "fact"


def topic_name(section: str, title: str) -> str:
    """`<type>_<slug>-<8 hex>.md`: safe on every system, the same for the same fact."""
    digest = hashlib.sha256(f"{section}\n{title}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{memory_type(section)}_{slug(title)}-{digest[:8]}.md"


def shortened(text: str, limit: int) -> str:
    """Text cut to `limit` UTF-16 units as Claude Code cuts a hook: kept when it fits, else cut
    to one unit less (never inside a character), back to the last word when that keeps more
    than half, and `…` added."""
    units = claude_load.units
    if units(text) <= limit:
        return text
    cut, used = [], 0
    for char in text:
        used += units(char)
        if used > limit - 1:
            break
        cut.append(char)
    head = "".join(cut)
    word = re.search(r"\s\S*$", head)
    shorter = head[: word.start()].rstrip() if word else ""
    return (shorter if units(shorter) > limit / 2 else head.rstrip()) + "\u2026"


def _scalar(value: str) -> str:
    """A YAML value Claude Code reads back as the same text: plain when it can be, else
    double-quoted."""
    if _PLAIN.fullmatch(value) and not value.endswith(" ") and value not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def description(note: RawNote) -> str:
    """The fact on one line (what Claude Code's recall chooses files by), without a `---`,
    which would end the frontmatter for Claude Code wherever it stands."""
    text = " ".join(" ".join(content_lines(note)).split())
    return shortened(re.sub(r"-{3,}", "\u2014", text), HOOK_UNITS)


def topic_text(section: str, title: str, note: RawNote) -> str:
    return (
        f"---\nname: {slug(title)}\ndescription: {_scalar(description(note))}\n"
        f"metadata:\n  type: {memory_type(section)}\n---\n\n"
        + "\n".join(content_lines(note)).strip("\n")
        + "\n"
    )


def linked_line(label: str, name: str, hook: str) -> str:
    """`- [label](file.md) — hook`, the hook on one line and cut so the whole line stays
    within 150 UTF-16 units (none when there is no room), as Claude Code's index builder
    writes one."""
    line = f"- [{label}]({name})"
    hook = " ".join(hook.split())
    room = HOOK_UNITS - claude_load.units(line) - 3
    return line if not hook or room <= 1 else f"{line} \u2014 {shortened(hook, room)}"


def index_line(title: str, name: str, hook: str) -> str:
    """The index line of a fact's topic file: its title (nothing in it breaking the link)."""
    label = title.translate(_BREAKERS).strip() or name.removesuffix(".md")
    return linked_line(label, name, hook.translate(_BREAKERS))


def _listed(text: str) -> set[str]:
    """The files MEMORY.md lists, as Claude Code compares them (any case)."""
    return {match.lower() for match in _LINK_LINE.findall(text)}


def topic_names(notes: list[RawNote], threshold: int) -> list[str]:
    """The file names the candidates would take (for the store to read first)."""
    chosen = candidates(notes, threshold)
    return [topic_name(section_name_of(n), entry_title(n)) for n, _ in chosen]


@dataclass
class _Planned:
    entries: list[PromotionEntry]
    dropped: list[PromotionEntry]
    files: list[PromotedFile]
    lines: list[tuple[str, str]]  # note id, index line to add
    notices: list[str]


def _plan_one(item: Sifted, folder: Path, held: Held, listed: set[str], out: _Planned) -> None:
    name = topic_name(item.section, item.title)
    path = folder / name
    text = topic_text(item.section, item.title, item.note)
    if item.left_out:
        out.dropped.append(item.entry("drop", text))
        return
    if held.refusal or (held.text is not None and held.text != text and not held.ours):
        why = held.refusal or "a file our promotion did not write, or changed since"
        out.notices.append(f"{path}: {why}; left as it is, {item.title!r} not promoted")
        return
    action: PromotionAction = (
        "same" if held.text == text else "add" if held.text is None else "update"
    )
    out.entries.append(item.entry(action, text))
    if action != "same":
        out.files.append(
            PromotedFile(
                path=str(path),
                note_id=item.note["id"],
                before_text=held.text,
                after_text=text,
                base_fingerprint=held.fingerprint,
            )
        )
    if name.lower() not in listed:
        out.lines.append((item.note["id"], index_line(item.title, name, description(item.note))))


def _diff(path: str, before: str | None, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            split_lines(before or ""),
            split_lines(after),
            fromfile=f"{path} (now)" if before is not None else "/dev/null",
            tofile=f"{path} (promoted)",
        )
    )


def _with_lines(before: str, lines: list[str]) -> str:
    if not lines:
        return before
    ending = "" if not before or before.endswith("\n") else "\n"
    return before + ending + "".join(line + "\n" for line in lines)


def plan_topic_files(
    notes: list[RawNote],
    path: Path,
    before_text: str,
    directory_exists: bool,
    held: Mapping[str, Held],
    threshold: int,
    allow: Collection[str] = (),
    base_fingerprint: str = EMPTY_FINGERPRINT,
    drop: Collection[str] = (),
    allow_contact: bool = False,
    queued: Mapping[str, str] | None = None,
) -> PromotionPlan:
    """The topic files to write beside MEMORY.md (`path`) and the index lines to append to it;
    screened, held back and dropped as the entries form is (candidates.py, `sift`). `held`:
    what the folder holds at each name `topic_names` gave."""
    chosen = candidates(notes, threshold)
    kept, blocked = sift(chosen, expected_entries(chosen), allow, drop, allow_contact, queued)
    listed = _listed(before_text)
    out = _Planned([], [], [], [], [])
    for item in kept:
        name = topic_name(item.section, item.title)
        _plan_one(item, path.parent, held.get(name, Held(None, True)), listed, out)
    after = _with_lines(before_text, [line for _, line in out.lines])
    diff = "".join(_diff(f.path, f.before_text, f.after_text) for f in out.files)
    if after != before_text:
        diff += _diff(
            str(path), before_text if base_fingerprint != EMPTY_FINGERPRINT else None, after
        )
    return PromotionPlan(
        path=str(path),
        directory_exists=directory_exists,
        threshold=threshold,
        entries=out.entries,
        added=sum(e.action == "add" for e in out.entries),
        updated=sum(e.action == "update" for e in out.entries),
        before_text=before_text,
        after_text=after,
        diff=diff,
        base_fingerprint=base_fingerprint,
        blocked=blocked,
        dropped=out.dropped,
        qualifying=sum(qualifies(n, threshold) for n in notes),
        notices=out.notices,
        budgets=[_budget(after, out.lines)],
        form=TOPIC_FILES,
        topic_files=out.files,
    )


def _budget(after: str, lines: list[tuple[str, str]]) -> PromotionBudget:
    """Claude Code's budget of the index as it would be, and the facts whose line lands past
    its cut."""
    budget = claude_code_budget(after, [])
    if budget.loaded_lines is None:
        return budget
    numbers = {line: n for n, line in enumerate(after.split("\n"), start=1)}
    past = [note_id for note_id, line in lines if numbers.get(line, 0) > budget.loaded_lines]
    return budget.model_copy(update={"past": past})
