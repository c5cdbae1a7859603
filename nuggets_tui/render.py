"""Plain-text rendering of plans, diffs and notes for the command line. All note text is inert."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Mapping

from core.clock import shown_time
from core.contract.parts import KeptVersion
from core.contract.profile import CHANGE_KINDS, Profile
from core.journal.entries import JournalHeader
from core.models import (
    BlockedEntry,
    JournalEntry,
    Plan,
    PromotionPlan,
    RawNote,
    ReflectionResult,
    ShadowedNote,
    kind_word,
)
from core.notes import fields
from core.notes.diff import compare, shown_value
from core.safeio.inert_text import inert, one_line

from .words import alike_head, alike_names, budget_words, counted, either, held_kinds, shown_path

# A result's counts: its field, the word, and the kind of change it counts ("": always said)
COUNTS = (
    ("inspected", "inspected", ""),
    ("rewritten", "rewritten", "rewrite"),
    ("merged", "merged", "merge"),
    ("hidden", "archived", "hide"),
    ("tagged", "tagged", "tag"),
    ("linked", "linked", "link"),
)


def result_summary(result: ReflectionResult, kinds: tuple[str, ...] = CHANGE_KINDS) -> str:
    """The result's counts; `kinds`: the kinds of change the store's plans hold (its
    `Profile.change_kinds`)."""
    return ", ".join(
        f"{getattr(result, key):,} {label}"
        for key, label, kind in COUNTS
        if not kind or kind in kinds
    )


def note_diff(before: RawNote, after: RawNote) -> Iterator[str]:
    change = compare(before, after)
    for name, old, new in change.fields:
        yield f"  {name}: {one_line(shown_value(old))} -> {one_line(shown_value(new))}"
    for tag, text in change.content:
        yield f"  {tag if tag != '@' else ''}{inert(text) if tag != '@' else text}"
    tags = [f"-{one_line(t)}" for t in change.tags_removed]
    tags += [f"+{one_line(t)}" for t in change.tags_added]
    if tags:
        yield "  tags: " + " ".join(tags)
    for sign, pairs in (("-", change.links_removed), ("+", change.links_added)):
        for to, reason in pairs:
            yield f"  links {sign} -> {one_line(to)} ({one_line(reason)})"


def plan_text(
    plan: Plan, words: Profile, applied: bool = False, decided: Mapping[int, str] | None = None
) -> Iterator[str]:
    """`decided`: how a review rule or the operator decided a change (op id -> words);
    `words`: the store's (the pass's name, whether it caps, the kinds of change it makes)."""
    scope = words.scope(plan.nugget_name)
    capped = words.capabilities.capped_plans
    cap = (" (uncapped)" if plan.uncapped else f" (limit {plan.limit})") if capped else ""
    what = "applied" if applied else "dry run"
    label = one_line(words.pass_label)
    at = shown_time(plan.ran_at)
    yield f"{label[:1].upper()}{label[1:]} on {one_line(scope)}{cap} at {at} ({what})"
    yield f"  {result_summary(plan.result, words.change_kinds)}"
    if not plan.result.changes:
        yield "  No changes: the memory is already tidy."
        return
    by_note: dict[str, list[str]] = {}
    left_out = set(plan.unkept_by_default)
    for number, change in enumerate(plan.result.changes, start=1):
        mark = " (left out unless kept)" if number in left_out else ""
        if decided and number in decided:
            mark += f" ({one_line(decided[number])})"
        by_note.setdefault(change.note_id, []).append(
            f"[{kind_word(change.type)}]{mark} {one_line(change.detail)}"
        )
    for diff in plan.notes:
        title = one_line(fields.text(diff.after, "title"))
        yield ""
        nugget = one_line(fields.text(diff.after, "nuggetName"))
        yield f"{one_line(diff.note_id)} ({nugget}) {title}"
        for line in by_note.get(diff.note_id, ["(changed by a merge or link elsewhere)"]):
            yield f"  {line}"
        yield from note_diff(diff.before, diff.after)


def file_diff(entry: JournalEntry) -> Iterator[str]:
    """The unified diff of a run that wrote one file."""
    name = one_line(entry.file_name or "")
    yield from (
        one_line(line)
        for line in difflib.unified_diff(
            (entry.file_before or "").splitlines(),
            (entry.file_after or "").splitlines(),
            f"a/{name}",
            f"b/{name}",
            lineterm="",
        )
    )


def note_row(note: RawNote, summary: Callable[[RawNote], str]) -> str:
    """One note on a line: its id, nugget and title, then the store's `summary` of it."""
    mark = "A" if fields.hidden(note) else " "
    return (
        f"{mark} {one_line(note['id'])}  [{one_line(note['nuggetName'])}] "
        f"{one_line(fields.text(note, 'title'))}  {summary(note)}"
    )


def lost_text(plan: PromotionPlan) -> str:
    """What the file lost since our newest run on it, on one line."""
    return "; ".join(one_line(lost) for lost in plan.lost)


def budget_text(plan: PromotionPlan) -> Iterator[str]:
    """What the agent reads of the file (or scope), and each entry landing past it."""
    titles = {e.note_id: (e.section, e.title) for e in plan.entries}
    for budget in plan.budgets:
        yield one_line(budget_words(budget))
        for note_id in budget.past if budget.loaded_lines is not None else ():
            if note_id in titles:
                section, title = titles[note_id]
                yield (f"  past   [{one_line(section)}] {one_line(title)} ({one_line(note_id)})")


def qualifying_words(plan: PromotionPlan, words: Profile, chosen_by: str = "") -> str:
    """How many notes qualify and by what: `chosen_by` when a caller chose them (`act`), else
    the store's rule at the plan's threshold; no rule at a threshold of 0, which every note
    meets."""
    rule = chosen_by or (
        words.promotion_rule.format(threshold=plan.threshold) if plan.threshold else ""
    )
    return " ".join(part for part in (counted(plan.qualifying, "note"), rule) if part)


def promotion_text(plan: PromotionPlan, words: Profile, chosen_by: str = "") -> Iterator[str]:
    """`words`: the store's, for the notes that qualify and where else promotion may write;
    `chosen_by`: why the notes qualify when a caller chose them (`act`: their verdict)."""
    name = plan.path.rsplit("/", 1)[-1]
    yield from (one_line(refused) for refused in plan.refused)
    yield from (one_line(notice) for notice in plan.notices)
    if plan.refused and not (plan.entries or plan.blocked or plan.dropped):
        return  # nothing else to say of a scope that is not written
    if not plan.directory_exists:
        where = (
            f"Point elsewhere with {words.promotion_option} or {words.promotion_env}, or "
            "create that directory."
            if words.capabilities.promotion_elsewhere
            else "Create that directory to write it."
        )
        yield (
            f"No memory directory at {shown_path(plan.path.rsplit('/', 1)[0])}: a preview only, "
            f"nothing will be written. {where}"
        )
    yield (
        f"Promotion to {shown_path(plan.path)}: {plan.added:,} to add, {plan.updated:,} to "
        f"update, {qualifying_words(plan, words, chosen_by)}, "
        f"{counted(len(plan.entries), 'entry', 'entries')}"
    )
    if plan.topic_files:
        yield (
            f"Form: {plan.form} ({counted(len(plan.topic_files), 'file')} to write beside "
            f"{name}, and a line in {name} for each fact it does not list yet)"
        )
    yield from budget_text(plan)
    alike = alike_head(plan.entries)
    if alike:
        yield f"{alike} (≈ below; --drop NOTE_ID leaves one out)"
    for entry in plan.entries:
        reason = entry.allowed_despite
        allowed = f"  (allowed although it {reason})" if reason else ""
        yield (
            f"  {entry.action:<6} [{one_line(entry.section)}] {one_line(entry.title)} "
            f"({one_line(entry.note_id)}){allowed}"
        )
        if entry.alike:
            yield f"           ≈ almost the same as: {one_line(alike_names(entry, name))}"
        yield from _shadowed_lines(entry.shadowed)
        if entry.moved_from:
            yield f"           taken out of: {', '.join(one_line(s) for s in entry.moved_from)}"
    for entry in plan.dropped:
        yield (
            f"  drop   [{one_line(entry.section)}] {one_line(entry.title)} "
            f"({one_line(entry.note_id)})"
        )
    if plan.lost:
        yield f"Lost since our last write (left as they are): {lost_text(plan)}"
    if plan.blocked:
        yield ""
        yield (
            f"Held back {counted(len(plan.blocked), 'entry', 'entries')} "
            f"{held_because(plan.blocked)} (promote one anyway, as shown here, with "
            "--allow NOTE_ID@HASH):"
        )
        for blocked in plan.blocked:
            yield (
                f"  blocked [{one_line(blocked.section)}] {one_line(blocked.title)} "
                f"({one_line(blocked.note_id)}): it {blocked.reason}"
            )
            if blocked.queued:
                yield (
                    f"           decide it first: nuggets resolve {one_line(blocked.queued)} "
                    "(see nuggets conflicts)"
                )
            yield f"           allow it: --allow {one_line(blocked.note_id)}@{blocked.hash}"
            yield from _shadowed_lines(blocked.shadowed)
    yield ""
    yield inert(plan.diff) if plan.diff else f"{one_line(name)} is already up to date."


_HELD_WORDS = {
    "instructions": "read like instructions to the agent",
    "secrets": "carry secrets (shown masked)",
    "queue": "stand in the contradiction queue",
}


def held_because(blocked: list[BlockedEntry]) -> str:
    """Why entries are held back, in words: instructions to the agent, secrets, the
    contradiction queue."""
    kinds = held_kinds(blocked)
    return "that " + either([words for kind, words in _HELD_WORDS.items() if kind in kinds])


def _shadowed_lines(shadowed: list[ShadowedNote]) -> Iterator[str]:
    """Notes of the same section and title that the more recently updated one stands for."""
    for note in shadowed:
        yield (
            f"           shadows {one_line(note.note_id)} [{one_line(note.nugget_name)}], "
            f"updated {one_line(note.updated_at) or 'never'}"
        )


def journal_line(entry: JournalHeader) -> str:
    summary = one_line(entry.summary or entry.kind)
    wrote = (
        one_line(entry.file_name.rsplit("/", 1)[-1])
        if entry.file_name is not None
        else counted(entry.notes, "note")
    )
    left = (
        f"  [written in {one_line(entry.left_home)}, a home its agent had left]"
        if entry.left_home is not None
        else ""
    )
    at = one_line(shown_time(entry.at))
    return f"{one_line(entry.run_id)}  {entry.kind:<7} {at}  {wrote}  {summary}{left}"


def kept_versions_text(versions: list[KeptVersion]) -> Iterator[str]:
    """Each note's kept versions under its id: when first seen, size, hash."""
    if not versions:
        return
    yield ""
    yield "Versions kept, oldest first:"
    shown = None
    for version in versions:
        if version.note_id != shown:
            shown = version.note_id
            yield f"  {one_line(version.note_id)}"
        size = "copy missing" if version.size is None else counted(version.size, "byte")
        yield f"    {one_line(shown_time(version.at))}  {size}  sha256 {version.digest[:12]}"
