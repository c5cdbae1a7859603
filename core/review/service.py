"""The review service: verdicts, contradictions and settling them, for one store, as every front
end asks for them (the console's main and conflicts screens, the `verdicts`, `act`,
`conflicts` and `resolve` commands). The store's topic rules, the groups the operator let
stand and the scorer chosen are wired here once, never by a front end.

API:
- `ReviewService(store)`:
  - `.verdicts(notes, scorer=None, progress=None, should_stop=None) -> Judgement`: the
    store's topic rules and the groups let stand applied; a file of settled groups that cannot
    be read is said in `Judgement.notices` (first) and read as none
  - `.contradictions(graph, include_settled=False, scorer=None) -> Contradictions`: the groups
    of the store's topic rules (outdated ones marked), without those let stand unless asked;
    a model scorer also judges the pairs the rule finds no minimal pair in (`pair_judge`)
  - `.plan_decision(group, keep, how, graph) -> Plan`: one stands ("keep") or merge
  - `.both_stand(group, notes_by_id) -> JournalEntry | None`: remembered, journaled
- `model_scorer(url, model, key, deadline) -> ModelJudge | None`: the scorer a front end's
  choice names  (None: the built-in one)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from core.contract.store import Store
from core.models import JournalEntry, Plan, RawNote
from core.notes.snapshot import Graph
from core.progress import Progress
from core.review.contradictions import Group, PairJudge, find_by_rules
from core.review.decisions import How, open_groups, plan_decision, read_settled, settle_both
from core.review.model_scorer import ModelScorer
from core.review.verdicts import Judgement, ModelJudge, judge
from core.settings import DEFAULT_DEADLINE


@dataclass
class Contradictions:
    groups: list[Group]  # outdated ones included, marked (`Group.outdated`)
    notes: dict[str, RawNote]  # every note of the graph by id
    notices: list[str] = field(default_factory=list)  # the settled file unreadable: said


def model_scorer(
    url: str | None, model: str, key: str | None = None, deadline: float = DEFAULT_DEADLINE
) -> ModelJudge | None:
    """The model scorer at `url` (None: the default scorer); `key` and `deadline` from the
    settings."""
    return ModelScorer(url, model=model, key=key, deadline=deadline) if url else None


def pair_judge(scorer: ModelJudge | None) -> PairJudge | None:
    """The model's judge of statement pairs, when the scorer chosen is a model."""
    return scorer.judge_pairs if isinstance(scorer, ModelScorer) else None


def _pair_notices(scorer: ModelJudge | None) -> list[str]:
    """What the model's pair judging left to the rule, said once (then forgotten)."""
    if not isinstance(scorer, ModelScorer):
        return []
    said, scorer.pair_notices[:] = list(scorer.pair_notices), []
    return said


class ReviewService:
    """Verdicts, contradictions and their settling for one store (docs/VERDICTS.md)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def settled(self, notices: list[str]) -> set[str]:
        """The keys of the groups let stand; an unreadable file said in `notices`, as none."""
        return read_settled(self.store.journal.home, notices)

    def verdicts(
        self,
        notes: list[RawNote],
        scorer: ModelJudge | None = None,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Judgement:
        rules = self.store.topic_rules()
        unreadable: list[str] = []
        settled = self.settled(unreadable)
        judgement = judge(
            notes,
            self.store.clock(),
            topic=rules.topic,
            model=scorer,
            tokens=rules.tokens,
            promotable=rules.promoted,
            promote_at=rules.promote_at,
            settled=settled,
            progress=progress,
            should_stop=should_stop,
            recorded=rules.recorded,
            pairs=pair_judge(scorer),
        )
        judgement.notices[:0] = unreadable + _pair_notices(scorer)
        return judgement

    def contradictions(
        self, graph: Graph, include_settled: bool = False, scorer: ModelJudge | None = None
    ) -> Contradictions:
        """`scorer`: a model scorer also judges the pairs of a topic the rule finds no
        minimal pair in (what fell back said in `notices`)."""
        groups = find_by_rules(graph.notes, self.store.topic_rules(), pair_judge(scorer))
        by_id = {n["id"]: n for n in graph.notes}
        judged = _pair_notices(scorer)
        if include_settled:
            return Contradictions(groups, by_id, judged)
        unreadable: list[str] = []
        return Contradictions(
            open_groups(groups, by_id, self.settled(unreadable)), by_id, unreadable + judged
        )

    def plan_decision(
        self, group: Group, keep: str, how: How = "keep", graph: Graph | None = None
    ) -> Plan:
        return plan_decision(self.store, group, keep, how, graph=graph)

    def both_stand(self, group: Group, notes_by_id: Mapping[str, RawNote]) -> JournalEntry | None:
        return settle_both(self.store, group, notes_by_id)
