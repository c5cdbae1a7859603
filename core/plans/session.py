"""The review session: one review of a store's plan, as the console's review screen and the
`reflect`/`daily` commands both run it (docs/REVIEW.md). It holds the plan of one scope (a
nugget or all, capped or not), what is kept of it, the operator's decisions kept beside the
journal (core/plans/review_state.py) and the store's review rules (core/plans/review_rules.py):
a front end shows it and passes the operator's keys on, and never wires those files itself.

What is kept of a plan: the operator's decision on a change, else the first review rule that
matches it, else what the store keeps when nobody chose. Each decision is merged into the
decisions file as it is now (another console's or `daily`'s part stays), and a decision
another process wrote is taken in when the file's stamp says so (`reload`).

A decisions file that cannot be read is never written over: the session goes on with the
decisions in memory and says so once through `on_trouble` (as it says a rules file that cannot
be read); `error` keeps the reason.

API:
- `ReviewSession(store, nugget=None, uncapped=False, on_trouble=None)`:
  - `.make_plan(graph, should_stop, progress) -> Plan` (the store's, or `held_plan`'s while
    changes `daily --hold` left wait; takes nothing in)
  - `.held_plan(graph) -> Plan | None`: exactly the changes `daily --hold` left waiting
  - `.planned(plan)`: the plan taken in: its changes new since the scope's last plan (`new`;
    after the cap is lifted or restored, since the plan shown just before), remembered as the
    last once anything is decided, decided by decisions and rules (`kept`, `by_rule`,
    `left_out`: not kept, and nobody rejected them; `waiting`: those `daily --hold` left for a
    person, decided since or not)
  - `.decide(op_ids, keep)`, `.reload() -> bool`, `.decide_by_rules()`, `.rules()`,
    `.undecided() -> (decided, undecided)`
  - `.is_stale(plan=None) -> bool`, `.apply(plan=None, kept=None) -> JournalEntry | None`,
    `.applied()`: nothing waits any more once reviewed and applied (unless `daily` left more)
  - `.unattended(also=(), hold=False) -> RuleChooser`: the choice of a run without a person
    (`reflect --apply`, `daily`); `.leave_waiting(choose) -> str | None`: the changes it left
    for a person remembered, and since when they wait, with what each rule decided in it
- `rule_counts(by_rule) -> list[RuleCount]`: how many changes each rule decided
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Literal

from pydantic import TypeAdapter, ValidationError

from core.clock import to_iso
from core.contract.store import Store
from core.errors import NuggetsError
from core.models import JournalEntry, Operation, Plan, ReflectionResult
from core.notes.snapshot import Graph
from core.plans.review_rules import Decided, Rule, RuleChooser, decided_kept, store_rules
from core.plans.review_state import (
    ReviewState,
    RuleCount,
    change_key,
    new_since,
    read_state,
    scope_key,
    state_stamp,
    update_state,
)
from core.progress import Progress

HELD = TypeAdapter(list[Operation])

Trouble = Literal["decisions", "rules"]  # which file could not be read or written


def rule_counts(by_rule: dict[int, Decided]) -> list[RuleCount]:
    """How many changes each rule decided, in the order the rules first decided one (pure)."""
    counts: dict[tuple[str, str], int] = {}
    for _, decided in sorted(by_rule.items()):
        key = (decided.rule, decided.action)
        counts[key] = counts.get(key, 0) + 1
    return [RuleCount(rule, action, n) for (rule, action), n in counts.items()]


class ReviewSession:
    """One review of a store's plan in one scope."""

    def __init__(
        self,
        store: Store,
        nugget: str | None = None,
        uncapped: bool = False,
        on_trouble: Callable[[Trouble, str], None] | None = None,
    ) -> None:
        self.store, self.nugget, self.uncapped = store, nugget, uncapped
        self.on_trouble = on_trouble or (lambda trouble, message: None)
        self.plan: Plan | None = None
        self.keys: list[str] = []  # what each change of the plan does, by op id - 1
        self.scope = scope_key(nugget, uncapped)  # the plan's, for its keys in the file
        self.kept: set[int] = set()
        self.new: set[int] = set()  # changes the scope's last plan did not hold
        self.by_rule: dict[int, Decided] = {}  # changes a review rule decided
        # Not kept, and neither the operator nor a rule rejected them: the plan leaves them out
        # unless kept (or a rule left them for a person), which is not a rejection.
        self.left_out: set[int] = set()
        self.waiting: set[int] = set()  # changes a `daily --hold` run left for a person
        self.error: str | None = None  # the decisions file cannot be read or written
        self.state = self._read()

    # -- the plan -------------------------------------------------------------------------------

    def make_plan(
        self,
        graph: Graph | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Progress | None = None,
    ) -> Plan:
        """The store's plan; while changes `daily --hold` left wait undecided, in the scope it
        plans (every nugget, capped), exactly those changes instead (`held_plan`)."""
        held = self.held_plan(graph)
        if held is not None:
            return held
        return self.store.plan(
            self.nugget,
            uncapped=self.uncapped,
            graph=graph,
            should_stop=should_stop,
            progress=progress,
        )

    def held_plan(self, graph: Graph | None = None) -> Plan | None:
        """The changes `daily --hold` left waiting, as it planned them, replayed on the file as
        it is now (the store's decider); None when none waits undecided, in another scope, or
        when the store cannot plan given operations or they no longer apply."""
        decider, state = self.store.decider, self.state
        if self.nugget is not None or self.uncapped or decider is None or not state.held:
            return None
        if state.waiting_count() == 0 or state.held_result is None:
            return None
        try:
            operations = HELD.validate_python(state.held)
            result = ReflectionResult.model_validate(state.held_result)
            plan = decider.plan_operations(operations, result, graph=graph)
        except (ValidationError, NuggetsError):
            return None
        plan.kind = "reflect"  # the daily pass's own changes, applied after review
        return plan

    def planned(self, plan: Plan) -> None:
        shown = self.keys if self.plan is not None else None
        scope = scope_key(self.nugget, self.uncapped)
        changed_scope = shown is not None and scope != self.scope
        self.plan = plan
        self.keys = keys = [change_key(op) for op in plan.operations]
        self.scope = scope
        # The cap lifted or restored: new since the plan shown just before, of the other
        # scope, not since the last plan this scope had (maybe none, maybe days ago).
        fresh = (
            set(keys) - set(shown or ()) if changed_scope else new_since(self.state, scope, keys)
        )
        self.new = {i for i, key in enumerate(keys, start=1) if key in fresh}
        self._save()  # the plan remembered as its scope's last
        self.decide_by_rules()

    def is_stale(self, plan: Plan | None = None) -> bool:
        """Whether what the plan read changed since (a store that cannot tell: it did)."""
        plan = self.plan if plan is None else plan
        if plan is None:
            return False
        try:
            return self.store.is_stale(plan)
        except NuggetsError:
            return True

    def apply(
        self, plan: Plan | None = None, kept: Iterable[int] | None = None
    ) -> JournalEntry | None:
        """The kept changes written (StalePlanError: refused whole); None: nothing written."""
        plan = self.plan if plan is None else plan
        if plan is None:
            return None
        return self.store.apply(plan, set(self.kept if kept is None else kept))

    def applied(self) -> None:
        """Reviewed and applied: nothing waits any more, unless `daily` left more since."""
        waited = (self.state.waiting_since, self.state.waiting)
        if self.state.waiting:
            self._save(
                lambda state: (
                    state.hold(None, []) if (state.waiting_since, state.waiting) == waited else None
                )
            )

    # -- the operator's decisions and the rules -------------------------------------------------

    def decide(self, op_ids: Iterable[int], keep: bool) -> None:
        """The operator kept or rejected these changes: remembered for every later plan,
        merged into the file key by key; decisions another process took meanwhile come in."""
        ids = list(op_ids)
        if keep:
            self.kept |= set(ids)
        else:
            self.kept.difference_update(ids)
        self.left_out.difference_update(ids)
        decided = {self.keys[op_id - 1]: keep for op_id in ids}

        def merge(state: ReviewState) -> None:
            state.decisions |= decided

        if self._save(merge) and self.plan is not None:
            self.decide_by_rules()

    def decide_by_rules(self) -> None:
        """What is kept: the operator's decision on a change, else the first review rule that
        matches it, else what the store keeps when nobody chose."""
        if self.plan is None:
            return
        self.kept, self.by_rule = decided_kept(
            self.plan,
            self.plan.default_kept(),
            self.rules(),
            self.state.decisions,
            self.keys,
            self.store.clock(),
        )
        decisions = self.state.decisions
        held = set(self.state.waiting)
        self.waiting = {op_id for op_id, key in enumerate(self.keys, start=1) if key in held}
        self.left_out = {
            op_id
            for op_id, key in enumerate(self.keys, start=1)
            if op_id not in self.kept
            and key not in decisions
            and (op_id not in self.by_rule or self.by_rule[op_id].action == "review")
        }

    def rules(self) -> list[Rule]:
        try:
            return store_rules(self.store)
        except NuggetsError as exc:
            self.on_trouble("rules", str(exc))
            return []

    def reload(self) -> bool:
        """Decisions another process wrote (a second console, `daily`) taken in; True when
        there were any (what is kept is decided again)."""
        if self.error is not None or self.plan is None:
            return False
        if state_stamp(self.store.journal.home) == self.state.stamp:
            return False
        try:
            self._adopt(read_state(self.store.journal.home))
        except NuggetsError as exc:
            self._failed(str(exc))
            return False
        self.decide_by_rules()
        return True

    def undecided(self) -> tuple[int, int]:
        """How many changes of this plan the operator decided, and how many not yet."""
        decided = sum(key in self.state.decisions for key in self.keys)
        return decided, len(self.keys) - decided

    def undecided_kept(self) -> tuple[int, int]:
        """Of the changes the operator has not decided: how many are kept (by the plan or a
        rule), and how many left out unless kept."""
        decisions = self.state.decisions
        kept = sum(
            op_id in self.kept and key not in decisions
            for op_id, key in enumerate(self.keys, start=1)
        )
        return kept, len(self.left_out)

    # -- without a person -----------------------------------------------------------------------

    def unattended(self, also: Collection[str] = (), hold: bool = False) -> RuleChooser:
        """The review rules and the operator's decisions, read now, deciding each plan of a run
        without a person (NuggetsError, one line, when either file cannot be read)."""
        rules = store_rules(self.store)
        decisions = read_state(self.store.journal.home).decisions
        return RuleChooser(rules, decisions, self.store.clock(), also, hold)

    def leave_waiting(self, choose: RuleChooser) -> str | None:
        """Remember the changes the run left for a person (the console opens on them), and
        what each review rule decided in it; since when they wait (kept while some waited
        before), None when nothing waits or waited."""
        state = read_state(self.store.journal.home)
        ruled = rule_counts(choose.by_rule)
        waits = bool(choose.waiting or state.waiting)
        if not (waits or ruled or state.ruled):
            return None  # nothing waits, nothing waited, no rule decided: no file written
        now = to_iso(self.store.clock())
        carried = state.waiting_since is not None and set(state.waiting) & set(choose.waiting)
        since = state.waiting_since if carried and state.waiting_since else now
        # Only the waiting list is replaced: a console's decisions since the read above stay.
        held = [op.to_json_dict() for op in choose.held]
        result = None if choose.held_result is None else choose.held_result.to_json_dict()

        def edit(fresh: ReviewState) -> None:
            fresh.hold(since, choose.waiting, held, result)
            fresh.ruled_at, fresh.ruled = (now, ruled) if ruled else (None, [])

        update_state(self.store.journal.home, edit)
        return since if waits else None

    # -- the decisions file ---------------------------------------------------------------------

    def _read(self) -> ReviewState:
        try:
            return read_state(self.store.journal.home)
        except NuggetsError as exc:
            self.error = str(exc)
            return ReviewState()

    def _save(self, edit: Callable[[ReviewState], object] = lambda state: None) -> bool:
        """Write this session's part (`edit`) into the decisions file as it is now, with the
        plan as its scope's last once anything is decided (a mere look writes nothing). True
        when another process had written the file since this session last read it."""
        found: list[object] = []

        def change(state: ReviewState) -> None:
            found.append(state.stamp)  # the last call's: the file as the edit found it
            edit(state)
            if state.decisions and self.plan is not None:
                state.remember_plan(self.scope, self.keys)

        if self.error is None:  # never written over while it cannot be read
            try:
                state = update_state(self.store.journal.home, change)
            except NuggetsError as exc:
                self._failed(str(exc))
            else:
                news = found[-1] != self.state.stamp
                self._adopt(state)
                return news
        edit(self.state)  # kept for this review at least
        self._adopt(self.state)
        return False

    def _adopt(self, state: ReviewState) -> None:
        self.state = state
        if self.plan is not None:  # in memory too: the next plan's changes new since this one
            state.remember_plan(self.scope, self.keys)

    def _failed(self, message: str) -> None:
        self.error = message
        self.on_trouble("decisions", message)
