"""Review rules: named decisions the operator saved, applied to every new plan (docs/REVIEW.md).

A rule matches a change on any of: its kind (`archive`, `rewrite`, `tag`, `merge`, `link`,
`keep`; `hide`, the old word for archive, is read as `archive`), its nugget, the step of the
pass or of the system's own maintenance that made it (a text the change's reason contains), a
text (in the note's title or content, or the change's reason, nugget or note id: what a search
in the review finds), the note's age in days, or its hits; every condition given must hold.
Its action is `keep`, `reject` or `review` (the change waits for a person). The first rule that
matches a change decides it; a decision the operator took on that very change
(core/plans/review_state.py) comes before any rule.

The rules live in `review-rules.json` beside the journal; a store writes it with `write_file`,
so adding or removing a rule is a journaled run that undo takes back.

API:
- `Rule`; `parse_rule(name, action, **conditions) -> Rule` (`ArgumentError`, one line)
- `rules_text(rules) -> str`, `parse_rules(text) -> list[Rule]`
- `read_rules(journal_home) -> tuple[list[Rule], str | None]` (the rules and the file's text)
- `store_rules(store) -> list[Rule]`: none for a store without the capability `rules`
- `rule_decisions(plan, rules, now) -> dict[int, Decided]` (pure: op id -> action and rule)
- `decided_kept(plan, default, rules, decisions, keys, now, hold) -> tuple[set[int],
  dict[int, Decided]]`: what a pass run without a person applies
- `RuleChooser(rules, decisions, now, also, hold)`: the same for a store's `reflect(choose=)`,
  saying afterwards how each change was decided and which wait for a person
- `add_rule(store, rule)`, `remove_rule(store, name)`: journaled runs of the store
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Literal

from core.clock import parse_iso
from core.contract.store import Store
from core.errors import ArgumentError, NuggetsError
from core.journal.entries import journal_dir
from core.models import (
    JournalEntry,
    Operation,
    Plan,
    RawNote,
    ReflectionChange,
    ReflectionResult,
    kind_word,
    operation_note_ids,
)
from core.notes import fields as note_fields
from core.plans.kept import chosen, result_of
from core.plans.review_state import change_key
from core.safeio.json_read import loads
from core.safeio.open_regular import read_regular

Action = Literal["keep", "reject", "review"]
ACTIONS: tuple[Action, ...] = ("keep", "reject", "review")
KINDS = ("archive", "rewrite", "tag", "merge", "link", "keep")  # as `kind_word` says them
RULES_FILE = "review-rules.json"
RULES_BYTES = 1024 * 1024
RULES_DEPTH = 3  # {"rules": [{"name": ...}]}
MAX_NAME = 60


@dataclass(frozen=True)
class Rule:
    name: str
    action: Action
    kind: str | None = None
    nugget: str | None = None
    step: str | None = None  # a text the change's reason (the step that made it) contains
    text: str | None = None  # in the note's title or content, the reason, nugget or note id
    min_age_days: int | None = None
    max_age_days: int | None = None
    min_hits: int | None = None
    max_hits: int | None = None

    def conditions(self) -> dict[str, str | int]:
        """The conditions given, by name, in the order above."""
        return {f.name: v for f in fields(self)[2:] if (v := getattr(self, f.name)) is not None}

    def when(self) -> str:
        """`kind=tag, nugget=work, min-age=30` (`every change`, without conditions): the
        conditions under the names the command line gives them."""
        said = (f"{_option(k)}={v}" for k, v in self.conditions().items())
        return ", ".join(said) or "every change"

    def describe(self) -> str:
        """`reject when kind=tag, nugget=work`."""
        return f"{self.action} when {self.when()}"


def _option(condition: str) -> str:
    """`min_age_days` -> `min-age`: a condition under its command-line option's name."""
    return condition.removesuffix("_days").replace("_", "-")


@dataclass(frozen=True)
class Decided:
    action: Action
    rule: str  # the rule's name


def parse_rule(name: str, action: str, **conditions: str | int | None) -> Rule:
    """A rule from what a person typed; ArgumentError (one line) on what cannot be one."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or any(ord(c) < 32 for c in name):
        raise ArgumentError(f"a rule's name is 1 to {MAX_NAME} printable characters")
    if action not in ACTIONS:
        raise ArgumentError(f"a rule's action is one of {', '.join(ACTIONS)}, not {action!r}")
    kind = conditions.get("kind")
    if kind == "hide":
        conditions = {**conditions, "kind": "archive"}
    elif kind is not None and kind not in KINDS:
        raise ArgumentError(f"a rule's kind is one of {', '.join(KINDS)}, not {kind!r}")
    given = {k: v for k, v in conditions.items() if v is not None and v != ""}
    for key, value in given.items():
        numeric = key.startswith(("min_", "max_"))
        if numeric and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise ArgumentError(f"a rule's {key.replace('_', '-')} is a whole number ≥ 0")
        if not numeric and not isinstance(value, str):
            raise ArgumentError(f"a rule's {key} is a text")
    for low, high in (("min_age_days", "max_age_days"), ("min_hits", "max_hits")):
        least, most = given.get(low), given.get(high)
        if isinstance(least, int) and isinstance(most, int) and least > most:
            raise ArgumentError(
                f"a rule's {_option(low)} ({least}) is above its {_option(high)} ({most}): "
                "it would match nothing"
            )
    try:
        # `given` holds only whole numbers for min_/max_ and texts otherwise (checked above)
        return Rule(name, action, **given)  # type: ignore[arg-type]
    except TypeError:
        unknown = sorted(set(given) - {f.name for f in fields(Rule)})
        raise ArgumentError(f"a rule has no condition {', '.join(unknown)}") from None


# -- the file ---------------------------------------------------------------------------------


def rules_text(rules: list[Rule]) -> str:
    rows = [{k: v for k, v in asdict(r).items() if v is not None} for r in rules]
    return json.dumps({"rules": rows}, indent=2, ensure_ascii=False) + "\n"


def parse_rules(text: str) -> list[Rule]:
    """The rules of the file's text; ValueError when it is not a file of rules."""
    raw = loads(text, RULES_DEPTH)
    rows = raw.get("rules") if isinstance(raw, dict) else None
    if not isinstance(rows, list):
        raise ValueError("no list of rules")
    rules = []
    for row in rows:
        if not isinstance(row, dict):
            raise ValueError("a rule is not an object")
        try:
            rules.append(parse_rule(**{str(k): v for k, v in row.items()}))
        except (ArgumentError, TypeError) as exc:
            raise ValueError(str(exc)) from None
    return rules


def rules_path(journal_home: Path) -> Path:
    return journal_dir(journal_home).parent / RULES_FILE


def read_rules(journal_home: Path) -> tuple[list[Rule], str | None]:
    """The rules kept for this memory and the file's text (None: no file, no rules)."""
    path = rules_path(journal_home)
    try:
        data = read_regular(path, RULES_BYTES)
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        raise NuggetsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
        return parse_rules(text), text
    except (ValueError, TypeError, AttributeError) as exc:
        why = f" ({exc})" if isinstance(exc, ValueError) else ""
        raise NuggetsError(f"{path}: not a file of review rules{why}; move it aside") from None


def store_rules(store: Store) -> list[Rule]:
    """The rules kept for the store; none for one that keeps none (no capability `rules`)."""
    return read_rules(store.journal.home)[0] if store.profile.capabilities.rules else []


def check_nugget(store: Store, rule: Rule) -> None:
    """ArgumentError when the rule names a nugget the memory does not have: it would match
    nothing (a rule already saved is read as it is, even after its nugget went)."""
    if rule.nugget is None:
        return
    graph = store.read()
    known = {note_fields.nugget(n) for n in graph.notes} | set(graph.groups)
    if rule.nugget not in known:
        some = ", ".join(sorted(known)[:8]) + (", …" if len(known) > 8 else "")
        raise ArgumentError(f"no nugget {rule.nugget!r} in this memory (its nuggets: {some})")


def add_rule(store: Store, rule: Rule) -> JournalEntry:
    """Save the rule (replacing one of the same name) as a journaled run of the store."""
    check_nugget(store, rule)
    rules, before = read_rules(store.journal.home)
    kept = [r for r in rules if r.name != rule.name]
    summary = f"rule {'changed' if len(kept) < len(rules) else 'added'}: {rule.name}"
    return _write(store, before, [*kept, rule], summary)


def replace_rule(store: Store, name: str, rule: Rule) -> JournalEntry:
    """Put `rule` in the place of the rule named `name` (renamed, conditions edited), as one
    journaled run; ArgumentError when there is no such rule or the new name is another's."""
    rules, before = read_rules(store.journal.home)
    names = [r.name for r in rules]
    if name not in names:
        raise ArgumentError(f"no rule named {name!r} (rules: {', '.join(names) or 'none'})")
    if rule.name != name and rule.name in names:
        raise ArgumentError(f"a rule named {rule.name!r} exists already")
    if rule.nugget != rules[names.index(name)].nugget:  # an edit keeping its nugget stays valid
        check_nugget(store, rule)
    edited = [rule if r.name == name else r for r in rules]
    summary = (
        f"rule changed: {name}" if rule.name == name else f"rule renamed: {name} → {rule.name}"
    )
    return _write(store, before, edited, summary)


def remove_rule(store: Store, name: str) -> JournalEntry:
    rules, before = read_rules(store.journal.home)
    kept = [r for r in rules if r.name != name]
    if len(kept) == len(rules):
        known = ", ".join(r.name for r in rules) or "none"
        raise ArgumentError(f"no rule named {name!r} (rules: {known})")
    return _write(store, before, kept, f"rule removed: {name}")


def _write(store: Store, before: str | None, rules: list[Rule], summary: str) -> JournalEntry:
    """The rules file as a journaled run of the store (kind "decide")."""
    return store.journal.write_file(
        rules_path(store.journal.home), before, rules_text(rules), "decide", summary
    )


# -- matching (pure) --------------------------------------------------------------------------


def age_days(note: RawNote, now: datetime) -> int | None:
    """Whole days since the note was made (its update time when it has no creation time)."""
    made = parse_iso(note_fields.text(note, "createdAt")) or parse_iso(note_fields.updated_at(note))
    return None if made is None else max(0, (now - made).days)


def matches(rule: Rule, change: ReflectionChange, note: RawNote | None, now: datetime) -> bool:
    if rule.kind is not None and kind_word(change.type) != rule.kind:
        return False
    if rule.nugget is not None and change.nugget_name != rule.nugget:
        return False
    if rule.step is not None and rule.step.casefold() not in change.detail.casefold():
        return False
    note = note or {}
    if rule.text is not None:
        said = "\n".join(
            (
                note_fields.text(note, "title"),
                note_fields.text(note, "content"),
                change.detail,
                change.nugget_name,
                change.note_id,
            )
        )
        if rule.text.casefold() not in said.casefold():
            return False
    return _within(rule.min_hits, rule.max_hits, note_fields.hits(note)) and (
        rule.min_age_days is None
        and rule.max_age_days is None
        or _within(rule.min_age_days, rule.max_age_days, age_days(note, now))
    )


def _within(low: int | None, high: int | None, value: int | None) -> bool:
    if low is None and high is None:
        return True
    return value is not None and (low is None or value >= low) and (high is None or value <= high)


def rule_decisions(plan: Plan, rules: list[Rule], now: datetime) -> dict[int, Decided]:
    """Each change a rule decides (by op id, 1-based): the first rule that matches it."""
    if not rules:
        return {}
    before = {diff.note_id: diff.before for diff in plan.notes}
    out: dict[int, Decided] = {}
    for op_id, change in enumerate(plan.result.changes, start=1):
        note = before.get(change.note_id)
        rule = next((r for r in rules if matches(r, change, note, now)), None)
        if rule is not None:
            out[op_id] = Decided(rule.action, rule.name)
    return out


def decided_kept(
    plan: Plan,
    default: set[int],
    rules: list[Rule],
    decisions: dict[str, bool],
    keys: list[str],
    now: datetime,
    hold: bool = False,
) -> tuple[set[int], dict[int, Decided]]:
    """What a run without a person applies: the operator's own decision on a change first,
    then the first rule that matches it, then the plan's default (`default`: what the plan
    keeps unasked). A rule's `review` leaves the change out; with `hold`, only changes the
    operator or a rule kept are applied. Returns the kept op ids and what the rules decided."""
    by_rule = rule_decisions(plan, rules, now)
    kept: set[int] = set()
    for op_id, key in enumerate(keys, start=1):
        if key in decisions:
            if decisions[key]:
                kept.add(op_id)
            continue
        decided = by_rule.get(op_id)
        if decided is not None:
            if decided.action == "keep":
                kept.add(op_id)
        elif not hold and op_id in default:
            kept.add(op_id)
    return kept, {i: d for i, d in by_rule.items() if keys[i - 1] not in decisions}


class RuleChooser:
    """What a run without a person applies of each plan it makes (a store's `reflect(choose=)`):
    `decided_kept` with the rules and the operator's decisions kept for this memory. After a
    call: `by_rule` (what the rules decided), `said` (op id -> how it was decided, for the
    output), `waiting` (the keys of the changes left for a person) and `held`, `held_result`:
    those changes themselves, for the console to show exactly them."""

    def __init__(
        self,
        rules: list[Rule],
        decisions: dict[str, bool],
        now: datetime,
        also: Collection[str] = (),
        hold: bool = False,
    ) -> None:
        self.rules, self.decisions, self.now = rules, decisions, now
        self.also, self.hold = also, hold
        self.by_rule: dict[int, Decided] = {}
        self.said: dict[int, str] = {}
        self.waiting: list[str] = []
        self.held: list[Operation] = []  # the changes left for a person, numbered from 1
        self.held_result: ReflectionResult | None = None  # the plan's result, of those only

    def __call__(self, plan: Plan) -> set[int]:
        keys = [change_key(op) for op in plan.operations]
        default = chosen(plan, self.also)
        kept, self.by_rule = decided_kept(
            plan, default, self.rules, self.decisions, keys, self.now, self.hold
        )
        self.said = decided_words(keys, self.decisions, self.by_rule)
        self.waiting = [
            key
            for op_id, key in enumerate(keys, start=1)
            if key not in self.decisions
            and op_id not in kept
            and _waits(self.by_rule.get(op_id), op_id in default, self.hold)
        ]
        waiting = set(self.waiting)
        held = [op.id for op, key in zip(plan.operations, keys, strict=True) if key in waiting]
        self.held = [
            plan.operations[op_id - 1].model_copy(update={"id": number})
            for number, op_id in enumerate(held, start=1)
        ]
        self.held_result = result_of(plan.result, set(held))
        return kept


def _waits(decided: Decided | None, by_default: bool, hold: bool) -> bool:
    if decided is not None:
        return decided.action == "review"
    return hold and by_default


def decided_words(
    keys: list[str], decisions: dict[str, bool], by_rule: dict[int, Decided]
) -> dict[int, str]:
    """How each decided change was decided, in words: `kept by rule “x”`, `rejected by you`."""
    said = {
        op_id: ("kept" if decisions[key] else "rejected") + " by you"
        for op_id, key in enumerate(keys, start=1)
        if key in decisions
    }
    for op_id, decided in by_rule.items():
        said[op_id] = f"{DONE_WORDS[decided.action]} by rule “{decided.rule}”"
    return said


DONE_WORDS = {"keep": "kept", "reject": "rejected", "review": "waits for review"}


def rejected_notes(plan: Plan, said: Mapping[int, str]) -> list[str]:
    """The notes of the changes a rule or the operator rejected (`said`: how each decided change
    was decided, `decided_words`), in plan order (pure)."""
    rejected = {op_id for op_id, words in said.items() if words.startswith(DONE_WORDS["reject"])}
    return list(
        dict.fromkeys(
            note_id
            for op in plan.operations
            if op.id in rejected
            for note_id in operation_note_ids(op)
        )
    )
